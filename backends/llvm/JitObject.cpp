#include "backends/llvm/JitObject.h"

#include "backends/llvm/CppCompiler.h"
#include "backends/llvm/HostTarget.h"

#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/Support/MemoryBuffer.h>

#include <utility>
#include <vector>

namespace fxkit::llvmjit {

namespace {

std::string llvmMessage(llvm::Error err) { return llvm::toString(std::move(err)); }

} // namespace

struct JitObject::Impl {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::vector<std::pair<void (*)(void *), void *>> atExit;
  void (*fini)() = nullptr;
  /// What the JIT reported while linking (unresolved symbols), for the error message.
  std::shared_ptr<std::string> sessionErrors = std::make_shared<std::string>();
};

namespace {

/// The object's `__cxa_atexit`: `dso` is the Impl its `__dso_handle` names.
int fxkitJitAtExit(void (*fn)(void *), void *arg, void *dso) {
  static_cast<JitObject::Impl *>(dso)->atExit.emplace_back(fn, arg);
  return 0;
}

} // namespace

JitObject::JitObject() : impl_(std::make_unique<Impl>()) {}

JitObject::~JitObject() {
  if (!impl_->jit)
    return;
  // As exit() does: objects registered with __cxa_atexit in reverse order, then the
  // destructor functions.
  for (auto it = impl_->atExit.rbegin(); it != impl_->atExit.rend(); ++it)
    it->first(it->second);
  if (impl_->fini)
    impl_->fini();
}

Expected<std::unique_ptr<JitObject>> JitObject::load(std::span<const char> object,
                                                     const std::string &name) {
  std::unique_ptr<JitObject> out(new JitObject());
  Impl &im = *out->impl_;
  auto jit = hostTarget().createJit();
  if (!jit)
    return jit.takeError();
  llvm::orc::LLJIT &j = **jit;
  llvm::orc::JITDylib &main = j.getMainJITDylib();
  // Link errors become part of the message instead of lines on stderr.
  j.getExecutionSession().setErrorReporter([errors = im.sessionErrors](llvm::Error err) {
    *errors += llvmMessage(std::move(err)) + "\n";
  });
  llvm::orc::SymbolMap own;
  own[j.mangleAndIntern(kJitAtExitSymbol)] = llvm::JITEvaluatedSymbol(
      llvm::pointerToJITTargetAddress(&fxkitJitAtExit), llvm::JITSymbolFlags::Exported);
  own[j.mangleAndIntern(kJitDsoHandleSymbol)] = llvm::JITEvaluatedSymbol(
      llvm::pointerToJITTargetAddress(&im), llvm::JITSymbolFlags::Exported);
  if (llvm::Error err = main.define(llvm::orc::absoluteSymbols(std::move(own))))
    return Error("LLVM JIT: " + llvmMessage(std::move(err)));
  // Everything else (fxkit's runtime, libstdc++, libc) from this process.
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      j.getDataLayout().getGlobalPrefix());
  if (!process)
    return Error("LLVM JIT: " + llvmMessage(process.takeError()));
  main.addGenerator(std::move(*process));
  im.jit = std::move(*jit);
  auto buffer =
      llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(object.data(), object.size()), name);
  if (llvm::Error err = im.jit->addObjectFile(std::move(buffer)))
    return Error(name + ": the JIT refuses the object: " + llvmMessage(std::move(err)));
  auto init = im.jit->lookup(kJitInitSymbol);
  if (!init) {
    Error e(name + ": cannot link: " + llvmMessage(init.takeError()) +
            (im.sessionErrors->empty() ? "" : "\n" + *im.sessionErrors));
    im.jit.reset(); // nothing ran: no destructors to run
    return e;
  }
  auto fini = im.jit->lookup(kJitFiniSymbol);
  if (!fini) {
    Error e(name + ": " + llvmMessage(fini.takeError()));
    im.jit.reset();
    return e;
  }
  im.fini = fini->toPtr<void (*)()>();
  init->toPtr<void (*)()>()();
  return out;
}

Expected<void *> JitObject::lookup(const std::string &symbol) {
  auto found = impl_->jit->lookup(symbol);
  if (!found)
    return Error(llvmMessage(found.takeError()));
  return found->toPtr<void *>();
}

} // namespace fxkit::llvmjit
