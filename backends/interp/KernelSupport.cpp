#include "backends/interp/KernelSupport.h"

#include <cassert>

namespace fxkit::kernels {

std::string sizesStr(std::span<const int64_t> sizes) {
  std::string s = "[";
  for (size_t i = 0; i < sizes.size(); ++i)
    s += (i ? ", " : "") + std::to_string(sizes[i]);
  return s + "]";
}

void registerKernelList(std::span<const std::pair<std::string_view, KernelFn>> kernels) {
  for (const auto &[target, fn] : kernels) {
    Status s = OpRegistry::instance().setKernel(target, fn);
    assert(s && "kernel for a target missing from the op table");
    (void)s;
  }
}

} // namespace fxkit::kernels
