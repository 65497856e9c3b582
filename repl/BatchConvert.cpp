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

  /// Prints the error of input number `index` and keeps its first line for the summary.
  void error(size_t index, const std::string &input, const std::string &message) {
    std::lock_guard<std::mutex> lock(mutex_);
    clearProgress();
    std::cerr << "fxkit: " << message << "\n";
    std::string first = message.substr(0, message.find('\n'));
    // Import errors start with the input's path (file:line:col); others get it in front.
    failures_.emplace(index, first.starts_with(input) ? first : input + ": " + first);
    drawProgress();
  }

  /// Prints what a writer noted about an input it wrote (Graphviz's "picture too large for a
  /// bitmap"), as one conversion does, with the input's name in front.
  void note(const std::string &input, const std::string &note) {
    if (note.empty())
      return;
    std::lock_guard<std::mutex> lock(mutex_);
    clearProgress();
    std::cerr << outputNoteLines(note, input);
    drawProgress();
  }

  /// `withSidecar`: the graph's types came from a nodes.json sidecar (counted in the summary).
  void finished(bool ok, const std::string &input, bool withSidecar) {
    std::lock_guard<std::mutex> lock(mutex_);
    (ok ? converted_ : failed_)++;
    if (ok && withSidecar)
      ++withSidecar_;
    last_ = input;
    drawProgress();
  }

  /// Clears the progress line and prints the summary; returns the exit code.
  int summary() {
    std::lock_guard<std::mutex> lock(mutex_);
    clearProgress();
    std::cerr << "converted " << converted_ << sidecarCount() << ", failed " << failed_ << "\n";
    printFailures();
    // As for one input: a file that cannot be read, parsed or written is exit code 2.
    return failed_ == 0 ? kExitOk : kExitBadInput;
  }

  /// After SIGINT/SIGTERM: what was done; every written file is complete, none is partial.
  int interrupted() {
    std::lock_guard<std::mutex> lock(mutex_);
    clearProgress();
    std::cerr << "fxkit: interrupted: converted " << converted_ << sidecarCount() << ", failed "
              << failed_ << ", not started " << total_ - converted_ - failed_
              << " (every written file is complete; no temporary files left)\n";
    printFailures();
    return kExitInterrupted;
  }

private:
  std::string sidecarCount() const {
    return withSidecar_ == 0 ? std::string()
                             : " (" + std::to_string(withSidecar_) + " with types from a sidecar)";
  }

  /// The failed inputs again, in input order, after the counts.
  void printFailures() const {
    for (const auto &[index, line] : failures_)
      std::cerr << "  failed: " << line << "\n";
  }

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
  size_t converted_ = 0, failed_ = 0, withSidecar_ = 0;
  std::string last_;
  std::map<size_t, std::string> failures_; ///< input index -> its first error line
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

/// Creates the folder `output` goes into (a kept tree's sub-folder) when it is missing; only
/// for an input that was read, so a failed input leaves no empty folder behind.
Status makeFolderOf(const std::string &output, std::mutex &mutex) {
  std::filesystem::path folder = std::filesystem::path(output).parent_path();
  std::lock_guard<std::mutex> lock(mutex);
  std::error_code ec;
  if (folder.empty() || std::filesystem::is_directory(folder, ec))
    return Status::ok();
  std::filesystem::create_directories(folder, ec);
  if (ec)
    return Error("cannot create folder '" + folder.string() + "': " + ec.message());
  return Status::ok();
}

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

Expected<BatchOutputs> planBatchOutputs(const std::vector<std::string> &inputs,
                                        const std::string &outputDir, const OutputFormat &to,
                                        BatchLayout layout) {
  namespace fs = std::filesystem;
  // Two inputs with one output path would race for one file: refused before writing anything.
  auto plan = [&](bool keepTree) -> Expected<BatchOutputs> {
    BatchOutputs result;
    result.keptTree = keepTree;
    // The inputs' common folder, from absolute paths as given (not resolved: a symlinked
    // folder keeps its own name in the output tree).
    std::vector<fs::path> absolute;
    fs::path common;
    if (keepTree) {
      for (const auto &in : inputs) {
        std::error_code ec;
        fs::path p = fs::absolute(in, ec).lexically_normal();
        if (ec)
          return Error("cannot tell the folder of '" + in + "': " + ec.message());
        absolute.push_back(p);
        fs::path folder = p.parent_path();
        if (absolute.size() == 1) {
          common = folder;
          continue;
        }
        fs::path shared;
        for (auto a = common.begin(), b = folder.begin();
             a != common.end() && b != folder.end() && *a == *b; ++a, ++b)
          shared /= *a;
        common = shared;
      }
    }
    std::map<std::string, std::string> seen;
    for (size_t i = 0; i < inputs.size(); ++i) {
      fs::path out = fs::path(outputDir);
      if (keepTree)
        out /= absolute[i].parent_path().lexically_relative(common);
      out = (out / batchOutputName(inputs[i], to)).lexically_normal();
      std::string path = out.string();
      if (auto [it, inserted] = seen.emplace(path, inputs[i]); !inserted)
        return Error("'" + it->second + "' and '" + inputs[i] + "' would both be written to '" +
                     path + "'");
      result.paths.push_back(std::move(path));
    }
    return result;
  };
  if (layout != BatchLayout::Auto)
    return plan(layout == BatchLayout::KeepTree);
  auto flat = plan(false);
  return flat ? flat : plan(true);
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
  auto planned = planBatchOutputs(options.inputs, options.outputDir, *options.to, options.layout);
  if (!planned) {
    std::cerr << "fxkit: " << planned.error().str() << "\n";
    return kExitBadInput;
  }
  const std::vector<std::string> &outputs = planned->paths;
  if (planned->keptTree && options.layout == BatchLayout::Auto)
    std::cerr << "fxkit: note: inputs share names; keeping their folders under "
              << options.outputDir << " (--keep-tree)\n";
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
  std::mutex folderMutex; // the tree's sub-folders, made by the first worker that needs one
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
        reporter.error(i, in, graph.error().str());
      } else if (Status folder = makeFolderOf(outputs[i], folderMutex); !folder) {
        reporter.error(i, in, folder.error().str());
      } else if (auto written = options.to->write(*graph, requestFor(outputs[i])); !written) {
        reporter.error(i, in, in + ": " + written.error().str());
      } else if (Status st =
                     written->text ? writeFileAtomic(outputs[i], *written->text) : Status::ok();
                 !st) {
        reporter.error(i, in, st.error().str());
      } else {
        reporter.note(in, written->note);
        ok = true;
      }
      reporter.finished(ok, in, graph && nodesJsonSidecar(*graph));
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
