#include "backends/opencl/rt/Driver.h"

#include "backends/interp/json/ReferenceIO.h"
#include "backends/opencl/rt/HostTensorConversion.h"
#include "exporters/json/SafetensorsWriter.h"
#include "importers/json/Safetensors.h"
#include "ir/Tensor.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

namespace fxkit::rt {

namespace {

int usage(const char *argv0, const std::string &why) {
  std::fprintf(stderr,
               "%s: %s\nusage: %s INPUTS.safetensors [-o OUTPUTS.safetensors] [--check "
               "EXPECTED.safetensors] [--rtol R] [--atol A] [--device cpu|gpu|N] [--cache-dir D] "
               "[--no-tune] [--repeat N] [--stats] [--nan-asserts]\n",
               argv0, why.c_str(), argv0);
  return 2;
}

} // namespace

int driverMain(int argc, char **argv,
               const std::function<std::unique_ptr<Model>(Runtime &)> &load) {
  std::string inputsPath, outputPath, checkPath;
  RuntimeOptions options;
  Tolerance tolerance;
  int repeat = 1;
  bool stats = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--no-tune") {
      options.tune = false;
      continue;
    }
    if (a == "--stats") {
      stats = true;
      continue;
    }
    if (a == "--nan-asserts") {
      options.nanAsserts = true;
      continue;
    }
    if (a == "-o" || a == "--check" || a == "--device" || a == "--cache-dir" || a == "--rtol" ||
        a == "--atol" || a == "--repeat") {
      if (i + 1 >= argc)
        return usage(argv[0], a + " needs a value");
      std::string v = argv[++i];
      if (a == "-o")
        outputPath = v;
      else if (a == "--check")
        checkPath = v;
      else if (a == "--device")
        options.device = v;
      else if (a == "--cache-dir")
        options.cacheDir = v;
      else {
        char *end = nullptr;
        double x = std::strtod(v.c_str(), &end);
        if (end == v.c_str() || *end)
          return usage(argv[0], a + " needs a number, got '" + v + "'");
        if (a == "--rtol")
          tolerance.rtol = x;
        else if (a == "--atol")
          tolerance.atol = x;
        else
          repeat = std::max(1, static_cast<int>(x));
      }
      continue;
    }
    if (a.empty() || a[0] == '-' || !inputsPath.empty())
      return usage(argv[0], "unexpected argument '" + a + "'");
    inputsPath = a;
  }
  if (inputsPath.empty())
    return usage(argv[0], "no inputs file");

  Status status;
  auto runtime = Runtime::open(options, &status);
  if (!runtime) {
    std::fprintf(stderr, "error: %s\n", status.message().c_str());
    return 2;
  }
  std::unique_ptr<Model> model = load(*runtime);
  auto file = readSafetensors(inputsPath);
  if (!file) {
    std::fprintf(stderr, "error: %s\n", file.error().message.c_str());
    return 2;
  }
  auto inputs = readGraphInputs(*file, model->numInputs(), inputsPath);
  if (!inputs) {
    std::fprintf(stderr, "error: %s\n", inputs.error().message.c_str());
    return 2;
  }
  std::vector<Value> values;
  for (const RuntimeValue &in : *inputs)
    values.push_back(toValue(in));
  std::vector<Value> outputs;
  for (int r = 0; r < repeat; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    outputs.clear();
    runtime->beginCall();
    if (Status s = model->run(values, &outputs); !s) {
      std::fprintf(stderr, "error: %s: %s\n", model->name(), s.message().c_str());
      return 2;
    }
    runtime->endCall();
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    // The call's device time from queue timestamps (its outputs were read: it has finished).
    std::vector<double> device = runtime->callSeconds();
    std::fprintf(stderr, "%s: run %d: %.3f ms on %s", model->name(), r + 1, ms,
                 runtime->deviceName().c_str());
    if (device.size() == static_cast<size_t>(r + 1))
      std::fprintf(stderr, " (device %.3f ms, queue events)", device.back() * 1e3);
    std::fprintf(stderr, "\n");
  }
  if (stats)
    std::fprintf(stderr, "%s: %s\n", model->name(), runtime->statsLine().c_str());
  std::vector<RuntimeValue> results;
  for (const Value &v : outputs) {
    auto r = toRuntimeValue(v);
    if (!r) {
      std::fprintf(stderr, "error: %s\n", r.error().message.c_str());
      return 2;
    }
    results.push_back(r.take());
  }
  if (!outputPath.empty())
    if (fxkit::Status s = writeSafetensors(outputPath, graphOutputsFile(results)); !s) {
      std::fprintf(stderr, "error: %s\n", s.error().message.c_str());
      return 2;
    }
  if (checkPath.empty())
    return 0;
  auto expected = readSafetensors(checkPath);
  if (!expected) {
    std::fprintf(stderr, "error: %s\n", expected.error().message.c_str());
    return 2;
  }
  auto checks = checkGraphOutputs(results, *expected, tolerance);
  if (!checks) {
    std::fprintf(stderr, "error: %s\n", checks.error().message.c_str());
    return 2;
  }
  bool ok = true;
  for (const OutputCheck &c : *checks) {
    std::printf("%s %s %s %s\n", c.ok ? "ok" : "MISMATCH", c.name.c_str(), c.actual.c_str(),
                c.detail.c_str());
    ok = ok && c.ok;
  }
  return ok ? 0 : 1;
}

} // namespace fxkit::rt
