#include "backends/llvm/HostTarget.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/Triple.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/DynamicLibrary.h>
#include <llvm/Support/Host.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>

#include <algorithm>
#include <vector>

namespace fxkit::llvmjit {

std::string HostTarget::str() const {
  return triple + " " + cpu + " LLVM " + llvmVersion + (libmvec ? " libmvec" : "");
}

std::vector<std::string> HostTarget::featureList() const {
  std::vector<std::string> out;
  for (size_t start = 0; start < features.size();) {
    size_t comma = std::min(features.find(',', start), features.size());
    out.push_back(features.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

Expected<std::unique_ptr<llvm::orc::LLJIT>> HostTarget::createJit() const {
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb)
    return Error("LLVM JIT: " + llvm::toString(jtmb.takeError()));
  jtmb->setCPU(cpu);
  auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*jtmb)).create();
  if (!jit)
    return Error("LLVM JIT: " + llvm::toString(jit.takeError()));
  return std::move(*jit);
}

Expected<std::unique_ptr<llvm::TargetMachine>> HostTarget::createTargetMachine() const {
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return Error("LLVM has no target for " + triple + ": " + error);
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> tm(
      target->createTargetMachine(triple, cpu, features, options, llvm::Reloc::PIC_,
                                  llvm::CodeModel::Small, llvm::CodeGenOpt::Aggressive));
  if (!tm)
    return Error("LLVM cannot create a target machine for " + str());
  return tm;
}

const HostTarget &hostTarget() {
  static const HostTarget host = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
    HostTarget h;
    h.triple = llvm::sys::getProcessTriple();
    h.cpu = llvm::sys::getHostCPUName().str();
    // A CPU newer than this LLVM (LLVM 15 on AMD family 1Ah, Zen 5) is "generic", which Clang's
    // x86 front end rejects; the baseline CPU with the host's own features still uses all of them.
    if (h.cpu == "generic" && llvm::Triple(h.triple).getArch() == llvm::Triple::x86_64)
      h.cpu = "x86-64";
    llvm::StringMap<bool> map;
    std::vector<std::string> features;
    if (llvm::sys::getHostCPUFeatures(map))
      for (const auto &f : map)
        features.push_back((f.second ? "+" : "-") + f.first().str());
    std::sort(features.begin(), features.end()); // StringMap order is not stable
    for (const std::string &f : features)
      h.features += (h.features.empty() ? "" : ",") + f;
    h.llvmVersion = LLVM_VERSION_STRING;
    // Loaded for good, so the JIT's process symbol search finds _ZGVdN8v_expf and friends.
    h.libmvec = llvm::Triple(h.triple).getArch() == llvm::Triple::x86_64 &&
                !llvm::sys::DynamicLibrary::LoadLibraryPermanently("libmvec.so.1");
    return h;
  }();
  return host;
}

} // namespace fxkit::llvmjit
