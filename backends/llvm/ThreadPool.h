#pragma once
/// \file The worker threads that run a kernel's work-groups: one per hardware thread, the
/// caller included. parallelFor hands out task indices from an atomic counter, so uneven tasks
/// balance themselves; it returns when every task has run.

#include <atomic>
#include <condition_variable>
#include <cstddef>
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
  void runTasks();
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(size_t)> *task_ = nullptr;
  size_t tasks_ = 0;
  std::atomic<size_t> next_{0};
  size_t generation_ = 0; ///< bumped per parallelFor, so a worker joins each one once
  size_t busy_ = 0;       ///< workers still inside the current parallelFor
  bool stop_ = false;
};

} // namespace fxkit::llvmjit
