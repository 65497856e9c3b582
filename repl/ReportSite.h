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
/// Which files form one compile: the debug folders in the order Inductor wrote them (by their
/// `M.K` suffix) are compiles 0, 1, ...; the zoo's `_i` files belong to compile i; a debug
/// folder `<model>__N_...` comes from Dynamo graph N (`dynamo_N`, shared by a training
/// graph's forward and backward).

#include "ir/Error.h"

#include <string>
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
  size_t unreadable = 0;       ///< files listed with their error instead of a page
};

/// Reads every artifact under `dir` and builds the site's pages (nothing is written). Fails
/// only when `dir` holds no artifact at all; a file that cannot be read is listed on the index.
Expected<ReportSite> buildReportSite(const std::string &dir);

/// `fxkit report DIR -o SITE`: builds the site and writes it as the folder SITE
/// (writeFolderAtomic: nothing partial on error or interrupt). Returns the exit code.
int runReportSite(const std::string &dir, const std::string &output);

} // namespace fxkit
