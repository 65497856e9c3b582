#include "repl/BatchConvert.h"

#include "exporters/Export.h"
#include "repl/Cli.h"
#include "repl/OutputFormats.h"

#include "ir/FaultInjection.h"

#include <csignal>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>

namespace fxkit {
namespace {

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

/// Serializes everything written to stderr by the workers, so lines never interleave, and owns
/// the progress line (redrawn in place on a terminal, never drawn otherwise).
class Reporter {
public:
  Reporter(size_t total) : total_(total), tty_(::isatty(STDERR_FILENO) == 1) {}

  void error(const std::string &message) {
    std::lock_guard<std::mutex> lock(mutex_);
    clearProgress();
    std::cerr << "fxkit: " << message << "\n";
    drawProgress();
  }

  void finished(bool ok, const std::string &input) {
    std::lock_guard<std::mutex> lock(mutex_);
    (ok ? converted_ : failed_)++;
    last_ = input;
    drawProgress();
  }

  /// Clears the progress line and prints the summary; returns the exit code.
  int summary() {
    std::lock_guard<std::mutex> lock(mutex_);
    clearProgress();
    std::cerr << "converted " << converted_ << ", failed " << failed_ << "\n";
    // As for one input: a file that cannot be read, parsed or written is exit code 2.
    return failed_ == 0 ? kExitOk : kExitBadInput;
  }

  /// After SIGINT/SIGTERM: what was done; every written file is complete, none is partial.
  int interrupted() {
    std::lock_guard<std::mutex> lock(mutex_);
    clearProgress();
    std::cerr << "fxkit: interrupted: converted " << converted_ << ", failed " << failed_
              << ", not started " << total_ - converted_ - failed_
              << " (every written file is complete; no temporary files left)\n";
    return kExitInterrupted;
  }

private:
  void drawProgress() {
    if (!tty_)
      return;
    size_t done = converted_ + failed_;
    constexpr size_t kWidth = 30;
    size_t filled = total_ == 0 ? kWidth : done * kWidth / total_;
    std::string line = "\r[" + std::string(filled, '#') + std::string(kWidth - filled, ' ') + "] " +
                       std::to_string(done) + "/" + std::to_string(total_) + " " + last_;
    if (line.size() > 100)
      line.resize(100);
    std::cerr << line << "\x1b[K" << std::flush;
    drawn_ = true;
  }

  void clearProgress() {
    if (tty_ && drawn_)
      std::cerr << "\r\x1b[K" << std::flush;
    drawn_ = false;
  }

