#pragma once
/// \file Sizes checked when their symbols get values. Shape inference refuses a tensor whose
/// constant sizes overflow int64 (checkTensorExtent); a symbolic size is only known when an
/// executor binds its symbols, from inputs or, for unbacked symbols, from a value computed at
/// run time (`.item()`, nonzero). A bound symbol of 2^40 makes `full([u, u])` 2^80 elements,
/// which a kernel's int64 index would wrap (a sum once gave 0.0), and one of 2^31 makes it
/// 2^64 bytes, which no machine holds (a kernel then loops 2^62 times). Every executor calls
/// this after binding, before it allocates or launches anything sized by the new values.

#include "ir/Error.h"
#include "ir/SymExpr.h"
#include "ir/loop/LoopIR.h"

#include <string>

namespace fxkit::loop {

/// An error, naming the buffer, its type and the symbols' values, when a buffer of `program`
/// whose size symbols are all bound in `bindings` counts more elements or spans more bytes
/// than int64 holds, or takes more bytes than one tensor may (tensorByteLimit(),
/// FXKIT_MAX_TENSOR_BYTES): internal buffers too, since the tensor exists in the program even
/// where fusion keeps it out of memory (PyTorch would allocate it). Buffers with an unbound
/// symbol are skipped (checked again once it is bound).
Status checkBoundBufferSizes(const LoopProgram &program, const SymExpr::Bindings &bindings);

/// The same check of one tensor type, named `name` in the error ("buffer buf3"): what the C++
/// wrapper's runtime asks after an extern call binds unbacked symbols (Runtime::checkBound),
/// where no loop program is at hand. OK while a symbol of `type` is unbound.
Status checkBoundTensor(const std::string &name, const TensorType &type,
                        const SymExpr::Bindings &bindings);

} // namespace fxkit::loop
