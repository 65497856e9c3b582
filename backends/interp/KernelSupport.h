#pragma once
/// \file Helpers shared by every reference kernel (broadcast addressing, messages, error
/// unwrapping); internal to the interpreter.

#include "backends/interp/KernelContext.h"
#include "ir/Try.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace fxkit::kernels {

/// Storage offset of the element of `t` that broadcasting maps to `index` (index has at least
/// t.dim() entries; t's dimensions align with its last ones, size-1 dimensions repeat).
inline int64_t broadcastOffset(const Tensor &t, std::span<const int64_t> index) {
  int64_t offset = t.storageOffset();
  size_t lead = index.size() - static_cast<size_t>(t.dim());
  for (int64_t d = 0; d < t.dim(); ++d)
    if (t.size(d) != 1)
      offset += index[lead + d] * t.stride(d);
  return offset;
}

/// Whether `t` broadcasts to `sizes` (PyTorch's rules, aligned at the last dimension).
inline bool broadcastsTo(const Tensor &t, std::span<const int64_t> sizes) {
  if (static_cast<size_t>(t.dim()) > sizes.size())
    return false;
  size_t lead = sizes.size() - static_cast<size_t>(t.dim());
  for (int64_t d = 0; d < t.dim(); ++d)
    if (t.size(d) != 1 && t.size(d) != sizes[lead + d])
      return false;
  return true;
}

/// "[2, 3, 4]", for messages.
std::string sizesStr(std::span<const int64_t> sizes);

/// Registers `kernels` (target, kernel) in the op registry. Every target must be in the op
/// table: a miss means the table and a kernel list diverged (asserts).
void registerKernelList(std::span<const std::pair<std::string_view, KernelFn>> kernels);

} // namespace fxkit::kernels
