#pragma once
/// \file `fxkit convert IN... -o DIR --to FMT [--jobs N] [--keep-tree|--flat]`: converts many
/// graphs on a worker pool, each into DIR as its input's stem plus the format's extension, below
/// DIR at the input's folder relative to the inputs' common folder when the tree is kept.

#include "importers/Import.h"
#include "repl/OutputFormats.h"

#include <optional>
#include <string>
#include <vector>

namespace fxkit {

/// Where a batch writes each output.
enum class BatchLayout {
  /// Flat, unless two outputs would have one name (every model folder of a PyTorch debug dump
  /// has an `aten_post_0.graph.txt`): then KeepTree, with a note on stderr.
  Auto,
  /// Every output directly in DIR; two inputs with one output name are refused.
  Flat,
  /// Each output at its input's path relative to the inputs' common folder (as `cp --parents`
  /// below that folder), sub-folders created.
  KeepTree,
};

/// The output paths of a batch, one per input in input order.
struct BatchOutputs {
  std::vector<std::string> paths;
  bool keptTree = false; ///< the tree layout was used (asked for, or Auto on a name collision)
};

/// Plans where each input is written under `outputDir`. Errors (nothing written yet): two
/// inputs that the layout would write to one path (`'A' and 'B' would both be written to 'O'`).
Expected<BatchOutputs> planBatchOutputs(const std::vector<std::string> &inputs,
                                        const std::string &outputDir, const OutputFormat &to,
                                        BatchLayout layout);

/// What one batch conversion is asked to do.
struct BatchConvertOptions {
  std::vector<std::string> inputs;
  std::string outputDir;
  std::optional<GraphFormat> from; ///< unset: detected per file
  /// A graph format (outputFormatOffered(BatchConvert)), written with its default options.
  const OutputFormat *to = nullptr;
  unsigned jobs = 0; ///< 0: one per hardware thread
  BatchLayout layout = BatchLayout::Auto;
};

/// The output file name for an input: its stem (`X` of `X.graph.txt`, `X.readable.py`, `X.py`,
/// `X.json`) plus the extension of the format (`.graph.txt`, `.py`, `.json`). The FX text
/// extension is `.graph.txt` so that a converted file's format is detected again on reading.
std::string batchOutputName(const std::string &input, const OutputFormat &to);

/// Runs the batch: each output is written atomically, so a failed input leaves no file. Errors
/// go to stderr per input as `fxkit: file:line:col: ...`; a progress line is drawn on stderr
/// only when it is a terminal; a summary ends the run: `converted N (K with types from a
/// sidecar), failed M` (the count of sidecars only when there are some), then each failed
/// input with its first error line, in input order, so that they are seen without scrolling.
/// Returns the exit code: 0 all converted, 2 any failed (as for one input) or bad usage
/// (nothing converted).
int runBatchConvert(const BatchConvertOptions &options);

} // namespace fxkit
