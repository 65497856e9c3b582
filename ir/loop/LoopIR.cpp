#include "ir/loop/LoopIR.h"

#include "ir/ops/ShapeRules.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cctype>
#include <cmath>
#include <functional>
#include <sstream>

namespace fxkit::loop {

namespace {

struct ScalarOpFacts {
  std::string_view name;
  int arity;
  ScalarOpKind kind;
  ScalarOpSpelling spelling;
};

constexpr ScalarOpFacts kScalarOps[] = {
    {"load", 0, ScalarOpKind::Special, {}},
    {"constant", 0, ScalarOpKind::Special, {}},
    {"index_expr", 0, ScalarOpKind::Special, {}},
    {"to_dtype", 1, ScalarOpKind::Special, {}},
    {"indirect_indexing", 1, ScalarOpKind::Special, {}},
#define FXKIT_SCALAR_OP(Id, name, arity, kind, floatValue, intValue, clFloat, clInt, python)       \
  {name, arity, ScalarOpKind::kind, {clFloat, clInt, python}},
#include "ir/loop/ScalarOps.def"
};
static_assert(std::size(kScalarOps) == static_cast<size_t>(ScalarOp::Where) + 1,
              "Where must stay the last scalar op");

} // namespace

std::string_view scatterCombineName(ScatterCombine combine) {
  switch (combine) {
  case ScatterCombine::Replace:
    return "scatter";
  case ScatterCombine::Add:
    return "scatter_add";
  case ScatterCombine::Mul:
    return "scatter_mul";
  case ScatterCombine::Max:
    return "scatter_max";
  case ScatterCombine::Min:
    return "scatter_min";
  }
  return "scatter";
}

double combineScatter(ScatterCombine combine, double old, double value) {
  switch (combine) {
  case ScatterCombine::Replace:
    return value;
  case ScatterCombine::Add:
    return old + value;
  case ScatterCombine::Mul:
    return old * value;
  case ScatterCombine::Max:
    return std::isnan(old) || std::isnan(value) ? NAN : std::max(old, value);
  case ScatterCombine::Min:
    return std::isnan(old) || std::isnan(value) ? NAN : std::min(old, value);
  }
  return value;
}

std::string indirectVarName(int64_t id) { return "ind" + std::to_string(id); }

bool isIndirectVarName(std::string_view name) {
  return name.size() > 3 && name.starts_with("ind") &&
         std::all_of(name.begin() + 3, name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string_view scalarOpName(ScalarOp op) { return kScalarOps[static_cast<size_t>(op)].name; }

int scalarOpArity(ScalarOp op) { return kScalarOps[static_cast<size_t>(op)].arity; }

ScalarOpKind scalarOpKind(ScalarOp op) { return kScalarOps[static_cast<size_t>(op)].kind; }

const ScalarOpSpelling &scalarOpSpelling(ScalarOp op) {
  return kScalarOps[static_cast<size_t>(op)].spelling;
}

std::string expandSpelling(std::string_view spelling,
                           const std::function<std::string(std::string_view)> &substitute) {
  std::string out;
  for (size_t i = 0; i < spelling.size(); ++i) {
    if (spelling[i] != '$' || i + 1 >= spelling.size()) {
      out += spelling[i];
      continue;
    }
    // $T, $s, $0..$2, or a letter followed by a digit ($r0, $b0).
    size_t len = std::isdigit(static_cast<unsigned char>(spelling[i + 1])) ||
                         spelling[i + 1] == 'T' || spelling[i + 1] == 's'
                     ? 1
                     : 2;
    out += substitute(spelling.substr(i + 1, len));
    i += len;
  }
  return out;
}

std::string_view reductionKindName(ReductionKind kind) {
  switch (kind) {
  case ReductionKind::Sum:
    return "sum";
  case ReductionKind::Mean:
    return "mean";
  case ReductionKind::Max:
    return "max";
  case ReductionKind::Min:
    return "min";
  case ReductionKind::VarMean:
    return "var_mean";
  case ReductionKind::OnlineSoftmax:
    return "online_softmax";
  case ReductionKind::Prod:
    return "prod";
  case ReductionKind::Any:
    return "any";
  case ReductionKind::All:
    return "all";
  case ReductionKind::ArgMax:
    return "argmax";
  case ReductionKind::ArgMin:
    return "argmin";
  case ReductionKind::LogSumExp:
    return "logsumexp";
  }
  return "?";
}

int reductionResultCount(ReductionKind kind) {
  switch (kind) {
  case ReductionKind::VarMean:
  case ReductionKind::OnlineSoftmax:
  case ReductionKind::ArgMax:
  case ReductionKind::ArgMin:
    return 2;
  case ReductionKind::Sum:
  case ReductionKind::Mean:
  case ReductionKind::Max:
  case ReductionKind::Min:
  case ReductionKind::Prod:
  case ReductionKind::Any:
  case ReductionKind::All:
  case ReductionKind::LogSumExp:
    return 1;
  }
  return 1;
}

std::string_view scanKindName(ScanKind kind) {
  switch (kind) {
  case ScanKind::Sum:
    return "sum";
  case ScanKind::Prod:
    return "prod";
  }
  return "?";
}

std::string_view loopOpKindName(LoopOpKind kind) {
  switch (kind) {
  case LoopOpKind::Pointwise:
    return "pointwise";
  case LoopOpKind::Reduction:
    return "reduction";
  case LoopOpKind::Scan:
    return "scan";
  case LoopOpKind::Extern:
    return "extern";
  }
  return "?";
}

std::string loopVarName(bool reduction, size_t i) {
  return (reduction ? "r" : "x") + std::to_string(i);
}

SymExpr loopVar(bool reduction, size_t i) {
  constexpr size_t kCached = 32;
  // Built on first use (thread-safe static initialisation); the symbols are uniqued, so the
  // cached value equals SymExpr::symbol(loopVarName(...)).
  static const auto cache = [] {
    std::array<std::array<SymExpr, kCached>, 2> c;
    for (size_t k = 0; k < kCached; ++k) {
      c[0][k] = SymExpr::symbol(loopVarName(false, k));
      c[1][k] = SymExpr::symbol(loopVarName(true, k));
    }
    return c;
  }();
  if (i < kCached)
    return cache[reduction ? 1 : 0][i];
  return SymExpr::symbol(loopVarName(reduction, i));
}

namespace {
void addUnique(std::vector<int32_t> &v, int32_t x) {
  if (x >= 0 && std::find(v.begin(), v.end(), x) == v.end())
    v.push_back(x);
}
} // namespace

std::vector<int32_t> LoopOp::reads() const {
  std::vector<int32_t> out;
  for (const ScalarInstr &i : body)
    if (i.op == ScalarOp::Load)
      addUnique(out, i.buffer);
  for (const BufferView &v : externInputs)
    addUnique(out, v.buffer);
  return out;
}

std::vector<int32_t> LoopOp::writes() const {
  std::vector<int32_t> out;
  for (const Store &s : stores)
    addUnique(out, s.buffer);
  for (int32_t b : externOutputs)
    addUnique(out, b);
  return out;
}

SymExpr LoopOp::numel() const { return symProduct(ranges); }
SymExpr LoopOp::reductionNumel() const { return symProduct(reductionRanges); }

SymExpr Buffer::storageNumel() const {
  // 1 + sum (size - 1) * stride, or 0 when any size is 0 (symbols are never 0).
  SymExpr extent = 1;
  for (size_t i = 0; i < type.sizes.size(); ++i) {
    if (symIs(type.sizes[i], 0))
      return 0;
    extent = symAdd(extent, symMul(symSub(type.sizes[i], 1), type.strides[i]));
  }
  return extent;
}

SymExpr Buffer::storageBytes() const {
  return symMul(storageNumel(), SymExpr(dtypeItemSize(type.dtype)));
}

namespace {

void printInstr(std::ostringstream &os, const LoopProgram &p, const ScalarInstr &in, size_t i) {
  os << "    tmp" << i << " = " << scalarOpName(in.op) << "(";
  switch (in.op) {
  case ScalarOp::Load:
    os << p.buffers[in.buffer].name << ", " << in.index.str();
    if (in.operands[0] >= 0)
      os << ", mask=tmp" << in.operands[0];
    break;
  case ScalarOp::Constant:
    if (dtypeIsFloating(in.dtype))
      os << in.constant;
    else
      os << in.intConstant;
    break;
  case ScalarOp::IndexValue:
    os << in.index.str();
    break;
  case ScalarOp::IndirectIndex:
    os << "tmp" << in.operands[0] << ", " << in.index.str() << ", "
       << indirectVarName(in.intConstant) << (in.constant != 0 ? ", wrap_neg" : "");
    break;
  default:
    for (int k = 0; k < scalarOpArity(in.op); ++k)
      os << (k ? ", " : "") << "tmp" << in.operands[k];
  }
  os << ") : " << dtypeShortName(in.dtype) << "\n";
}

std::string rangesStr(const std::vector<SymExpr> &ranges, bool reduction) {
  std::string s = "{";
  for (size_t i = 0; i < ranges.size(); ++i)
    s += (i ? ", " : "") + loopVarName(reduction, i) + ": " + ranges[i].str();
  return s + "}";
}

} // namespace

std::string LoopProgram::str() const {
  std::ostringstream os;
  for (const Buffer &b : buffers)
    os << b.name << ": " << b.type.str() << (b.isInput ? " input" : "")
       << (b.isOutput ? " output" : "") << "\n";
  for (const LoopOp &op : ops) {
    os << op.name << ": " << loopOpKindName(op.kind);
    if (op.kind == LoopOpKind::Reduction)
      os << " " << reductionKindName(op.reduction);
    if (op.kind == LoopOpKind::Scan)
      os << " " << scanKindName(op.scan);
    os << " " << rangesStr(op.ranges, false);
    if (!op.reductionRanges.empty())
      os << " " << rangesStr(op.reductionRanges, true);
    os << "  # ";
    for (size_t i = 0; i < op.origins.size(); ++i)
      os << (i ? ", " : "") << op.origins[i];
    os << "\n";
    if (op.kind == LoopOpKind::Extern) {
      os << "    extern(";
      for (size_t i = 0; i < op.externInputs.size(); ++i)
        os << (i ? ", " : "") << buffers[op.externInputs[i].buffer].name;
      os << ") -> ";
      for (size_t i = 0; i < op.externOutputs.size(); ++i)
        os << (i ? ", " : "")
           << (op.externOutputs[i] < 0 ? "_" : buffers[op.externOutputs[i]].name);
      os << "\n";
      for (const SymbolDef &d : op.defines) {
        os << "    " << d.symbol << " = ";
        if (d.output < 0)
          os << "item()\n";
        else
          os << buffers[op.externOutputs[d.output]].name << ".size(" << d.dim << ")\n";
      }
      for (const RuntimeCheck &c : op.checks)
        os << "    check(" << c.condition.str() << ")  # " << c.node << "\n";
      continue;
    }
    for (size_t i = 0; i < op.body.size(); ++i)
      printInstr(os, *this, op.body[i], i);
    if (op.kind == LoopOpKind::Reduction && op.reducedIndex >= 0)
      os << "    reduce(tmp" << op.reduced << ", index tmp" << op.reducedIndex << ")\n";
    else if (op.kind == LoopOpKind::Reduction)
      os << "    reduce(tmp" << op.reduced << ")\n";
    if (op.kind == LoopOpKind::Scan)
      os << "    scan(tmp" << op.reduced << ") : " << dtypeShortName(op.accumulator) << "\n";
    for (const Store &s : op.stores)
      os << "    " << (s.scatter ? scatterCombineName(s.combine) : "store") << "("
         << buffers[s.buffer].name << ", " << s.index.str() << ", "
         << (op.kind == LoopOpKind::Pointwise ? "tmp" : "result") << s.value << ")\n";
  }
  return os.str();
}

std::vector<std::string> LoopProgram::unbackedSymbols() const {
  std::vector<std::string> out;
  for (const LoopOp &op : ops)
    for (const SymbolDef &d : op.defines)
      out.push_back(d.symbol);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool LoopProgram::mentionsAny(const SymExpr &e, const std::vector<std::string> &unbacked) {
  if (unbacked.empty() || e.isConstant())
    return false;
  for (const std::string &s : e.symbols())
    if (std::binary_search(unbacked.begin(), unbacked.end(), s))
      return true;
  return false;
}

} // namespace fxkit::loop