  std::mutex mutex_;
  size_t total_;
  bool tty_;
  bool drawn_ = false;
  size_t converted_ = 0, failed_ = 0;
  std::string last_;
};

/// Set by SIGINT/SIGTERM/SIGHUP during a batch: workers finish the file they are writing (output is
/// atomic: a temporary file renamed into place) and start no other.
std::atomic<int> gInterrupted{0}; // lock-free: safe to set from a signal handler
static_assert(std::atomic<int>::is_always_lock_free);

extern "C" void onBatchSignal(int) { gInterrupted.store(1); }

/// Installs the batch's handler of SIGINT, SIGTERM and SIGHUP (a closed terminal or ssh session
/// stops the batch the same way) for its lifetime, then restores the old ones.
class InterruptGuard {
public:
  InterruptGuard() {
    gInterrupted = 0;
    struct sigaction sa {};
    sa.sa_handler = onBatchSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART; // a write in progress completes; the loop checks the flag
    for (size_t i = 0; i < kSignals.size(); ++i)
      sigaction(kSignals[i], &sa, &old_[i]);
  }
  ~InterruptGuard() {
    for (size_t i = 0; i < kSignals.size(); ++i)
      sigaction(kSignals[i], &old_[i], nullptr);
  }
  InterruptGuard(const InterruptGuard &) = delete;
  InterruptGuard &operator=(const InterruptGuard &) = delete;

private:
  static constexpr std::array<int, 3> kSignals = {SIGINT, SIGTERM, SIGHUP};
  std::array<struct sigaction, 3> old_{};
};

} // namespace

std::string batchOutputName(const std::string &input, const OutputFormat &to) {
  // A graph format's first extension (outputFormatOffered(BatchConvert) formats have one).
  const std::string extension(to.extensions.empty() ? ".txt" : to.extensions.front());
  std::string name = std::filesystem::path(input).filename().string();
  // Two-part suffixes first: `X.graph.txt` and `X.readable.py` both stand for graph X.
  for (std::string_view suffix : {".graph.txt", ".readable.py"}) {
    if (endsWith(name, suffix) && name.size() > suffix.size()) {
      name.resize(name.size() - suffix.size());
      return name + extension;
    }
  }
  std::string stem = std::filesystem::path(name).stem().string();
  return (stem.empty() ? name : stem) + extension;
}

int runBatchConvert(const BatchConvertOptions &options) {
  namespace fs = std::filesystem;
  if (!options.to) {
    std::cerr << "fxkit: error: converting several inputs needs --to FMT\n";
    return kExitBadInput;
  }
  auto requestFor = [](const std::string &output) {
    OutputRequest request;
    request.output = output;
    return request;
  };
  if (options.inputs.empty() || options.outputDir.empty() || options.outputDir == "-") {
    std::cerr << "fxkit: error: converting several inputs needs -o DIR (a folder)\n";
    return kExitBadInput;
  }
  for (const auto &in : options.inputs) {
    if (in == "-") {
      std::cerr << "fxkit: error: '-' (stdin) cannot be one of several inputs\n";
      return kExitBadInput;
    }
  }
  // Two inputs with one stem would race for one output file: refuse before writing anything.
  std::vector<std::string> outputs;
  std::map<std::string, std::string> seen;
  for (const auto &in : options.inputs) {
    std::string out = (fs::path(options.outputDir) / batchOutputName(in, *options.to)).string();
    if (auto [it, inserted] = seen.emplace(out, in); !inserted) {
      std::cerr << "fxkit: error: '" << it->second << "' and '" << in
                << "' would both be written to '" << out << "'\n";
      return kExitBadInput;
    }
    outputs.push_back(out);
  }
  std::error_code ec;
  fs::create_directories(options.outputDir, ec);
  if (ec || !fs::is_directory(options.outputDir)) {
    std::cerr << "fxkit: error: cannot create output folder '" << options.outputDir
              << "': " << (ec ? ec.message() : "not a folder") << "\n";
    return kExitBadInput;
  }

  unsigned jobs = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  jobs = static_cast<unsigned>(std::min<size_t>(jobs, options.inputs.size()));
  // Graphviz lays pictures out in a forked child (exporters/GraphvizRender.h). A fork while
  // other worker threads hold an allocator or loader lock leaves the child waiting on it
  // forever (seen under AddressSanitizer, whose allocator is not fork-safe), so rendered
  // pictures are converted by one thread.
  if (options.to->picture && options.to->name != "dot")
    jobs = 1;
  Reporter reporter(options.inputs.size());
  std::atomic<size_t> next{0};
  InterruptGuard interruptGuard;
  auto worker = [&] {
    // Each input is independent (own graph, own output file), so workers share only the
    // index counter and the reporter.
    for (size_t i = next++; i < options.inputs.size() && !gInterrupted; i = next++) {
      const std::string &in = options.inputs[i];
      bool ok = false;
      if (faultInjected("slow")) // FXKIT_FAULT=slow: lets tests interrupt a batch mid-way
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      auto graph = importGraphFile(in, options.from);
      if (!graph) {
        reporter.error(graph.error().str());
      } else if (auto written = options.to->write(*graph, requestFor(outputs[i])); !written) {
        reporter.error(in + ": " + written.error().str());
      } else if (Status st =
                     written->text ? writeFileAtomic(outputs[i], *written->text) : Status::ok();
                 !st) {
        reporter.error(st.error().str());
      } else {
        ok = true;
      }
      reporter.finished(ok, in);
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < jobs; ++t)
    pool.emplace_back(worker);
  worker(); // the calling thread is one of the workers
  for (auto &t : pool)
    t.join();
  if (gInterrupted)
    return reporter.interrupted();
  return reporter.summary();
}

} // namespace fxkit
