#pragma once
/// \file The reference interpreter: runs a graph op by op on CPU tensors with the op registry's
/// kernels. It is the oracle every compiled backend is checked against, so it is written to be
/// obviously correct (double-precision loops, every result checked against its inferred
/// type), not fast.

#include "backends/interp/RuntimeValue.h"
#include "ir/Error.h"
#include "ir/Graph.h"
#include "ir/SymExpr.h"

#include <csignal>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace fxkit {

/// Fills the kernel slot of every op in the op table that has a reference kernel (pointwise,
/// creation, reduction, view, symbolic and extern ops). Idempotent and thread-safe.
void registerReferenceKernels();

struct InterpretOptions {
  /// Check that every kernel's tensors have the dtype, sizes and strides shape inference gave
  /// the node (catches disagreements between a kernel and its op's inference rule).
  bool checkTypes = true;
  /// When set and non-zero (a SIGINT handler sets it), the run stops between nodes with the
  /// error "interrupted". Read only; the caller clears it.
  const volatile std::sig_atomic_t *interrupt = nullptr;
};

/// What a run produced.
struct InterpretResult {
  /// One value per element returned by the output node, in order (a tensor, an integer for a
  /// symbolic size, or nothing for None).
  std::vector<RuntimeValue> outputs;
  /// The value of every symbol of the graph's types (s77 = 33), bound from the inputs.
  SymExpr::Bindings bindings;
};

/// Runs `graph` on `inputs` (one per placeholder, in placeholder order).
///
/// Placeholders without a value take their input's type (concrete sizes); a placeholder typed
/// with symbolic sizes binds each bare symbol to its input's size (s77 = 33) and checks every
/// other size and the dtype, and an integer placeholder typed `s77` binds s77. Nodes without a
/// value get one from shape inference before anything runs. Errors name the node and its op:
/// wrong number of inputs, an input of the wrong dtype, rank or size, an op without kernel, a
/// kernel failure, a result that does not match its inferred type.
Expected<InterpretResult> interpretGraph(Graph &graph, std::span<const RuntimeValue> inputs,
                                         const InterpretOptions &options = {});

/// Seeded random inputs for the graph's placeholders from their types (see Tensor::random),
/// with symbols taken from `symbols` (every symbol in a placeholder's type must be bound).
/// Integer placeholders typed by a symbol get that symbol's value.
Expected<std::vector<RuntimeValue>>
makeRandomInputs(const Graph &graph, const SymExpr::Bindings &symbols, uint64_t seed);

} // namespace fxkit
