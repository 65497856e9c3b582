#pragma once
/// \file Every format fxkit writes, in one table: `convert --to`, `compile --to`, the shell's
/// `export` (by name or by the file's extension), its completion, the `--help` lists and the
/// "unknown format" errors all read it, so a new format is a writer plus one row here. The
/// table sits in the tools layer because its writers span the layers below (graph writers in
/// exporters/, program writers in exporters/wrapper/ and backends/opencl/codegen/, PTX in
/// backends/llvm/); whether an optional writer is built is a constant of the lower layer's
/// header (`kHave...`), so this file has no preprocessor conditionals. Input formats are the
/// importers' (importers/Import.h GraphFormat).

#include "exporters/RenderOptions.h"
#include "ir/Error.h"
#include "ir/Graph.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

/// What a format needs: any graph (read or compiled), a compiled program (the compiler passes
/// ran, or Inductor's wrapper code was read), or a compiled program written as a folder.
enum class OutputLevel : uint8_t { Graph, Program, Folder };

/// What a writer is asked for, beyond the graph.
struct OutputRequest {
  std::string output = "-";      ///< the file ("-": stdout) or, for Folder formats, the folder
  std::string input;             ///< the graph's file (titles, default names)
  RenderOptions render;          ///< pictures
  std::string name;              ///< wrapper-cpp: the program's identifier (default from `input`)
  std::string gpuArch = "sm_80"; ///< ptx
  bool build = false;            ///< wrapper-cpp: also compile DIR/NAME.o in process
  /// The compile command ran passes on the graph: fxir is the FX IR of fxkit's compiled program
  /// unless the graph was read from Inductor's wrapper code. Without it (convert), fxir is
  /// Inductor's only, and fxpy of Inductor's wrapper code is its runnable module.
  bool compiled = false;
  /// convert (one input): fxpy of Inductor's wrapper code is a module that runs its kernels.
  bool inductorModule = false;
};

/// A writer's result: the text to write (atomically, or to stdout), or nothing when it wrote
/// its folder itself; `note` goes to stderr after a successful write.
struct OutputResult {
  std::optional<std::string> text;
  std::string note;
};

/// `note` as stderr shows it: "fxkit: " before each of its lines (Graphviz's warnings are
/// several), and `input` with ": " after that when given (a batch names which input it was);
/// "" for no note. One home for writeOutput and the batch conversion, so both read alike.
std::string outputNoteLines(std::string_view note, std::string_view input = {});

struct OutputFormat {
  std::string_view name;
  /// File name endings that select it (`-o x.svg`, `export x.json`), the first one is what
  /// a batch conversion names its files; a format without any is chosen by name only.
  std::vector<std::string_view> extensions;
  OutputLevel level;
  /// The group this format is listed in by `--help`: consecutive rows with the same text are
  /// listed together ("fx, fxpy, json, pt2 (the graph)").
  std::string_view description;
  bool convert;                 ///< `convert --to` offers it (no compiler pass runs there)
  bool picture;                 ///< a picture (the shell's `render` draws these)
  std::string_view unavailable; ///< why this build cannot write it; empty when it can
  Expected<OutputResult> (*write)(Graph &graph, const OutputRequest &request);
};

/// The table, in the order lists show it.
std::span<const OutputFormat> outputFormats();

/// By name ("svg"); nullptr when there is none.
const OutputFormat *findOutputFormat(std::string_view name);

/// By the file name's extension (`x.graph.txt`: fx, `x.py`: fxpy, `x.gv`: dot); nullptr when
/// none matches.
const OutputFormat *outputFormatForPath(std::string_view path);

/// Which rows a list or a lookup is about.
enum class OutputUse : uint8_t {
  Convert,      ///< `convert --to` (one input)
  BatchConvert, ///< `convert IN... -o DIR --to` (graph formats)
  Compile,      ///< `compile --to`
  Shell,        ///< the shell's `export` (what is written to one file)
  Picture,      ///< the shell's `render`
};
bool outputFormatOffered(const OutputFormat &format, OutputUse use);

/// "fx, fxpy, json, ... or pdf": the names offered for `use`, for error messages.
std::string outputFormatList(OutputUse use);

/// The names offered for `use` (completion).
std::vector<std::string> outputFormatNames(OutputUse use);

/// `--help` text of `--to`: the offered names grouped by description, then the ones this build
/// lacks with why.
std::string outputFormatHelp(OutputUse use);

/// "unknown format 'NAME' for FLAG (expected LIST)"; FLAG may be empty (the shell).
Error unknownOutputFormat(std::string_view name, std::string_view flag, OutputUse use);

/// The error of `compile --build` in a build that cannot compile wrappers in process.
inline constexpr std::string_view kNoWrapperBuildMessage =
    "--build compiles the C++ wrapper with the LLVM component: this fxkit was built without it "
    "(install llvm-15-dev libclang-15-dev and rebuild)";

/// Bytes a terminal should not get: a NUL or text that is not UTF-8 (PNG, PDF, a .pt2 zip).
bool isBinaryOutput(std::string_view text);
/// "--to png is binary: not written to a terminal; give -o FILE.png or redirect stdout".
Error binaryToTerminal(const OutputFormat &format);

/// Runs the writer and writes its text to `request.output` atomically ("-": stdout, refused
/// with binaryToTerminal when it is a terminal and the text is binary); then prints the
/// writer's note on stderr.
Status writeOutput(const OutputFormat &format, Graph &graph, const OutputRequest &request);

} // namespace fxkit
