#include "ir/loop/Kernel.h"

#include "ir/ops/ShapeRules.h"

#include <set>
#include <sstream>

namespace fxkit::loop {

std::string_view placementName(Placement p) {
  switch (p) {
  case Placement::Row:
    return "row";
  case Placement::Full:
    return "full";
  case Placement::Flat:
    return "flat";
  }
  return "?";
}

std::string_view fusionKindName(FusionKind kind) {
  switch (kind) {
  case FusionKind::Vertical:
    return "vertical";
  case FusionKind::Horizontal:
    return "horizontal";
  case FusionKind::ReductionEpilogue:
    return "reduction epilogue";
  case FusionKind::ReductionPrologue:
    return "reduction prologue";
  case FusionKind::SameRows:
    return "same rows";
  case FusionKind::GemmEpilogue:
    return "gemm epilogue";
  }
  return "?";
}

size_t FusedProgram::distinctKernels() const {
  std::set<std::string> signatures;
  for (const Kernel &k : kernels)
    if (!k.isExtern)
      signatures.insert(k.signature);
  return signatures.size();
}

SymExpr FusedProgram::generatedKernelBytes() const {
  SymExpr total = 0;
  for (const Kernel &k : kernels)
    if (!k.isExtern)
      total = symAdd(total, symAdd(k.bytesRead, k.bytesWritten));
  return total;
}

namespace {
std::string bufferList(const LoopProgram &p, const std::vector<int32_t> &ids) {
  std::string s;
  for (size_t i = 0; i < ids.size(); ++i)
    s += (i ? ", " : "") + p.buffers[ids[i]].name;
  return s.empty() ? "-" : s;
}
std::string rangesText(const std::vector<SymExpr> &r) {
  std::string s = "[";
  for (size_t i = 0; i < r.size(); ++i)
    s += (i ? ", " : "") + r[i].str();
  return s + "]";
}
} // namespace

std::string FusedProgram::explain(const LoopProgram &program) const {
  std::ostringstream os;
  if (!program.reductionSplits.empty()) {
    os << "reduction splits:\n";
    for (const ReductionSplit &d : program.reductionSplits)
      os << "  " << (d.split ? "split  " : "kept   ") << " " << d.op
         << (d.split ? " into " + std::to_string(d.splits) + " blocks" : std::string()) << ": "
         << d.reason << "\n";
  }
  os << "fusion decisions:\n";
  for (const FusionDecision &d : decisions)
    os << "  " << (d.fused ? "fused  " : "refused") << " " << d.op << " into kernel of "
       << d.kernelOp << " (" << fusionKindName(d.kind) << ", " << d.bytesSaved.str()
       << " bytes): " << d.reason << "\n";
  os << "kernels (" << kernels.size() << " launches, " << distinctKernels()
     << " distinct generated):\n";
  for (const Kernel &k : kernels) {
    os << "  " << k.name << (k.isExtern ? " [extern]" : "")
       << (k.gemmEpilogueOf >= 0 ? " [gemm epilogue]" : "") << ": ";
    for (size_t i = 0; i < k.ops.size(); ++i) {
      const LoopOp &op = program.ops[k.ops[i]];
      os << (i ? ", " : "") << op.name << "(";
      for (size_t j = 0; j < op.origins.size(); ++j)
        os << (j ? " " : "") << op.origins[j];
      os << ")";
    }
    os << "\n    space " << rangesText(k.ranges);
    if (!k.reductionRanges.empty())
      os << " x " << rangesText(k.reductionRanges);
    os << "; reads " << bufferList(program, k.inputs) << "; writes "
       << bufferList(program, k.outputs) << "; internal " << bufferList(program, k.internal)
       << "; bytes " << k.bytesRead.str() << " + " << k.bytesWritten.str() << "\n";
  }
  return os.str();
}

} // namespace fxkit::loop
