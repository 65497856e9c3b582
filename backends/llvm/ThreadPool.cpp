#include "backends/llvm/ThreadPool.h"

#include <algorithm>

namespace fxkit::llvmjit {

ThreadPool::ThreadPool(size_t threads) {
  if (threads == 0)
    threads = std::max(1u, std::thread::hardware_concurrency());
  for (size_t i = 1; i < threads; ++i)
    workers_.emplace_back([this] { workerLoop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread &t : workers_)
    t.join();
}

void ThreadPool::runTasks(uint32_t generation, const std::function<void(size_t)> *task,
                          size_t tasks) {
  for (;;) {
    uint64_t v = next_.load();
    do {
      if (static_cast<uint32_t>(v >> 32) != generation || (v & 0xffffffffu) >= tasks)
        return;
    } while (!next_.compare_exchange_weak(v, v + 1));
    (*task)(static_cast<size_t>(v & 0xffffffffu));
    if (completed_.fetch_add(1) + 1 == tasks) {
      std::lock_guard<std::mutex> lock(mutex_);
      done_.notify_all();
    }
  }
}

void ThreadPool::workerLoop() {
  uint32_t seen = 0;
  for (;;) {
    const std::function<void(size_t)> *task = nullptr;
    size_t tasks = 0;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_)
        return;
      seen = generation_;
      task = task_;
      tasks = tasks_;
    }
    runTasks(seen, task, tasks);
  }
}

void ThreadPool::parallelFor(size_t tasks, const std::function<void(size_t)> &task) {
  if (tasks == 0)
    return;
  if (tasks == 1 || workers_.empty()) {
    for (size_t i = 0; i < tasks; ++i)
      task(i);
    return;
  }
  uint32_t generation = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    generation = ++generation_;
    task_ = &task;
    tasks_ = tasks;
    completed_ = 0;
    next_ = static_cast<uint64_t>(generation) << 32;
  }
  wake_.notify_all();
  runTasks(generation, &task, tasks);
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return completed_.load() == tasks; });
}

} // namespace fxkit::llvmjit
