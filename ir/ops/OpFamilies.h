#pragma once
/// \file The op families beyond the core table (ir/ops/OpTable.cpp). Each family file holds
/// its ops' rows (target, PyTorch schema, category) and their shape/dtype/stride inference; the
/// family's reference kernels live in backends/interp/<Family>Kernels.cpp. The registry reads
/// every table listed here once, when it is built.

#include "ir/ops/OpRegistry.h"

#include <span>

namespace fxkit {

/// Elementwise ops generated from ir/ops/PointwiseOps.def (ir/ops/PointwiseOps.cpp).
std::span<const OpRow> pointwiseOpRows();
/// gather, index, index_put, scatter*, *_scatter, padding, flip, repeat (IndexingOps.cpp).
std::span<const OpRow> indexingOpRows();
/// any, argmax/argmin, prod, max/min.dim, var, cumsum, sort, softmax, normalisations
/// (ReductionOps.cpp).
std::span<const OpRow> reductionOpRows();
/// Pooling, convolution backward, upsampling, grid sampling, distances (NnOps.cpp).
std::span<const OpRow> nnOpRows();
/// Creation, copies, matrix-product variants, attention backward, symbolic queries
/// (TensorOps.cpp).
std::span<const OpRow> tensorOpRows();
/// _fft_r2c, _fft_c2r, _fft_c2c, view_as_real, view_as_complex (FftOps.cpp): with the View
/// category, the only ops whose inference takes complex tensors.
std::span<const OpRow> fftOpRows();
/// Inductor's random prims: inductor_seeds, inductor_seed, inductor_lookup_seed,
/// inductor_random, inductor_randint (RandomOps.cpp).
std::span<const OpRow> randomOpRows();
/// Composite ops (ir/ops/Decomposer.h), each with its decomposition beside its row: linear,
/// convolutions, normalisations, dropout, pooling, padding, attention (CompositeNnOps.cpp);
/// conversions, reshapes, splits, stacking, matrix products, einsum (CompositeTensorOps.cpp);
/// operator aliases, scalar forms, activations and the in-place variants
/// (CompositePointwiseOps.cpp).
std::span<const OpRow> compositeNnOpRows();
/// Python's operators, torch.sym_* and math.* on SymInt/SymFloat/SymBool, and the ATen
/// assertions on them (_assert_scalar, sym_constrain_range) (SymbolicOps.cpp).
std::span<const OpRow> symbolicOpRows();
std::span<const OpRow> compositeTensorOpRows();
std::span<const OpRow> compositePointwiseOpRows();
/// The structural prims Inductor lowers, by the ATen ops that compute them: view_of,
/// broadcast_in_dim, rev, sum, var, copy_strided, inductor_force_stride_order, device_put,
/// _unsafe_index_put_, _make_token, _sink_tokens (CompositePrimsOps.cpp).
std::span<const OpRow> compositePrimsOpRows();

} // namespace fxkit
