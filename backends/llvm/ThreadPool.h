#pragma once
/// \file The worker threads that run a kernel's work-groups: one per hardware thread, the
/// caller included. parallelFor hands out task indices from an atomic counter, so uneven tasks
/// balance themselves, and returns as soon as every task has run: the caller never waits for a
/// sleeping worker to wake up (on a loaded machine that can take milliseconds), it runs the
/// tasks itself meanwhile. The counter carries the call's generation, so a worker that wakes
/// late cannot take a task of a later call.

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace fxkit::llvmjit {

class ThreadPool {
public:
  /// `threads` workers in all, the calling thread counted (0: the hardware's thread count).
  explicit ThreadPool(size_t threads = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  size_t size() const { return workers_.size() + 1; }
  /// Runs task(i) for i in [0, tasks), on every thread; one call at a time.
  void parallelFor(size_t tasks, const std::function<void(size_t)> &task);

private:
  void workerLoop();
  /// Claims and runs tasks of generation `generation` until none is left.
  void runTasks(uint32_t generation, const std::function<void(size_t)> *task, size_t tasks);
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  // The current call, published under mutex_.
  const std::function<void(size_t)> *task_ = nullptr;
  size_t tasks_ = 0;
  uint32_t generation_ = 0;
  bool stop_ = false;
  /// generation << 32 | next task index.
  std::atomic<uint64_t> next_{0};
  std::atomic<size_t> completed_{0};
};

} // namespace fxkit::llvmjit
