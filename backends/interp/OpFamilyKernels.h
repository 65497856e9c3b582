#pragma once
/// \file Registration of the reference kernels of the op families of ir/ops/OpFamilies.h;
/// registerReferenceKernels() calls each once.

namespace fxkit {

void registerIndexingKernels();
void registerReductionFamilyKernels();
void registerNnKernels();
void registerTensorKernels();
void registerFftKernels();

} // namespace fxkit
