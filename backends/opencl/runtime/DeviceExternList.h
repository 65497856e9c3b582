#pragma once
/// \file The one list of extern ops that have a hand-written OpenCL kernel (DeviceExterns.h):
/// the OpenCL runtime dispatches on it and `fxkit ops` reports from it. Header-only and free of
/// OpenCL, so the op listing is the same in a build without the OpenCL runtime.

#include <cstdint>
#include <optional>
#include <string_view>

namespace fxkit::opencl {

/// Which kernel family computes an extern op on the device.
enum class DeviceExternFamily : uint8_t {
  Attention, ///< scaled dot-product attention forward (online softmax per query row)
  /// Its gradients from the forward's logsumexp (a work-item per query row, then per key row).
  AttentionBackward,
  Sort,        ///< sort along a dimension (a stable merge sort)
  TopK,        ///< topk: the sort, of which the first k are kept
  Convolution, ///< direct convolution, 1-D to 3-D, grouped, transposed, with bias
  /// The convolution's gradients: grad_input as the adjoint convolution (the same kernel),
  /// grad_weight and grad_bias a work-item per element, each where output_mask asks for it.
  ConvolutionBackward,
  Col2im, ///< col2im: a work-item per image pixel gathers its column entries
  Matmul, ///< mm, addmm, bmm where CLBlast declines (half, bfloat16, other layouts); baddbmm
  /// _native_batch_norm_legit in training (running statistics updated in place): a work-item
  /// per channel for the statistics, then one per element.
  BatchNorm,
  BatchNormBackward, ///< native_batch_norm_backward: per-channel sums, then grad_input
  /// _embedding_bag: the offsets checked and turned into bags by one work-item, then a work-item
  /// per (bag, column).
  EmbeddingBag,
  /// _fft_r2c, _fft_c2r, _fft_c2c: direct DFTs in double, one transformed dim after another.
  Fft,
  /// view_as_real, view_as_complex: extern copies after lowering (complex tensors have no loop
  /// code), copied as float pairs.
  ComplexView,
  /// index_put_ with integer indices: a work-item per element of the non-indexed dims walks
  /// the index positions in order (repeats as on the CPU), then self is copied to the result.
  IndexPut,
};

struct DeviceExternTarget {
  std::string_view target; ///< as FX prints it: `torch.ops.aten.sort.default`
  DeviceExternFamily family;
};

/// Every target with a device kernel. A kernel may still decline a particular call (a dtype,
/// layout or option it does not take, such as dropout): that call then runs on the host.
inline constexpr DeviceExternTarget kDeviceExternTargets[] = {
    {"torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default",
     DeviceExternFamily::Attention},
    {"torch.ops.aten._scaled_dot_product_efficient_attention.default",
     DeviceExternFamily::Attention},
    {"torch.ops.aten._scaled_dot_product_flash_attention_for_cpu_backward.default",
     DeviceExternFamily::AttentionBackward},
    {"torch.ops.aten._scaled_dot_product_efficient_attention_backward.default",
     DeviceExternFamily::AttentionBackward},
    {"torch.ops.aten.sort.default", DeviceExternFamily::Sort},
    {"torch.ops.aten.sort.stable", DeviceExternFamily::Sort},
    {"torch.ops.aten.topk.default", DeviceExternFamily::TopK},
    {"torch.ops.aten.convolution.default", DeviceExternFamily::Convolution},
    {"torch.ops.aten.convolution_backward.default", DeviceExternFamily::ConvolutionBackward},
    {"torch.ops.aten.col2im.default", DeviceExternFamily::Col2im},
    {"torch.ops.aten._native_batch_norm_legit.default", DeviceExternFamily::BatchNorm},
    {"torch.ops.aten.native_batch_norm_backward.default", DeviceExternFamily::BatchNormBackward},
    {"torch.ops.aten._embedding_bag.default", DeviceExternFamily::EmbeddingBag},
    {"torch.ops.aten._fft_r2c.default", DeviceExternFamily::Fft},
    {"torch.ops.aten._fft_c2r.default", DeviceExternFamily::Fft},
    {"torch.ops.aten._fft_c2c.default", DeviceExternFamily::Fft},
    {"torch.ops.aten.view_as_real.default", DeviceExternFamily::ComplexView},
    {"torch.ops.aten.view_as_complex.default", DeviceExternFamily::ComplexView},
    {"torch.ops.aten.index_put_.default", DeviceExternFamily::IndexPut},
    {"torch.ops.aten.mm.default", DeviceExternFamily::Matmul},
    {"torch.ops.aten.addmm.default", DeviceExternFamily::Matmul},
    {"torch.ops.aten.bmm.default", DeviceExternFamily::Matmul},
    {"torch.ops.aten.baddbmm.default", DeviceExternFamily::Matmul},
    // The out= forms compile as extern calls whose result is a buffer of its own; the `out`
    // tensor is an input the kernel does not read.
    {"torch.ops.aten.mm.out", DeviceExternFamily::Matmul},
    {"torch.ops.aten.addmm.out", DeviceExternFamily::Matmul},
    {"torch.ops.aten.bmm.out", DeviceExternFamily::Matmul},
    {"torch.ops.aten.baddbmm.out", DeviceExternFamily::Matmul},
};

/// The family of `target` (with or without the `torch.ops.` prefix), or nullopt when it has no
/// device kernel.
inline std::optional<DeviceExternFamily> deviceExternFamily(std::string_view target) {
  constexpr std::string_view prefix = "torch.ops.";
  for (const DeviceExternTarget &t : kDeviceExternTargets) {
    std::string_view name = t.target;
    if (name == target || (!target.starts_with(prefix) && name.substr(prefix.size()) == target))
      return t.family;
  }
  return std::nullopt;
}

} // namespace fxkit::opencl
