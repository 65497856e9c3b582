#pragma once
/// \file Registration of the reference kernels of the op families of ir/ops/OpFamilies.h;
/// registerReferenceKernels() calls each once.

namespace fxkit {

void registerIndexingKernels();
void registerReductionFamilyKernels();
void registerNnKernels();
void registerTensorKernels();
/// inductor_seeds, lookup_seed, random, randint; rand, randn, native_dropout (RandomKernels.cpp).
void registerRandomKernels();
void registerFftKernels();

} // namespace fxkit
