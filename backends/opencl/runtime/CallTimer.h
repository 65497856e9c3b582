#pragma once
/// \file The device time of whole calls of a program, the way CUDA events time PyTorch: a
/// timestamp command on the in-order queue before a call's first command and one after its
/// last, read once the host has waited anyway. A call's time runs from when the queue reached
/// its first stamp (every earlier command finished) to when it reached its last one, gaps
/// where the device waited for the host included. The stamps are markers, or, on a device
/// that gives markers no timestamps, one-byte fills of a scratch buffer.

#include "backends/opencl/runtime/OpenCLDevice.h"

#include <CL/cl.h>

#include <cstddef>
#include <utility>
#include <vector>

namespace fxkit::opencl {

class CallTimer {
public:
  /// Before a call's first command (drops a call begun but never ended: it failed).
  void begin(OpenCLContext &ctx) {
    drop(open_);
    open_ = stamp(ctx);
  }
  /// After a call's last command; `label` tells calls apart (an extern op's kind) in labels().
  void end(OpenCLContext &ctx, int label = 0) {
    if (!open_)
      return;
    cl_event last = stamp(ctx);
    if (last)
      pending_.push_back({open_, last, label});
    else
      drop(open_);
    open_ = nullptr;
    // Calls that never wait (outputs left on the device) would hold two events each until the
    // next wait: read the finished ones now and then.
    if (pending_.size() >= 64)
      collect(/*finishedOnly=*/true);
  }
  /// Reads the ended calls' times, waiting for their stamps (call it after a wait); with
  /// `finishedOnly`, only the oldest calls whose stamps have completed, without waiting.
  void collect(bool finishedOnly = false) {
    size_t done = 0;
    for (auto &[first, last, label] : pending_) {
      if (finishedOnly) {
        cl_int status = CL_QUEUED;
        if (clGetEventInfo(last, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                           nullptr) != CL_SUCCESS ||
            status != CL_COMPLETE)
          break;
      }
      ++done;
      cl_event both[2] = {first, last};
      clWaitForEvents(2, both);
      cl_ulong t0 = 0, t1 = 0;
      if (clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_END, sizeof t0, &t0, nullptr) ==
              CL_SUCCESS &&
          clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof t1, &t1, nullptr) ==
              CL_SUCCESS &&
          t1 >= t0 && t0 > 0) {
        seconds_.push_back(static_cast<double>(t1 - t0) * 1e-9);
        labels_.push_back(label);
      } else
        useFill_ = true; // markers without timestamps: fills from the next call on
      drop(first);
      drop(last);
    }
    pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(done));
  }
  /// Device seconds of every collected call, in call order, and each one's label.
  const std::vector<double> &seconds() const { return seconds_; }
  const std::vector<int> &labels() const { return labels_; }
  /// Forgets the collected calls (their times were taken).
  void clearCollected() {
    seconds_.clear();
    labels_.clear();
  }
  void release() {
    drop(open_);
    for (auto &[a, b, label] : pending_) {
      drop(a);
      drop(b);
    }
    pending_.clear();
    if (scratch_)
      clReleaseMemObject(scratch_);
    scratch_ = nullptr;
  }

private:
  cl_event stamp(OpenCLContext &ctx) {
    cl_event e = nullptr;
    if (!useFill_) {
      if (clEnqueueMarkerWithWaitList(ctx.queue(), 0, nullptr, &e) == CL_SUCCESS)
        return e;
      useFill_ = true;
    }
    cl_int err = CL_SUCCESS;
    if (!scratch_)
      scratch_ = clCreateBuffer(ctx.context(), CL_MEM_READ_WRITE, 4, nullptr, &err);
    cl_uchar zero = 0;
    if (!scratch_ ||
        clEnqueueFillBuffer(ctx.queue(), scratch_, &zero, 1, 0, 1, 0, nullptr, &e) != CL_SUCCESS)
      return nullptr;
    return e;
  }
  static void drop(cl_event &e) {
    if (e)
      clReleaseEvent(e);
    e = nullptr;
  }

  cl_event open_ = nullptr;
  struct Pending {
    cl_event first, last;
    int label;
  };
  std::vector<Pending> pending_;
  std::vector<double> seconds_;
  std::vector<int> labels_;
  bool useFill_ = false;
  cl_mem scratch_ = nullptr;
};

} // namespace fxkit::opencl
