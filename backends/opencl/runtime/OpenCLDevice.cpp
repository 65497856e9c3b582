#include "backends/opencl/runtime/OpenCLDevice.h"

#include <cstdlib>

namespace fxkit::opencl {

namespace {

/// The ICD loader's "no platform registered" (cl_ext.h's CL_PLATFORM_NOT_FOUND_KHR).
constexpr cl_int CL_PLATFORM_NOT_FOUND_KHR_VALUE = -1001;

std::string platformString(cl_platform_id p, cl_platform_info what) {
  size_t n = 0;
  if (clGetPlatformInfo(p, what, 0, nullptr, &n) != CL_SUCCESS || n == 0)
    return "";
  std::string s(n, '\0');
  clGetPlatformInfo(p, what, n, s.data(), nullptr);
  while (!s.empty() && (s.back() == '\0' || s.back() == ' '))
    s.pop_back();
  return s;
}

std::string deviceString(cl_device_id d, cl_device_info what) {
  size_t n = 0;
  if (clGetDeviceInfo(d, what, 0, nullptr, &n) != CL_SUCCESS || n == 0)
    return "";
  std::string s(n, '\0');
  clGetDeviceInfo(d, what, n, s.data(), nullptr);
  while (!s.empty() && (s.back() == '\0' || s.back() == ' '))
    s.pop_back();
  return s;
}

template <typename T> T deviceValue(cl_device_id d, cl_device_info what) {
  T v{};
  clGetDeviceInfo(d, what, sizeof v, &v, nullptr);
  return v;
}

} // namespace

std::string clErrorName(cl_int code) {
  const char *name = nullptr;
  switch (code) {
  case CL_DEVICE_NOT_FOUND:
    name = "CL_DEVICE_NOT_FOUND";
    break;
  case CL_DEVICE_NOT_AVAILABLE:
    name = "CL_DEVICE_NOT_AVAILABLE";
    break;
  case CL_COMPILER_NOT_AVAILABLE:
    name = "CL_COMPILER_NOT_AVAILABLE";
    break;
  case CL_MEM_OBJECT_ALLOCATION_FAILURE:
    name = "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    break;
  case CL_OUT_OF_RESOURCES:
    name = "CL_OUT_OF_RESOURCES";
    break;
  case CL_OUT_OF_HOST_MEMORY:
    name = "CL_OUT_OF_HOST_MEMORY";
    break;
  case CL_BUILD_PROGRAM_FAILURE:
    name = "CL_BUILD_PROGRAM_FAILURE";
    break;
  case CL_INVALID_VALUE:
    name = "CL_INVALID_VALUE";
    break;
  case CL_INVALID_DEVICE:
    name = "CL_INVALID_DEVICE";
    break;
  case CL_INVALID_BINARY:
    name = "CL_INVALID_BINARY";
    break;
  case CL_INVALID_BUILD_OPTIONS:
    name = "CL_INVALID_BUILD_OPTIONS";
    break;
  case CL_INVALID_PROGRAM:
    name = "CL_INVALID_PROGRAM";
    break;
  case CL_INVALID_KERNEL_NAME:
    name = "CL_INVALID_KERNEL_NAME";
    break;
  case CL_INVALID_KERNEL_ARGS:
    name = "CL_INVALID_KERNEL_ARGS";
    break;
  case CL_INVALID_ARG_INDEX:
    name = "CL_INVALID_ARG_INDEX";
    break;
  case CL_INVALID_ARG_VALUE:
    name = "CL_INVALID_ARG_VALUE";
    break;
  case CL_INVALID_ARG_SIZE:
    name = "CL_INVALID_ARG_SIZE";
    break;
  case CL_INVALID_WORK_GROUP_SIZE:
    name = "CL_INVALID_WORK_GROUP_SIZE";
    break;
  case CL_INVALID_WORK_ITEM_SIZE:
    name = "CL_INVALID_WORK_ITEM_SIZE";
    break;
  case CL_INVALID_GLOBAL_WORK_SIZE:
    name = "CL_INVALID_GLOBAL_WORK_SIZE";
    break;
  case CL_INVALID_BUFFER_SIZE:
    name = "CL_INVALID_BUFFER_SIZE";
    break;
  case CL_INVALID_MEM_OBJECT:
    name = "CL_INVALID_MEM_OBJECT";
    break;
  case CL_PLATFORM_NOT_FOUND_KHR_VALUE:
    name = "CL_PLATFORM_NOT_FOUND_KHR";
    break;
  default:
    break;
  }
  return (name ? std::string(name) + " " : std::string()) + "(" + std::to_string(code) + ")";
}

Error clError(const std::string &what, cl_int code) {
  return Error(what + ": " + clErrorName(code));
}

std::string DeviceInfo::str() const {
  std::string kind = isGpu ? "GPU" : isCpu ? "CPU" : "accelerator";
  return std::to_string(index) + ": " + platformName + " / " + deviceName + " (" + kind + ", " +
         std::to_string(computeUnits) + " units, " + std::to_string(globalMemBytes >> 20) +
         " MiB, " + deviceVersion + ", driver " + driverVersion + ")";
}

Expected<std::vector<DeviceInfo>> listDevices() {
  cl_uint nPlatforms = 0;
  cl_int err = clGetPlatformIDs(0, nullptr, &nPlatforms);
  std::vector<DeviceInfo> out;
  if (err == CL_PLATFORM_NOT_FOUND_KHR_VALUE || nPlatforms == 0)
    return out;
  if (err != CL_SUCCESS)
    return clError("listing OpenCL platforms", err);
  std::vector<cl_platform_id> platforms(nPlatforms);
  clGetPlatformIDs(nPlatforms, platforms.data(), nullptr);
  for (cl_platform_id p : platforms) {
    cl_uint nDevices = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &nDevices) != CL_SUCCESS)
      continue;
    std::vector<cl_device_id> devices(nDevices);
    clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, nDevices, devices.data(), nullptr);
    for (cl_device_id d : devices) {
      DeviceInfo info;
      info.index = static_cast<int>(out.size());
      info.platform = p;
      info.device = d;
      info.platformName = platformString(p, CL_PLATFORM_NAME);
      info.deviceName = deviceString(d, CL_DEVICE_NAME);
      info.deviceVersion = deviceString(d, CL_DEVICE_VERSION);
      info.driverVersion = deviceString(d, CL_DRIVER_VERSION);
      auto type = deviceValue<cl_device_type>(d, CL_DEVICE_TYPE);
      info.isGpu = type & CL_DEVICE_TYPE_GPU;
      info.isCpu = type & CL_DEVICE_TYPE_CPU;
      info.maxWorkGroupSize = deviceValue<size_t>(d, CL_DEVICE_MAX_WORK_GROUP_SIZE);
      info.globalMemBytes = deviceValue<cl_ulong>(d, CL_DEVICE_GLOBAL_MEM_SIZE);
      info.localMemBytes = deviceValue<cl_ulong>(d, CL_DEVICE_LOCAL_MEM_SIZE);
      info.computeUnits = static_cast<int>(deviceValue<cl_uint>(d, CL_DEVICE_MAX_COMPUTE_UNITS));
      const std::string extensions = deviceString(d, CL_DEVICE_EXTENSIONS);
      info.hasFp64 = extensions.find("cl_khr_fp64") != std::string::npos;
      info.hasNvCompilerOptions = extensions.find("cl_nv_compiler_options") != std::string::npos;
      if (extensions.find("cl_nv_device_attribute_query") != std::string::npos) {
        constexpr cl_device_info kWarpSizeNv = 0x4003; // CL_DEVICE_WARP_SIZE_NV (cl_ext.h)
        info.nvWarpSize = static_cast<int>(deviceValue<cl_uint>(d, kWarpSizeNv));
        constexpr cl_device_info kComputeMajorNv = 0x4000; // CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV
        info.nvComputeMajor = static_cast<int>(deviceValue<cl_uint>(d, kComputeMajorNv));
      }
      out.push_back(std::move(info));
    }
  }
  return out;
}

