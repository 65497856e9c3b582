#include "backends/interp/InterpBackends.h"

#include "backends/interp/LoopInterpreter.h"

namespace fxkit {

namespace {

class InterpExecutable final : public Executable {
public:
  InterpExecutable(Graph &graph, const volatile std::sig_atomic_t *interrupt)
      : graph_(graph), interrupt_(interrupt) {}
  Expected<InterpretResult> run(std::span<const RuntimeValue> inputs) override {
    InterpretOptions options;
    options.interrupt = interrupt_;
    return interpretGraph(graph_, inputs, options);
  }

private:
  Graph &graph_;
  const volatile std::sig_atomic_t *interrupt_;
};

class InterpBackend final : public Backend {
public:
  std::string name() const override { return "interp"; }
  std::string description() const override { return "reference interpreter, the default"; }
  Status available() const override { return Status::ok(); }
  bool needsProgram(const BackendOptions &) const override { return false; }
  Expected<std::unique_ptr<Executable>> prepare(const BackendInput &in,
                                                const BackendOptions &options) const override {
    return std::unique_ptr<Executable>(new InterpExecutable(*in.graph, options.interrupt));
  }
};

class LoopsExecutable final : public Executable {
public:
  LoopsExecutable(const BackendInput &in, const volatile std::sig_atomic_t *interrupt)
      : in_(in), interrupt_(interrupt) {}
  Expected<InterpretResult> run(std::span<const RuntimeValue> inputs) override {
    return interpretLoopProgram(*in_.program, *in_.fused, inputs, interrupt_);
  }
  Expected<InterpretResult> runTapped(std::span<const RuntimeValue> inputs,
                                      const KernelTap &tap) override {
    return interpretLoopProgram(*in_.program, *in_.fused, inputs, interrupt_, &tap);
  }

private:
  BackendInput in_;
  const volatile std::sig_atomic_t *interrupt_;
};

class LoopsBackend final : public Backend {
public:
  std::string name() const override { return "loops"; }
  std::string description() const override { return "compiled loop program, interpreted"; }
  Status available() const override { return Status::ok(); }
  bool needsProgram(const BackendOptions &) const override { return true; }
  Expected<std::unique_ptr<Executable>> prepare(const BackendInput &in,
                                                const BackendOptions &options) const override {
    return std::unique_ptr<Executable>(new LoopsExecutable(in, options.interrupt));
  }
};

} // namespace

std::unique_ptr<Backend> makeInterpBackend() { return std::make_unique<InterpBackend>(); }
std::unique_ptr<Backend> makeLoopsBackend() { return std::make_unique<LoopsBackend>(); }

} // namespace fxkit
