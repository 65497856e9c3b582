#include "backends/llvm/KernelCompiler.h"

#include "backends/llvm/ClangAction.h"
#include "ir/Try.h"

#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <mutex>
#include <set>
#include <sstream>

namespace fxkit::llvmjit {

namespace {

/// Splits build options at spaces ("-cl-std=CL1.2 -DFX_INDEX_T=int").
std::vector<std::string> splitOptions(const std::string &options) {
  std::vector<std::string> out;
  std::istringstream in(options);
  for (std::string word; in >> word;)
    out.push_back(word);
  return out;
}

/// Clang's front end: source to unoptimised (but optimisable: no optnone) LLVM IR.
Expected<std::unique_ptr<llvm::Module>> parse(const CompileRequest &request, const HostTarget &host,
                                              llvm::LLVMContext &context) {
  std::vector<std::string> args = {"-triple", host.triple, "-target-cpu", host.cpu};
  for (std::string &feature : host.featureList()) {
    args.push_back("-target-feature");
    args.push_back(std::move(feature));
  }
  // O3 without Clang's own pipeline: ours runs after the helpers are internalised.
  args.insert(args.end(), {"-O3", "-disable-llvm-passes", "-x", "cl", "-cl-std=CL1.2",
                           "-cl-ext=+cl_khr_fp64", "-ffp-contract=on", "-emit-llvm-only"});
  for (std::string &o : splitOptions(request.options))
    args.push_back(std::move(o));
  args.push_back(request.sourcePath);
  std::vector<const char *> argv = clangArgv(args);

  std::string diagnostics;
  llvm::raw_string_ostream diagStream(diagnostics);
  clang::CompilerInstance ci;
  printDiagnosticsTo(ci, diagStream);
  auto invocation = std::make_shared<clang::CompilerInvocation>();
  bool ok = clang::CompilerInvocation::CreateFromArgs(*invocation, argv, ci.getDiagnostics());
  if (!ok || ci.getDiagnostics().hasErrorOccurred()) {
    diagStream.flush();
    return Error("clang: bad build options '" + request.options + "':\n" + diagnostics);
  }
  invocation->getPreprocessorOpts().addRemappedFile(
      request.sourcePath, llvm::MemoryBuffer::getMemBufferCopy(request.source).release());
  invocation->getPreprocessorOpts().RetainRemappedFileBuffers = false;
  invocation->getFrontendOpts().DisableFree = false;
  invocation->getCodeGenOpts().DisableFree = false;
  ci.setInvocation(std::move(invocation));
  std::unique_ptr<llvm::Module> module = emitLLVMModule(ci, context, diagStream);
  if (ci.getDiagnostics().hasErrorOccurred())
    return Error("clang cannot compile " + request.sourcePath + ":\n" + diagnostics);
  if (!module)
    return Error("clang produced no module for " + request.sourcePath + ":\n" + diagnostics);
  return module;
}

/// Internalises everything but the entry points, then runs the O3 pipeline for `tm`.
Status optimise(llvm::Module &module, llvm::TargetMachine &tm,
                const std::vector<std::string> &entryPoints, const HostTarget &host) {
  std::set<std::string> keep(entryPoints.begin(), entryPoints.end());
  for (llvm::Function &f : module) {
    if (f.isDeclaration())
      continue;
    if (keep.count(f.getName().str())) {
      f.setLinkage(llvm::GlobalValue::ExternalLinkage);
      continue;
    }
    f.setLinkage(llvm::GlobalValue::InternalLinkage);
  }
  for (const std::string &e : entryPoints)
    if (!module.getFunction(e) || module.getFunction(e)->isDeclaration())
      return Error("kernel module has no entry point " + e + " (internal error)");
  module.setTargetTriple(tm.getTargetTriple().str());
  module.setDataLayout(tm.createDataLayout());

  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  tuning.LoopUnrolling = true;
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder builder(&tm, tuning);
  // Registered before the defaults, so it wins: loops calling exp or log vectorise into calls
  // of glibc's SIMD versions instead of staying scalar.
  llvm::TargetLibraryInfoImpl libraryInfo(tm.getTargetTriple());
  if (host.libmvec)
    libraryInfo.addVectorizableFunctionsFromVecLib(llvm::TargetLibraryInfoImpl::LIBMVEC_X86);
  fam.registerPass([&] { return llvm::TargetLibraryAnalysis(libraryInfo); });
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager passes =
      builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  passes.run(module, mam);
  std::string broken;
  llvm::raw_string_ostream brokenStream(broken);
  if (llvm::verifyModule(module, &brokenStream))
    return Error("LLVM produced an invalid module: " + brokenStream.str());
  return Status::ok();
}

/// A kernel source through Clang's front end for `target`, with the target machine that will
/// emit it; the context outlives the module (members are destroyed in reverse order).
struct ParsedKernels {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
  std::unique_ptr<llvm::TargetMachine> tm;
};

Expected<ParsedKernels> parseFor(const CompileRequest &request, const HostTarget &target) {
  ParsedKernels k;
  k.context = std::make_unique<llvm::LLVMContext>();
  FXKIT_ASSIGN_OR_RETURN(k.module, parse(request, target, *k.context));
  FXKIT_ASSIGN_OR_RETURN(k.tm, target.createTargetMachine());
  return k;
}

} // namespace

Expected<std::string> compileToIR(const CompileRequest &request, const HostTarget &host) {
  FXKIT_ASSIGN_OR_RETURN(auto k, parseFor(request, host));
  FXKIT_TRY(optimise(*k.module, *k.tm, request.entryPoints, host));
  std::string text;
  llvm::raw_string_ostream out(text);
  k.module->print(out, nullptr);
  return out.str();
}

Expected<std::vector<char>> compileToObject(const CompileRequest &request, const HostTarget &host) {
  FXKIT_ASSIGN_OR_RETURN(auto k, parseFor(request, host));
  FXKIT_TRY(optimise(*k.module, *k.tm, request.entryPoints, host));
  auto object = emitMachineCode(*k.tm, *k.module, /*assembly=*/false);
  if (!object)
    return Error("LLVM cannot emit object files for " + host.str());
  return std::move(*object);
}

Expected<std::string> compileToPtx(const CompileRequest &request, const std::string &gpuArch,
                                   const std::string &libdevicePath) {
  static std::once_flag initialised;
  std::call_once(initialised, [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
  });
  HostTarget gpu;
  gpu.triple = "nvptx64-nvidia-cuda";
  gpu.cpu = gpuArch;
  gpu.features = "+ptx70"; // the PTX ISA sm_80 needs; ptxas of later CUDA versions accept it
  gpu.llvmVersion = hostTarget().llvmVersion;
  FXKIT_ASSIGN_OR_RETURN(auto k, parseFor(request, gpu));
  llvm::Module &m = *k.module;
  llvm::LLVMContext &context = *k.context;
  m.setTargetTriple(gpu.triple);
  m.setDataLayout(k.tm->createDataLayout());
  // libdevice's functions test __nvvm_reflect("__CUDA_FTZ"): IEEE denormals.
  m.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", uint32_t(0));
  bool needsLibdevice = false;
  for (const llvm::Function &f : m)
    needsLibdevice = needsLibdevice || (f.isDeclaration() && f.getName().startswith("__nv_"));
  if (needsLibdevice) {
    if (libdevicePath.empty())
      return Error("the kernels call math functions, which on NVIDIA GPUs come from CUDA's "
                   "libdevice: set FXKIT_LIBDEVICE to nvvm/libdevice/libdevice.10.bc");
    llvm::SMDiagnostic diagnostic;
    std::unique_ptr<llvm::Module> libdevice = llvm::parseIRFile(libdevicePath, diagnostic, context);
    if (!libdevice) {
      std::string text;
      llvm::raw_string_ostream out(text);
      diagnostic.print("fxkit", out);
      return Error("cannot read libdevice " + libdevicePath + ": " + out.str());
    }
    libdevice->setTargetTriple(m.getTargetTriple());
    libdevice->setDataLayout(m.getDataLayout());
    if (llvm::Linker::linkModules(m, std::move(libdevice), llvm::Linker::LinkOnlyNeeded))
      return Error("cannot link libdevice " + libdevicePath + " into the kernels");
  }
  FXKIT_TRY(optimise(m, *k.tm, request.entryPoints, gpu));
  for (const llvm::Function &f : m)
    if (f.isDeclaration() && !f.isIntrinsic() && !f.use_empty())
      return Error("the PTX would call " + f.getName().str() + ", which nothing defines");
  auto ptx = emitMachineCode(*k.tm, m, /*assembly=*/true);
  if (!ptx)
    return Error("LLVM cannot emit PTX for " + gpuArch);
  return std::string(ptx->begin(), ptx->end());
}

} // namespace fxkit::llvmjit
