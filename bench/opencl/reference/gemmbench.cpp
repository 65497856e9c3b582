// Times kernel mma_nt of an OpenCL C file (tf32x3_gemm.cl) on the first GPU and checks 512
// sampled elements of C against double sums: the largest error over the sum of the products'
// magnitudes, beside a serial float32 FMA chain's.
// Usage: gemmbench FILE M N K   (environment: TM, TN, WTM, WTN the tile; BUILD the build options,
// e.g. "-DTK=16 -DDB=1 -DSPLITACC"; LOG=1 prints the build log, with -cl-nv-verbose registers)
#include "cl_harness.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

int main(int argc, char **argv) {
  if (argc < 5)
    return 2;
  int M = atoi(argv[2]), N = atoi(argv[3]), K = atoi(argv[4]);
  int TM = getenv("TM") ? atoi(getenv("TM")) : 128, TN = getenv("TN") ? atoi(getenv("TN")) : 128;
  int WTM = getenv("WTM") ? atoi(getenv("WTM")) : 4, WTN = getenv("WTN") ? atoi(getenv("WTN")) : 4;
  std::string opts = std::string(getenv("BUILD") ? getenv("BUILD") : "") +
                     " -DTM=" + std::to_string(TM) + " -DTN=" + std::to_string(TN) +
                     " -DWTM=" + std::to_string(WTM) + " -DWTN=" + std::to_string(WTN);
  Harness h;
  if (int status = openHarness(argv[1], opts, "mma_nt", h))
    return status;
  cl_context ctx = h.ctx;
  cl_command_queue q = h.q;
  cl_kernel k = h.k;
  cl_int err;
  std::vector<float> A((size_t)M * K), B((size_t)N * K), C((size_t)M * N);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> U(-1, 1);
  for (auto &x : A)
    x = U(rng);
  for (auto &x : B)
    x = U(rng);
  cl_mem a =
      clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, A.size() * 4, A.data(), &err);
  CK(err);
  cl_mem bb =
      clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, B.size() * 4, B.data(), &err);
  CK(err);
  cl_mem c = clCreateBuffer(ctx, CL_MEM_READ_WRITE, C.size() * 4, nullptr, &err);
  CK(err);
  CK(clSetKernelArg(k, 0, sizeof a, &a));
  CK(clSetKernelArg(k, 1, sizeof bb, &bb));
  CK(clSetKernelArg(k, 2, sizeof c, &c));
  CK(clSetKernelArg(k, 3, 4, &M));
  CK(clSetKernelArg(k, 4, 4, &N));
  CK(clSetKernelArg(k, 5, 4, &K));
  int threads = (TM / (16 * WTM)) * (TN / (8 * WTN)) * 32;
  size_t global[2] = {(size_t)((N + TN - 1) / TN) * threads, (size_t)((M + TM - 1) / TM)},
         local[2] = {(size_t)threads, 1};
  std::vector<double> times;
  for (int r = 0; r < 13; ++r) {
    cl_event e;
    CK(clEnqueueNDRangeKernel(q, k, 2, nullptr, global, local, 0, nullptr, &e));
    const double t = eventMs(e);
    if (r >= 3)
      times.push_back(t);
  }
  std::sort(times.begin(), times.end());
  CK(clEnqueueReadBuffer(q, c, CL_TRUE, 0, C.size() * 4, C.data(), 0, nullptr, nullptr));
  double worst = 0, worstF = 0;
  for (int i = 0; i < 512; ++i) {
    int r = (int)(rng() % M), col = (int)(rng() % N);
    double ref = 0, mag = 0;
    float f32 = 0;
    for (int p = 0; p < K; ++p) {
      ref += (double)A[(size_t)r * K + p] * B[(size_t)col * K + p];
      mag += std::fabs((double)A[(size_t)r * K + p] * B[(size_t)col * K + p]);
      f32 = std::fma(A[(size_t)r * K + p], B[(size_t)col * K + p], f32);
    }
    worst = std::max(worst, std::fabs(C[(size_t)r * N + col] - ref) / mag);
    worstF = std::max(worstF, std::fabs(f32 - ref) / mag);
  }
  double ms = times[times.size() / 2];
  std::printf("M%d N%d K%d tile %dx%d w%dx%d [%s]: median %.4f ms min %.4f, %.1f TFLOP/s; max "
              "err/sum|ab| %.2e (serial fp32 fma %.2e)\n",
              M, N, K, TM, TN, WTM, WTN, getenv("BUILD") ? getenv("BUILD") : "", ms, times[0],
              2.0 * M * N * K / ms / 1e9, worst, worstF);
}
