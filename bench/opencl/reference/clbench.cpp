// Times one kernel of an OpenCL C file on the first GPU, for hand-written reference kernels
// (triton_like.cl) and hand-edited copies of fxkit's generated ones (bench/README.md, session 18).
// Usage: clbench FILE KERNEL GLOBAL LOCAL ARG...   (environment: BUILD, the build options; LOG=1
// prints the build log, e.g. with BUILD=-cl-nv-verbose for registers and spills)
// ARG: b:BYTES a buffer (small floats), o:BYTES the output buffer (its first floats are printed,
//      so variants can be compared), u:V ulong, l:V long, i:V int, s:BYTES local memory.
// Prints the median and least of 20 launches (after 5 warm-up ones), from profiling events.
#include "cl_harness.h"

#include <algorithm>
#include <vector>

int main(int argc, char **argv) {
  if (argc < 5)
    return 2;
  Harness h;
  if (int status =
          openHarness(argv[1], std::getenv("BUILD") ? std::getenv("BUILD") : "", argv[2], h))
    return status;
  cl_context ctx = h.ctx;
  cl_command_queue q = h.q;
  cl_kernel k = h.k;
  cl_int err;
  size_t global = std::strtoull(argv[3], nullptr, 10), local = std::strtoull(argv[4], nullptr, 10);
  std::vector<cl_mem> bufs;
  for (int a = 5; a < argc; ++a) {
    std::string arg = argv[a];
    char t = arg[0];
    std::string v = arg.substr(2);
    cl_uint idx = a - 5;
    if (t == 'b' || t == 'o') {
      size_t bytes = std::strtoull(v.c_str(), nullptr, 10);
      std::vector<float> host(bytes / 4);
      for (size_t i = 0; i < host.size(); ++i)
        host[i] = (float)((i * 2654435761u) % 1000) / 500.0f - 1.0f;
      cl_mem m =
          clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, host.data(), &err);
      CK(err);
      if (t == 'o' || bufs.empty())
        bufs.push_back(m);
      CK(clSetKernelArg(k, idx, sizeof(cl_mem), &m));
    } else if (t == 'u' || t == 'l') {
      cl_long x = std::strtoll(v.c_str(), nullptr, 10);
      CK(clSetKernelArg(k, idx, sizeof(x), &x));
    } else if (t == 'i') {
      cl_int x = std::atoi(v.c_str());
      CK(clSetKernelArg(k, idx, sizeof(x), &x));
    } else if (t == 's') {
      CK(clSetKernelArg(k, idx, std::strtoull(v.c_str(), nullptr, 10), nullptr));
    }
  }
  std::vector<double> ms;
  for (int r = 0; r < 25; ++r) {
    cl_event ev;
    CK(clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, &local, 0, nullptr, &ev));
    const double t = eventMs(ev);
    if (r >= 5)
      ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  // Checksum of the last buffer's first floats: variants must agree.
  std::vector<float> out(8);
  CK(clEnqueueReadBuffer(q, bufs.back(), CL_TRUE, 0, 32, out.data(), 0, nullptr, nullptr));
  std::printf("%s %s g=%zu l=%zu median %.4f ms min %.4f | %g %g %g %g\n", argv[1], argv[2], global,
              local, ms[ms.size() / 2], ms[0], out[0], out[1], out[2], out[3]);
  return 0;
}
