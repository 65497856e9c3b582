#pragma once
/// \file Reader for FX graph text: `str(graph)` (`*.graph.txt`), including Dynamo's Python
/// types (`%x : torch.SymInt [num_users=1] = ...`) and the typed form of Inductor's output
/// code comments (`%add : Tensor "f32[s77][1]cuda:0"[num_users=1] = ...`).

#include "ir/Error.h"
#include "ir/Graph.h"

#include <string>
#include <string_view>

namespace fxkit {

/// The Python type of a node read with a tensor type annotation: PyTorch's
/// `format_node(include_tensor_metadata=True)` (Inductor's output code comments, typed dumps)
/// writes `%x : Tensor "f32[8, 8][8, 1]cuda:0"[num_users=1] = ...` where `str(graph)` writes
/// the node's Python type. The node gets this type and the annotation as its value, and prints
/// that way again (FxTextPrinter), so typed text round-trips byte for byte.
inline constexpr std::string_view kFxTensorAnnotationType = "Tensor";

/// The Python type of a node read with a symbolic value annotation, fxkit's counterpart of the
/// tensor one for SymInt/SymFloat/SymBool values: `%s : Sym(s0)[num_users=1] = ...`, spelled
/// as print_readable() annotates them (`sym_size_int: "Sym(s0)"`; PyTorch's format_node writes
/// no annotation for them). printFxText(tensorTypes) writes it, and a node read that way prints
/// that way again.
inline constexpr std::string_view kFxSymAnnotationType = "Sym";

/// How strictly parseFxText reads its input.
struct FxTextParseOptions {
  /// Reads a fragment of a graph, such as the node comments in Inductor's output code: the
  /// `graph():` header and the `return` line are optional, a `%name` that is not defined
  /// becomes a placeholder (inserted first), and the graph is not verified.
  bool partial = false;
};

/// Parses FX graph text. Errors carry fileName:line:col and the offending line.
Expected<Graph> parseFxText(std::string_view text, const std::string &fileName = "<input>");

/// parseFxText with options (see FxTextParseOptions).
Expected<Graph> parseFxText(std::string_view text, const std::string &fileName,
                            const FxTextParseOptions &options);

/// Whether printFxText prints string `s` bare, as FX does (`_format_arg` writes str()): when
/// the bare text reads back as that same string, or as the device it spells. The one ambiguity
/// FX text has: str(graph) prints the str 'cuda' (PyTorch's WrapperFxCodegen passes devices so)
/// and the device cuda alike, and the reader takes the word for the device; both print the same.
/// Strings for which this is false print quoted (`'a b'`, `''`, `'1'`, `'None'`) and
/// parseFxText reads them back as strings.
bool fxStringPrintsBare(std::string_view s);

/// Whether dict key `k` printed bare (`{k: v}`, as FX does) reads back as the same key.
bool fxBareDictKeyReadsBack(std::string_view k);

/// Deepest bracket nesting parseFxText accepts in an argument; deeper input is an error.
inline constexpr int kFxTextMaxNesting = 256;

} // namespace fxkit