Expected<DeviceInfo> selectDevice(const std::string &selectorIn) {
  std::string selector = selectorIn;
  if (selector.empty())
    if (const char *env = std::getenv("FXKIT_OPENCL_DEVICE"))
      selector = env;
  auto devices = listDevices();
  if (!devices)
    return devices.takeError();
  if (devices->empty())
    return Error("no OpenCL device: no platform is registered with the ICD loader "
                 "(install pocl-opencl-icd for the CPU device, or set OCL_ICD_VENDORS); "
                 "--backend interp runs without one");
  if (selector.empty()) {
    for (const DeviceInfo &d : *devices)
      if (d.isGpu)
        return d;
    return devices->front();
  }
  if (selector == "cpu" || selector == "gpu") {
    for (const DeviceInfo &d : *devices)
      if ((selector == "cpu" && d.isCpu) || (selector == "gpu" && d.isGpu))
        return d;
    return Error("no OpenCL " + selector + " device (see `fxkit devices`)");
  }
  char *end = nullptr;
  long index = std::strtol(selector.c_str(), &end, 10);
  if (end && *end == '\0' && !selector.empty()) {
    if (index < 0 || index >= static_cast<long>(devices->size()))
      return Error("no OpenCL device " + selector + ": there are " +
                   std::to_string(devices->size()) + " (see `fxkit devices`)");
    return (*devices)[index];
  }
  return Error("bad device '" + selector + "': expected cpu, gpu or a device number");
}

Expected<std::unique_ptr<OpenCLContext>> OpenCLContext::create(const DeviceInfo &device) {
  std::unique_ptr<OpenCLContext> c(new OpenCLContext());
  c->device_ = device;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                   reinterpret_cast<cl_context_properties>(device.platform), 0};
  cl_int err = CL_SUCCESS;
  c->context_ = clCreateContext(props, 1, &device.device, nullptr, nullptr, &err);
  if (err != CL_SUCCESS)
    return clError("creating an OpenCL context on " + device.deviceName, err);
  c->queue_ = clCreateCommandQueue(c->context_, device.device, CL_QUEUE_PROFILING_ENABLE, &err);
  if (err != CL_SUCCESS)
    return clError("creating an OpenCL queue on " + device.deviceName, err);
  return c;
}

OpenCLContext::~OpenCLContext() {
  deviceExterns_.reset(); // its programs and kernels belong to this context
  if (queue_)
    clReleaseCommandQueue(queue_);
  if (context_)
    clReleaseContext(context_);
}

} // namespace fxkit::opencl
