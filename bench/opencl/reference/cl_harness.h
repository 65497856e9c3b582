// What the reference harnesses (clbench.cpp, gemmbench.cpp) share: the first GPU, a profiling
// queue, a kernel built from an OpenCL C file, and device times from profiling events.
#pragma once
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#define CK(x)                                                                                      \
  do {                                                                                             \
    cl_int e_ = (x);                                                                               \
    if (e_ != CL_SUCCESS) {                                                                        \
      std::fprintf(stderr, "%s: %d\n", #x, e_);                                                    \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

struct Harness {
  cl_device_id dev = nullptr;
  cl_context ctx = nullptr;
  cl_command_queue q = nullptr;
  cl_program prog = nullptr;
  cl_kernel k = nullptr;
};

/// Builds `file` with `options` on the first GPU and creates `kernel` in `h`; the build log goes
/// to stderr when the build fails or LOG is set. Returns 0, or the exit status to end with.
inline int openHarness(const char *file, const std::string &options, const char *kernel,
                       Harness &h) {
  std::ifstream f(file);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string src = ss.str();
  cl_platform_id plats[8];
  cl_uint np = 0;
  CK(clGetPlatformIDs(8, plats, &np));
  for (cl_uint p = 0; p < np && !h.dev; ++p)
    if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_GPU, 1, &h.dev, nullptr) != CL_SUCCESS)
      h.dev = nullptr;
  if (!h.dev)
    return 3;
  cl_int err;
  h.ctx = clCreateContext(nullptr, 1, &h.dev, nullptr, nullptr, &err);
  CK(err);
  h.q = clCreateCommandQueue(h.ctx, h.dev, CL_QUEUE_PROFILING_ENABLE, &err);
  CK(err);
  const char *s = src.c_str();
  h.prog = clCreateProgramWithSource(h.ctx, 1, &s, nullptr, &err);
  CK(err);
  const cl_int built = clBuildProgram(h.prog, 1, &h.dev, options.c_str(), nullptr, nullptr);
  if (built != CL_SUCCESS || std::getenv("LOG")) {
    size_t n = 0;
    clGetProgramBuildInfo(h.prog, h.dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
    std::string log(n, ' ');
    clGetProgramBuildInfo(h.prog, h.dev, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
    std::fprintf(stderr, "%s%s\n", built != CL_SUCCESS ? "build failed:\n" : "", log.c_str());
  }
  if (built != CL_SUCCESS)
    return 4;
  h.k = clCreateKernel(h.prog, kernel, &err);
  CK(err);
  return 0;
}

/// Milliseconds event `ev` ran on the device (it is waited for and released).
inline double eventMs(cl_event ev) {
  clWaitForEvents(1, &ev);
  cl_ulong t0 = 0, t1 = 0;
  clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, nullptr);
  clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, nullptr);
  clReleaseEvent(ev);
  return (t1 - t0) * 1e-6;
}
