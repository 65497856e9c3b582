#pragma once
/// \file Where a buffer of the loop program lives on an OpenCL device.

#include <CL/cl.h>

#include <cstddef>

namespace fxkit::opencl {

struct DeviceBuffer {
  cl_mem mem = nullptr; ///< not owned: the program's pool or allocation
  size_t offset = 0;    ///< bytes from the start of mem
  size_t bytes = 0;     ///< bytes of the buffer's storage
};

/// Whether `a` and `b` share a byte of storage.
inline bool overlaps(const DeviceBuffer &a, const DeviceBuffer &b) {
  return a.mem == b.mem && a.offset < b.offset + b.bytes && b.offset < a.offset + a.bytes;
}

} // namespace fxkit::opencl
