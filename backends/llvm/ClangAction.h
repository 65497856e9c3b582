#pragma once
/// \file Runs Clang's front end and IR generation in process, the way both of fxkit's Clang
/// users (KernelCompiler, CppCompiler) need it: over the instance's only input, without Clang's
/// "N errors generated." on stderr (the caller reports the count with the diagnostics it
/// collected); and the steps around it they share: the argv, the diagnostics printer, the
/// machine code of the optimised module.

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class CompilerInstance;
} // namespace clang
namespace llvm {
class LLVMContext;
class Module;
class TargetMachine;
class raw_ostream;
} // namespace llvm

namespace fxkit::llvmjit {

/// `args` as the argv Clang's option parsers take (pointers into `args`, which must outlive it).
std::vector<const char *> clangArgv(const std::vector<std::string> &args);

/// Sends `ci`'s diagnostics, without colours, to `diagnostics` (which the caller quotes in its
/// error); `ci` owns the printer.
void printDiagnosticsTo(clang::CompilerInstance &ci, llvm::raw_ostream &diagnostics);

/// The LLVM module of `ci`'s invocation (EmitLLVMOnlyAction), or null when it failed; errors
/// the action returns (beyond the diagnostics printed by `ci`) are appended to `diagnostics`.
std::unique_ptr<llvm::Module> emitLLVMModule(clang::CompilerInstance &ci,
                                             llvm::LLVMContext &context,
                                             llvm::raw_ostream &diagnostics);

/// `module` compiled by `tm` to an object file, or with `assembly` to assembly text (PTX);
/// nullopt where the target cannot emit that kind of file.
std::optional<std::vector<char>> emitMachineCode(llvm::TargetMachine &tm, llvm::Module &module,
                                                 bool assembly);

} // namespace fxkit::llvmjit
