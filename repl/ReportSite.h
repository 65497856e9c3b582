#pragma once
/// \file `fxkit report DIR -o SITE/`: one offline HTML site over a whole compile, a
/// `TORCH_COMPILE_DEBUG` folder (Inductor's `<model>__N_<kind>_M.K/` debug folders) or a zoo
/// model folder (`dynamo_N`, `aten_pre_N`, `aten_post_N`, `output_code_N.py`,
/// `cpp_wrapper_N.py`, `fxir_N`, `debug/`). `index.html` lists every graph of every stage with
/// its counts and the files that could not be read (with their error); each graph has a page
/// (the per-graph report of exporters/HtmlReport.h) with links between the stages of its compile
/// and Inductor's provenance as links: kernel -> post-grad nodes -> pre-grad nodes and back.
/// The post-grad graph's page is the compilation report: fxkit's kernels, fusion decisions and
/// memory plan beside Inductor's kernels, code and allocations.
///
/// Each compile also has diff pages (repl/ReportSiteDiff.h): its pre-grad against its post-grad
/// ATen graph, and Inductor's FX IR of its wrapper (`fxir_N.graph.txt`, else fxkit's conversion
/// of its `output_code.py`) against fxkit's FX IR of its own wrapper of the post-grad graph,
/// linked from the index and the navigation bar of every page of the compile. The post-grad
/// pages group their nodes by module path, recovered through Inductor's provenance and the
/// Dynamo graph (exporters/ModulePath.h), or say why none could be.
///
/// Which files form one compile: the debug folders in the order Inductor wrote them (by their
/// `M.K` suffix) are compiles 0, 1, ...; the zoo's `_i` files belong to compile i; a debug
/// folder `<model>__N_...` comes from Dynamo graph N (`dynamo_N`, shared by a training
/// graph's forward and backward).

#include "ir/Error.h"

#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

/// One file of the site (a page), by its name inside SITE.
struct SitePage {
  std::string name;
  std::string content;
};

/// What building a site found, beside its pages.
struct ReportSite {
  std::vector<SitePage> pages; ///< index.html first
  size_t graphs = 0;           ///< graph pages
  size_t diffs = 0;            ///< diff pages
  size_t unreadable = 0;       ///< files listed with their error instead of a page
};

/// The HTML id (and the value the pages' script looks up) for a node name or kernel handle:
/// the characters of names and handles, anything else as '_'. Node rows are `n-` + this.
std::string siteAnchorId(std::string_view name);

/// Reads every artifact under `dir` and builds the site's pages (nothing is written). Fails
/// only when `dir` holds no artifact at all; a file that cannot be read is listed on the index.
Expected<ReportSite> buildReportSite(const std::string &dir);

/// `fxkit report DIR -o SITE`: builds the site and writes it as the folder SITE
/// (writeFolderAtomic: nothing partial on error or interrupt). Returns the exit code.
int runReportSite(const std::string &dir, const std::string &output);

} // namespace fxkit
