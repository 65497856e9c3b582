#pragma once
/// \file OpenCL platforms and devices through the ICD loader: listing them (`fxkit devices`),
/// picking one (`--device cpu|gpu|N`), and the context and in-order queue fxkit runs on.

#include "ir/Error.h"

#include <CL/cl.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace fxkit::opencl {

struct DeviceInfo {
  int index = 0; ///< position in the listing, for `--device N`
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  std::string platformName, deviceName, deviceVersion, driverVersion;
  bool isGpu = false, isCpu = false;
  size_t maxWorkGroupSize = 1;
  uint64_t globalMemBytes = 0, localMemBytes = 0;
  int computeUnits = 0;
  bool hasFp64 = false;
  /// NVIDIA's build options (cl_nv_compiler_options: -cl-nv-maxrregcount, -cl-nv-verbose).
  bool hasNvCompilerOptions = false;
  /// NVIDIA's warp size (cl_nv_device_attribute_query's CL_DEVICE_WARP_SIZE_NV; 0: not NVIDIA):
  /// 32 lets kernels combine lanes with PTX warp shuffles (FX_WARP_SHUFFLE).
  int nvWarpSize = 0;
  /// NVIDIA's compute capability (CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV; 0: not NVIDIA): from 8,
  /// the GEMM template's tensor-core tiles (PTX mma.sync with TF32 operands) compute there.
  int nvComputeMajor = 0;
  /// One line: "0: Portable Computing Language / cpu-haswell-... (CPU, 2 units, 24 GiB)".
  std::string str() const;
};

/// Every device of every platform, in platform order. An empty list is not an error (no ICD
/// registered); a failing loader is.
Expected<std::vector<DeviceInfo>> listDevices();

/// Picks a device: "" (the environment's FXKIT_OPENCL_DEVICE, else the first GPU, else the
/// first device), "cpu", "gpu", or an index from listDevices.
Expected<DeviceInfo> selectDevice(const std::string &selector);

/// The hand-written extern kernels of a context (DeviceExterns.cpp).
struct DeviceExternKernels;

/// A context and an in-order, profiling queue on one device.
class OpenCLContext {
public:
  static Expected<std::unique_ptr<OpenCLContext>> create(const DeviceInfo &device);
  ~OpenCLContext();
  OpenCLContext(const OpenCLContext &) = delete;
  OpenCLContext &operator=(const OpenCLContext &) = delete;

  const DeviceInfo &device() const { return device_; }
  cl_context context() const { return context_; }
  cl_command_queue queue() const { return queue_; }
  /// The hand-written extern kernels (DeviceExterns.h): made on first use, under
  /// deviceExternMutex(), and shared by every program on this context, so each is built once
  /// per context. Released before the context.
  std::shared_ptr<DeviceExternKernels> &deviceExterns() { return deviceExterns_; }
  std::mutex &deviceExternMutex() { return deviceExternMutex_; }

private:
  OpenCLContext() = default;
  std::shared_ptr<DeviceExternKernels> deviceExterns_;
  std::mutex deviceExternMutex_;
  DeviceInfo device_;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
};

/// "CL_OUT_OF_RESOURCES (-5)".
std::string clErrorName(cl_int code);
/// An Error "<what>: <clErrorName(code)>".
Error clError(const std::string &what, cl_int code);

} // namespace fxkit::opencl
