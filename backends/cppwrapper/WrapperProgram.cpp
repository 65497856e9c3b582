#include "backends/cppwrapper/WrapperProgram.h"

#include "backends/llvm/JitObject.h"
#include "backends/opencl/rt/HostTensorConversion.h"
#include "exporters/wrapper/WrapperCppWriter.h"

#include <chrono>

namespace fxkit::cppwrapper {

struct WrapperProgram::Impl {
  // Destroyed in reverse: the model (its code lives in the JIT), the device, then the code.
  std::unique_ptr<llvmjit::JitObject> code;
  std::unique_ptr<rt::Runtime> runtime;
  std::unique_ptr<rt::Model> model;
  WrapperLoadStats stats;
};

WrapperProgram::WrapperProgram() : impl_(std::make_unique<Impl>()) {}
WrapperProgram::~WrapperProgram() {
  impl_->model.reset();
  impl_->runtime.reset();
  impl_->code.reset();
}

Expected<std::unique_ptr<WrapperProgram>> WrapperProgram::load(const std::string &dir,
                                                               const rt::RuntimeOptions &options) {
  std::unique_ptr<WrapperProgram> out(new WrapperProgram());
  Impl &im = *out->impl_;
  auto built = buildWrapper(dir);
  if (!built)
    return built.takeError();
  im.stats.build = built.take();
  const WrapperBuildResult &b = im.stats.build;
  auto t0 = std::chrono::steady_clock::now();
  auto code = llvmjit::JitObject::load(b.object, b.objectPath);
  if (!code)
    return code.takeError();
  im.code = code.take();
  auto factory = im.code->lookup(wrapperFactorySymbol(b.name));
  if (!factory)
    return Error(b.objectPath + " has no entry point " + wrapperFactorySymbol(b.name) +
                 " (export it again with this fxkit): " + factory.error().message);
  im.stats.loadSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  rt::Status status;
  im.runtime = rt::Runtime::open(options, &status);
  if (!im.runtime)
    return Error(status.message());
  using Factory = rt::Model *(*)(rt::Runtime *);
  im.model.reset(reinterpret_cast<Factory>(*factory)(im.runtime.get()));
  return out;
}

Expected<InterpretResult> WrapperProgram::run(std::span<const RuntimeValue> inputs) {
  Impl &im = *impl_;
  if (inputs.size() != im.model->numInputs())
    return Error("wrapper " + std::string(im.model->name()) + " takes " +
                 std::to_string(im.model->numInputs()) + " inputs, got " +
                 std::to_string(inputs.size()));
  std::vector<rt::Value> values;
  for (const RuntimeValue &v : inputs)
    values.push_back(rt::toValue(v));
  std::vector<rt::Value> outputs;
  im.runtime->beginCall();
  if (rt::Status s = im.model->run(values, &outputs); !s)
    return Error("wrapper " + std::string(im.model->name()) + ": " + s.message());
  im.runtime->endCall();
  InterpretResult result;
  for (const rt::Value &v : outputs) {
    auto r = rt::toRuntimeValue(v);
    if (!r)
      return r.takeError();
    result.outputs.push_back(r.take());
  }
  return result;
}

size_t WrapperProgram::numInputs() const { return impl_->model->numInputs(); }
const WrapperLoadStats &WrapperProgram::stats() const { return impl_->stats; }
std::string WrapperProgram::deviceName() const { return impl_->runtime->deviceName(); }
std::string WrapperProgram::runtimeStats() const { return impl_->runtime->statsLine(); }
std::vector<double> WrapperProgram::callSeconds() const { return impl_->runtime->callSeconds(); }

} // namespace fxkit::cppwrapper
