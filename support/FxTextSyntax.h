#pragma once
/// \file The spelling rules of FX graph text (`str(graph)`) that its reader
/// (importers/FxTextParser) and its printers (exporters/FxTextPrinter, ReadablePyPrinter) must
/// agree on: what a bare word reads as, where a string literal ends, the annotation types of
/// typed nodes. One home below both, so a printer decides "bare or quoted" with the reader's
/// own rules instead of including the reader.

#include "ir/Argument.h"

#include <cstddef>
#include <optional>
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

/// Characters that make a bare scalar opaque text (or end it: ',' and brackets).
inline constexpr std::string_view kFxNotInBareString = "()[]{}<>'\" \t,";

/// `torch.<name>` constants FX text spells bare: a dtype, memory format or layout. `rest` is the
/// text after "torch.".
std::optional<Argument> fxTorchConstant(std::string_view rest);

/// End of the Python string literal whose opening quote is at `start` of `line` (the position
/// of its closing quote), or npos when the line ends first.
size_t pyStringLiteralEnd(std::string_view line, size_t start);

/// Whether printFxText prints string `s` bare, as FX does (`_format_arg` writes str()): when
/// the bare text reads back as that same string, or as the device it spells. The one ambiguity
/// FX text has: str(graph) prints the str 'cuda' (PyTorch's WrapperFxCodegen passes devices so)
/// and the device cuda alike, and the reader takes the word for the device; both print the same.
/// Strings for which this is false print quoted (`'a b'`, `''`, `'1'`, `'None'`) and
/// parseFxText reads them back as strings.
bool fxStringPrintsBare(std::string_view s);

/// Whether dict key `k` printed bare (`{k: v}`, as FX does) reads back as the same key.
bool fxBareDictKeyReadsBack(std::string_view k);

} // namespace fxkit
