#include "backends/llvm/ThreadPool.h"

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

void ThreadPool::runTasks() {
  for (size_t i = next_.fetch_add(1); i < tasks_; i = next_.fetch_add(1))
    (*task_)(i);
}

void ThreadPool::workerLoop() {
  size_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_)
        return;
      seen = generation_;
    }
    runTasks();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (--busy_ == 0)
        done_.notify_one();
    }
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
  {
    std::lock_guard<std::mutex> lock(mutex_);
    task_ = &task;
    tasks_ = tasks;
    next_ = 0;
    busy_ = workers_.size();
    ++generation_;
  }
  wake_.notify_all();
  runTasks();
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return busy_ == 0; });
  task_ = nullptr;
}

} // namespace fxkit::llvmjit
