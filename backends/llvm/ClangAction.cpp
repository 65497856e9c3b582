#include "backends/llvm/ClangAction.h"

#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

namespace fxkit::llvmjit {

std::vector<const char *> clangArgv(const std::vector<std::string> &args) {
  std::vector<const char *> argv;
  for (const std::string &a : args)
    argv.push_back(a.c_str());
  return argv;
}

void printDiagnosticsTo(clang::CompilerInstance &ci, llvm::raw_ostream &diagnostics) {
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> options = new clang::DiagnosticOptions();
  options->ShowColors = false;
  ci.createDiagnostics(new clang::TextDiagnosticPrinter(diagnostics, options.get()),
                       /*ShouldOwnClient=*/true);
}

std::unique_ptr<llvm::Module> emitLLVMModule(clang::CompilerInstance &ci,
                                             llvm::LLVMContext &context,
                                             llvm::raw_ostream &diagnostics) {
  clang::EmitLLVMOnlyAction action(&context);
  // ExecuteAction without its "N errors generated." line: BeginSourceFile, Execute, End.
  bool executed = ci.createTarget() && !ci.getFrontendOpts().Inputs.empty() &&
                  action.BeginSourceFile(ci, ci.getFrontendOpts().Inputs[0]);
  if (executed) {
    if (llvm::Error err = action.Execute()) {
      diagnostics << llvm::toString(std::move(err)) << "\n";
      executed = false;
    }
    action.EndSourceFile();
  }
  diagnostics.flush();
  if (!executed || ci.getDiagnostics().hasErrorOccurred())
    return nullptr;
  return action.takeModule();
}

std::optional<std::vector<char>> emitMachineCode(llvm::TargetMachine &tm, llvm::Module &module,
                                                 bool assembly) {
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream out(buffer);
  llvm::legacy::PassManager codegen;
  if (tm.addPassesToEmitFile(codegen, out, nullptr,
                             assembly ? llvm::CGFT_AssemblyFile : llvm::CGFT_ObjectFile))
    return std::nullopt;
  codegen.run(module);
  return std::vector<char>(buffer.begin(), buffer.end());
}

} // namespace fxkit::llvmjit
