#pragma once
/// \file Where a program buffer lives on the host: an allocation, a byte offset into it, and
/// its size (the LLVM backend's counterpart of the OpenCL backend's DeviceBuffer).

#include <cstddef>

namespace fxkit::llvmjit {

struct HostBuffer {
  std::byte *base = nullptr;
  size_t offset = 0;
  size_t bytes = 0;
};

} // namespace fxkit::llvmjit
