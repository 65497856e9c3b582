#pragma once
/// \file `fxkit convert IN... -o DIR --to FMT [--jobs N]`: converts many graphs on a worker
/// pool, each into DIR as its input's stem plus the format's extension.

#include "importers/Import.h"
#include "repl/OutputFormats.h"

#include <optional>
#include <string>
#include <vector>

namespace fxkit {

/// What one batch conversion is asked to do.
struct BatchConvertOptions {
  std::vector<std::string> inputs;
  std::string outputDir;
  std::optional<GraphFormat> from; ///< unset: detected per file
  /// A graph format (outputFormatOffered(BatchConvert)), written with its default options.
  const OutputFormat *to = nullptr;
  unsigned jobs = 0; ///< 0: one per hardware thread
};

/// The output file name for an input: its stem (`X` of `X.graph.txt`, `X.readable.py`, `X.py`,
/// `X.json`) plus the extension of the format (`.graph.txt`, `.py`, `.json`). The FX text
/// extension is `.graph.txt` so that a converted file's format is detected again on reading.
std::string batchOutputName(const std::string &input, const OutputFormat &to);

/// Runs the batch: each output is written atomically, so a failed input leaves no file. Errors
/// go to stderr per input as `fxkit: file:line:col: ...`; a progress line is drawn on stderr
/// only when it is a terminal; a summary `converted N, failed M` ends the run. Returns the exit
/// code: 0 all converted, 1 any failed, 2 bad usage (nothing converted).
int runBatchConvert(const BatchConvertOptions &options);

} // namespace fxkit
