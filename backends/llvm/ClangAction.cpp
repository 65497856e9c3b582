#include "backends/llvm/ClangAction.h"

#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/raw_ostream.h>

namespace fxkit::llvmjit {

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

} // namespace fxkit::llvmjit
