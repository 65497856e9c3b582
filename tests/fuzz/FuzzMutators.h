#pragma once
/// \file Structure-aware mutators for the libFuzzer targets (libFuzzer's
/// LLVMFuzzerCustomMutator). Byte-level mutations of a text or JSON file mostly break its
/// framing (a quote, a bracket, the safetensors length prefix) and stop in the lexer; these keep
/// the structure and change its parts, so mutated inputs reach the parsers' later stages and the
/// graph checks: lines of text formats are duplicated, moved, dropped, repeated to megabytes,
/// their tokens replaced by other tokens of the input or by extreme values; JSON values are
/// replaced, copied between places, deleted and nested; the safetensors header is mutated as
/// JSON with its length prefix kept right. Half of the calls still go to libFuzzer's own
/// byte-level mutator (with the target's dictionary), so nothing it finds is lost.

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace fxkit::fuzz {

/// How a target's input is structured, which picks its mutator.
enum class InputShape {
  Text,        ///< lines of tokens: FX text, Python, Inductor artifacts, CSV, REPL lines
  Json,        ///< one JSON document: fxkit JSON, provenance maps, a pt2 archive's model.json
  Safetensors, ///< 8-byte little-endian header length, JSON header, tensor data
  TextNulJson, ///< FX text, a NUL byte, a nodes.json sidecar
};

/// The shape of the target named `name`.
InputShape inputShapeOf(std::string_view name);

/// Mutates data[0, size) in place (capacity maxSize) and returns the new size, deterministic in
/// `seed`. byteMutate is libFuzzer's own mutator (LLVMFuzzerMutate), used for part of the calls
/// and for the parts the structured mutators do not understand.
size_t mutateStructured(InputShape shape, uint8_t *data, size_t size, size_t maxSize, unsigned seed,
                        size_t (*byteMutate)(uint8_t *, size_t, size_t));

} // namespace fxkit::fuzz
