#pragma once
/// \file Runs Clang's front end and IR generation in process, the way both of fxkit's Clang
/// users need it: over the instance's only input, without Clang's "N errors generated." on
/// stderr (the caller reports the count with the diagnostics it collected).

#include <memory>

namespace clang {
class CompilerInstance;
} // namespace clang
namespace llvm {
class LLVMContext;
class Module;
class raw_ostream;
} // namespace llvm

namespace fxkit::llvmjit {

/// The LLVM module of `ci`'s invocation (EmitLLVMOnlyAction), or null when it failed; errors
/// the action returns (beyond the diagnostics printed by `ci`) are appended to `diagnostics`.
std::unique_ptr<llvm::Module> emitLLVMModule(clang::CompilerInstance &ci,
                                             llvm::LLVMContext &context,
                                             llvm::raw_ostream &diagnostics);

} // namespace fxkit::llvmjit
