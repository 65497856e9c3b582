#include "backends/llvm/CppCompiler.h"

#include "backends/llvm/ClangAction.h"
#include "backends/llvm/HostTarget.h"

#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/Version.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Frontend/Utils.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <algorithm>
#include <filesystem>

#ifndef FXKIT_CLANG_PATH
#define FXKIT_CLANG_PATH "clang++"
#endif

namespace fxkit::llvmjit {

namespace {

std::vector<std::string> commandLine(const CppCompileRequest &request) {
  // The driver's name decides its mode and where it looks for Clang's resource headers
  // (bin/../lib/clang/VERSION/include); the GCC installation (libstdc++) is found as `clang++`
  // finds it.
  std::vector<std::string> args = {FXKIT_CLANG_PATH,
                                   "-c",
                                   "-x",
                                   "c++",
                                   "-std=" + request.standard,
                                   request.optLevel,
                                   "-fPIC",
                                   "-fno-color-diagnostics",
                                   "-Wno-unused-function"};
  for (const std::string &dir : request.includeDirs)
    args.push_back("-I" + dir);
  for (const std::string &d : request.defines)
    args.push_back("-D" + d);
  args.push_back(request.sourcePath);
  return args;
}

/// Replaces the module's `name` (llvm.global_ctors or llvm.global_dtors) with an external
/// function `function` that calls its entries in the order the C++ runtime would: constructors
/// by ascending priority, destructors by descending priority.
void gatherStructors(llvm::Module &m, llvm::StringRef name, llvm::StringRef function,
                     bool descending) {
  std::vector<std::pair<int64_t, llvm::Constant *>> entries;
  if (llvm::GlobalVariable *gv = m.getGlobalVariable(name)) {
    if (gv->hasInitializer())
      if (auto *array = llvm::dyn_cast<llvm::ConstantArray>(gv->getInitializer()))
        for (llvm::Use &op : array->operands()) {
          auto *entry = llvm::dyn_cast<llvm::ConstantStruct>(op.get());
          if (!entry || entry->getNumOperands() < 2)
            continue;
          auto *priority = llvm::dyn_cast<llvm::ConstantInt>(entry->getOperand(0));
          llvm::Constant *fn = entry->getOperand(1);
          if (!priority || llvm::isa<llvm::ConstantPointerNull>(fn))
            continue;
          entries.emplace_back(priority->getSExtValue(), fn);
        }
    gv->eraseFromParent();
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const auto &a, const auto &b) { return a.first < b.first; });
  if (descending)
    std::reverse(entries.begin(), entries.end());
  llvm::LLVMContext &context = m.getContext();
  llvm::FunctionType *voidFn = llvm::FunctionType::get(llvm::Type::getVoidTy(context), false);
  llvm::Function *f =
      llvm::Function::Create(voidFn, llvm::GlobalValue::ExternalLinkage, function, m);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "entry", f));
  for (const auto &entry : entries)
    b.CreateCall(llvm::FunctionCallee(voidFn, entry.second));
  b.CreateRetVoid();
}

/// Makes the module's static constructors, destructors and atexit registrations the JIT's.
void prepareForJit(llvm::Module &m) {
  gatherStructors(m, "llvm.global_ctors", kJitInitSymbol, false);
  gatherStructors(m, "llvm.global_dtors", kJitFiniSymbol, true);
  // Both resolve to addresses in fxkit, possibly further than 2 GiB from the JIT's code: reached
  // through the GOT, not PC-relative as the hidden __dso_handle is.
  if (llvm::Function *f = m.getFunction("__cxa_atexit")) {
    f->setName(kJitAtExitSymbol);
    f->setDSOLocal(false);
  }
  if (llvm::GlobalVariable *g = m.getNamedGlobal("__dso_handle")) {
    g->setName(kJitDsoHandleSymbol);
    g->setVisibility(llvm::GlobalValue::DefaultVisibility);
    g->setDSOLocal(false);
  }
}

} // namespace

std::string cppCompilerIdentity(const CppCompileRequest &request) {
  std::string id = "clang " CLANG_VERSION_STRING;
  for (const std::string &a : commandLine(request))
    id += " " + a;
  return id + " " + hostTarget().str() + " " + hostTarget().features;
}

std::string cppCompilerDescription(const CppCompileRequest &request) {
  return "clang " CLANG_VERSION_STRING " -std=" + request.standard + " " + request.optLevel + ", " +
         hostTarget().str();
}

Expected<std::vector<char>> compileCppToObject(const CppCompileRequest &request) {
  const HostTarget &host = hostTarget();
  std::vector<std::string> args = commandLine(request);
  std::vector<const char *> argv = clangArgv(args);

  std::string diagnostics;
  llvm::raw_string_ostream diagStream(diagnostics);
  clang::CompilerInstance ci;
  printDiagnosticsTo(ci, diagStream);
  clang::CreateInvocationOptions create;
  create.Diags = &ci.getDiagnostics();
  std::shared_ptr<clang::CompilerInvocation> invocation = clang::createInvocation(argv, create);
  if (!invocation || ci.getDiagnostics().hasErrorOccurred()) {
    diagStream.flush();
    return Error("clang: cannot make a compile command for " + request.sourcePath + ":\n" +
                 diagnostics);
  }
  // This CPU, as the LLVM backend's kernels: the object is loaded on the machine that built it.
  invocation->getTargetOpts().CPU = host.cpu;
  invocation->getTargetOpts().FeaturesAsWritten = host.featureList();
  invocation->getFrontendOpts().DisableFree = false;
  invocation->getCodeGenOpts().DisableFree = false;
  ci.setInvocation(std::move(invocation));

  llvm::LLVMContext context;
  // The front end and the -O2 pipeline, no code yet.
  std::unique_ptr<llvm::Module> module = emitLLVMModule(ci, context, diagStream);
  unsigned errors = ci.getDiagnostics().getClient()->getNumErrors();
  if (ci.getDiagnostics().hasErrorOccurred())
    return Error("clang cannot compile " + request.sourcePath + " (" + std::to_string(errors) +
                 (errors == 1 ? " error" : " errors") + "):\n" + diagnostics);
  if (!module)
    return Error("clang produced no module for " + request.sourcePath + ":\n" + diagnostics);

  prepareForJit(*module);
  auto tm = host.createTargetMachine();
  if (!tm)
    return tm.takeError();
  module->setTargetTriple((*tm)->getTargetTriple().str());
  module->setDataLayout((*tm)->createDataLayout());
  std::string broken;
  llvm::raw_string_ostream brokenStream(broken);
  if (llvm::verifyModule(*module, &brokenStream))
    return Error("LLVM produced an invalid module for " + request.sourcePath + ": " +
                 brokenStream.str());
  auto object = emitMachineCode(**tm, *module, /*assembly=*/false);
  if (!object)
    return Error("LLVM cannot emit object files for " + host.str());
  return std::move(*object);
}

} // namespace fxkit::llvmjit
