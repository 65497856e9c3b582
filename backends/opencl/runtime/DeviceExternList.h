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
  Matmul,      ///< mm, addmm, bmm where CLBlast declines (half, bfloat16, other layouts); baddbmm
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
