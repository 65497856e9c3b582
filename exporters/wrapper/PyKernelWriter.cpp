#include "exporters/wrapper/PyKernelWriter.h"

#include "exporters/wrapper/PySymExpr.h"
#include "ir/Argument.h"
#include "ir/ops/ShapeRules.h"
#include "transforms/SizeArgs.h"

#include <cctype>
#include <cmath>
#include <map>
#include <set>

namespace fxkit {

using namespace loop;

std::string pyTorchDType(DType dtype) { return "torch." + std::string(dtypeName(dtype)); }

namespace {

std::string floatLiteral(double v) {
  if (std::isnan(v))
    return "float('nan')";
  if (std::isinf(v))
    return v > 0 ? "float('inf')" : "float('-inf')";
  return pyFloatRepr(v);
}

/// `text` as an operand of `//` or `%`: bare when it is a name or a number.
std::string atom(const std::string &text) {
  for (char c : text)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      return "(" + text + ")";
  return text;
}

/// Comment text on one line (origins are node names, but nothing forces that).
std::string commentSafe(std::string s) {
  for (char &c : s)
    if (c == '\n' || c == '\r')
      c = ' ';
  return s;
}

/// scatter_reduce's name for a combining scatter.
std::string_view scatterReduceName(ScatterCombine combine) {
  switch (combine) {
  case ScatterCombine::Replace:
  case ScatterCombine::Add:
    return "sum";
  case ScatterCombine::Mul:
    return "prod";
  case ScatterCombine::Max:
    return "amax";
  case ScatterCombine::Min:
    return "amin";
  }
  return "sum";
}

class KernelEmitter {
public:
  KernelEmitter(const LoopProgram &p, const Kernel &k, std::string name)
      : p_(p), k_(k), name_(std::move(name)) {}
  Expected<PyKernel> run();

private:
  /// A size or index expression in the kernel's parameters, noting the symbols it uses.
  std::string expr(const SymExpr &e) {
    SymExpr s = useSizeArgs(e, k_);
    for (const std::string &sym : s.symbols())
      if (!isLoopVariable(sym) && !sizeArgNames_.count(sym))
        symbols_.insert(sym);
    return pySymExpr(s);
  }
  void line(const std::string &s) {
    body_ += "    ";
    body_ += s;
    body_ += '\n';
  }
  /// Binds the op's variables (`x0`.. or `r0`..) to the row-major unflattening of `flat`
  /// over `ranges`, as the interpreter's bindVars does.
  void unflatten(const std::string &flat, const std::vector<SymExpr> &ranges, bool reduction) {
    for (size_t j = 0; j < ranges.size(); ++j) {
      std::vector<SymExpr> inner(ranges.begin() + static_cast<std::ptrdiff_t>(j) + 1, ranges.end());
      SymExpr divisor = symProduct(inner);
      std::string e = flat;
      if (!symIs(divisor, 1))
        e += " // " + atom(expr(divisor));
      if (j > 0)
        e += " % " + atom(expr(ranges[j]));
      line(loopVarName(reduction, j) + " = " + e);
    }
  }
  /// `name` converted to `to` when its instruction's dtype differs.
  static std::string castTo(const std::string &name, DType from, DType to) {
    return from == to ? name : name + ".to(" + pyTorchDType(to) + ")";
  }
  Status emitBody(const LoopOp &op, std::vector<std::string> &names);
  Status emitOp(size_t i);
  /// A scan: the body over the (xnumel, rnumel) grid, torch.cumsum/cumprod along the row in
  /// the accumulator's dtype, every running value stored.
  Status emitScan(const LoopOp &op);
  std::string tmp() { return "tmp" + std::to_string(nextTmp_++); }

  const LoopProgram &p_;
  const Kernel &k_;
  std::string name_;
  std::string body_;
  std::set<std::string, std::less<>> symbols_;
  std::set<std::string, std::less<>> sizeArgNames_;
  std::map<int32_t, std::string> bufferNames_;
  int nextTmp_ = 0;
};

Status KernelEmitter::emitBody(const LoopOp &op, std::vector<std::string> &names) {
  names.assign(op.body.size(), "");
  for (size_t i = 0; i < op.body.size(); ++i) {
    const ScalarInstr &in = op.body[i];
    const std::string dt = pyTorchDType(in.dtype);
    auto operand = [&](int k) -> std::string {
      int32_t o = in.operands[k];
      return o >= 0 && o < static_cast<int32_t>(i) ? names[o] : "";
    };
    auto operandAs = [&](int k, DType to) {
      return castTo(operand(k), op.body[in.operands[k]].dtype, to);
    };
    int arity = scalarOpArity(in.op);
    for (int k = 0; k < arity; ++k)
      if (operand(k).empty())
        return Error("kernel " + k_.name + ": " + op.name + " instruction " + std::to_string(i) +
                     " has a bad operand");
    std::string e;
    switch (in.op) {
    case ScalarOp::Load: {
      auto it = bufferNames_.find(in.buffer);
      if (it == bufferNames_.end())
        return Error("kernel " + k_.name + ": " + op.name + " reads a buffer it is not given");
      e = "load(" + it->second + ", " + expr(in.index);
      if (in.operands[0] >= 0)
        e += ", " + names[in.operands[0]];
      e += ")";
      e = castTo(e, p_.buffers[in.buffer].type.dtype, in.dtype);
      break;
    }
    case ScalarOp::Constant:
      if (dtypeIsFloating(in.dtype))
        e = "torch.tensor(" + floatLiteral(in.constant) + ", dtype=" + dt + ", device=device)";
      else if (in.dtype == DType::Bool)
        e = std::string("torch.tensor(") + (in.intConstant ? "True" : "False") + ", device=device)";
      else
        e = "torch.tensor(" + std::to_string(in.intConstant) + ", dtype=" + dt + ", device=device)";
      break;
    case ScalarOp::IndexValue:
      e = "torch.as_tensor(" + expr(in.index) + ", device=device).to(" + dt + ")";
      break;
    case ScalarOp::Cast:
      e = names[in.operands[0]] + ".to(" + dt + ")";
      break;
    case ScalarOp::IndirectIndex: {
      // The symbol later loads index with, as a tensor of this point's indices (wrapped once
      // when negative; torch's indexing rejects one still out of range).
      const std::string raw = castTo(operand(0), op.body[in.operands[0]].dtype, DType::Int64);
      const std::string var = indirectVarName(in.intConstant);
      if (in.constant != 0)
        line(var + " = torch.where(" + raw + " < 0, " + raw + " + " + atom(expr(in.index)) + ", " +
             raw + ")");
      else
        line(var + " = " + raw);
      e = var;
      break;
    }
    default: {
      // Generated ops (ScalarOps.def). Arithmetic runs in the instruction's dtype, as eager
      // PyTorch runs an op in its promoted dtype (float16 results round once per op);
      // predicates compare their operands as they are.
      const ScalarOpKind kind = scalarOpKind(in.op);
      e = expandSpelling(scalarOpSpelling(in.op).python, [&](std::string_view p) -> std::string {
        int k = p.back() - '0';
        if (p[0] == 'r')
          return operand(k);
        if (p[0] == 'b')
          return castTo(operand(k), op.body[in.operands[k]].dtype, DType::Bool);
        return operandAs(k, in.dtype);
      });
      if (kind == ScalarOpKind::Predicate)
        e = castTo(e, DType::Bool, in.dtype);
      // Float functions of integers give floats: back to the instruction's dtype.
      if (kind == ScalarOpKind::FloatFn && !dtypeIsFloating(in.dtype))
        e = "(" + e + ").to(" + dt + ")";
    }
    }
    names[i] = tmp();
    line(names[i] + " = " + e);
  }
  return Status::ok();
}

Status KernelEmitter::emitOp(size_t i) {
  const LoopOp &op = p_.ops[k_.ops[i]];
  Placement place = k_.placements[i];
  std::string ops, origins;
  for (const std::string &o : op.originOps)
    ops += (ops.empty() ? "" : ", ") + o;
  for (const std::string &o : op.origins)
    origins += (origins.empty() ? "" : ", ") + o;
  std::string space;
  for (const SymExpr &r : op.ranges)
    space += (space.empty() ? "" : ", ") + r.str();
  std::string where = op.kind == LoopOpKind::Reduction ? "reduction"
                      : op.kind == LoopOpKind::Scan    ? "scan"
                      : place == Placement::Full       ? "full"
                      : place == Placement::Flat       ? "flat"
                                                       : "row";
  std::string comment =
      "# " + op.name + ": " + ops + " (" + origins + "), " + where + " over [" + space + "]";
  if (op.kind == LoopOpKind::Reduction || op.kind == LoopOpKind::Scan) {
    std::string red;
    for (const SymExpr &r : op.reductionRanges)
      red += (red.empty() ? "" : ", ") + r.str();
    comment += " x [" + red + "]";
  }
  line(commentSafe(comment));
  std::vector<std::string> names;
  if (op.kind == LoopOpKind::Scan)
    return emitScan(op);
  if (op.kind == LoopOpKind::Reduction) {
    unflatten("xrow", op.ranges, false);
    unflatten("rcol", op.reductionRanges, true);
    if (Status s = emitBody(op, names); !s)
      return s;
    if (op.reduced < 0 || op.reduced >= static_cast<int32_t>(names.size()))
      return Error("kernel " + k_.name + ": " + op.name + " reduces no value");
    std::string v = tmp();
    line(v + " = torch.broadcast_to(" + names[op.reduced] + ", (xnumel, rnumel)).to(" +
         pyTorchDType(op.accumulator) + ")");
    std::vector<std::string> results;
    std::string r0 = tmp();
    results.push_back(r0);
    switch (op.reduction) {
    case ReductionKind::Sum:
      line(r0 + " = " + v + ".sum(1, keepdim=True)");
      break;
    case ReductionKind::Mean:
      line(r0 + " = " + v + ".mean(1, keepdim=True)");
      break;
    case ReductionKind::Max:
      line(r0 + " = " + v + ".amax(1, keepdim=True)");
      break;
    case ReductionKind::Min:
      line(r0 + " = " + v + ".amin(1, keepdim=True)");
      break;
    case ReductionKind::VarMean: {
      std::string r1 = tmp();
      results.push_back(r1);
      double c = op.correction;
      std::string corr =
          c == std::floor(c) ? std::to_string(static_cast<int64_t>(c)) : floatLiteral(c);
      line(r0 + ", " + r1 + " = torch.var_mean(" + v + ", 1, correction=" + corr +
           ", keepdim=True)");
      break;
    }
    case ReductionKind::Prod:
      line(r0 + " = " + v + ".prod(1, keepdim=True)");
      break;
    case ReductionKind::Any:
      line(r0 + " = (" + v + " != 0).any(1, keepdim=True)");
      break;
    case ReductionKind::All:
      line(r0 + " = (" + v + " != 0).all(1, keepdim=True)");
      break;
    case ReductionKind::ArgMax:
    case ReductionKind::ArgMin: {
      // torch.max/min along a row: its first extremum (NaN wins); the point's own number is
      // gathered from the index values at that position.
      if (op.reducedIndex < 0 || op.reducedIndex >= static_cast<int32_t>(names.size()))
        return Error("kernel " + k_.name + ": " + op.name + " has no index to reduce");
      std::string r1 = tmp(), at = tmp();
      results.push_back(r1);
      line(r0 + ", " + at + " = torch." + (op.reduction == ReductionKind::ArgMax ? "max" : "min") +
           "(" + v + ", 1, keepdim=True)");
      line(r1 + " = torch.broadcast_to(" + names[op.reducedIndex] +
           ", (xnumel, rnumel)).to(torch.int64).gather(1, " + at + ")");
      break;
    }
    case ReductionKind::LogSumExp:
      line(r0 + " = torch.logsumexp(" + v + ", 1, keepdim=True)");
      break;
    case ReductionKind::OnlineSoftmax: {
      std::string r1 = tmp();
      results.push_back(r1);
      line(r0 + " = " + v + ".amax(1, keepdim=True)");
      // As eager defines it: an infinite max makes the sum NaN (inf - inf).
      line(r1 + " = torch.exp(" + v + " - " + r0 + ").sum(1, keepdim=True)");
      break;
    }
    }
    for (const Store &s : op.stores) {
      if (s.value < 0 || s.value >= static_cast<int32_t>(results.size()))
        return Error("kernel " + k_.name + ": " + op.name + " stores a result it has not");
      line("store(" + bufferNames_.at(s.buffer) + ", " + expr(s.index) + ", " + results[s.value] +
           ")");
    }
    return Status::ok();
  }
  unflatten(place == Placement::Full ? "xfull" : "xindex", op.ranges, false);
  if (Status s = emitBody(op, names); !s)
    return s;
  for (const Store &s : op.stores) {
    if (s.value < 0 || s.value >= static_cast<int32_t>(names.size()))
      return Error("kernel " + k_.name + ": " + op.name + " stores a value it has not");
    if (s.scatter && s.combine != ScatterCombine::Replace)
      line("store_reduce(" + bufferNames_.at(s.buffer) + ", " + expr(s.index) + ", " +
           names[s.value] + ", \"" + std::string(scatterReduceName(s.combine)) + "\")");
    else
      line("store(" + bufferNames_.at(s.buffer) + ", " + expr(s.index) + ", " + names[s.value] +
           ")");
  }
  return Status::ok();
}

Status KernelEmitter::emitScan(const LoopOp &op) {
  unflatten("xrow", op.ranges, false);
  unflatten("rcol", op.reductionRanges, true);
  std::vector<std::string> names;
  if (Status s = emitBody(op, names); !s)
    return s;
  if (op.reduced < 0 || op.reduced >= static_cast<int32_t>(names.size()))
    return Error("kernel " + k_.name + ": " + op.name + " scans no value");
  std::string v = tmp();
  line(v + " = torch.broadcast_to(" + names[op.reduced] + ", (xnumel, rnumel)).to(" +
       pyTorchDType(op.accumulator) + ")");
  std::string result = tmp();
  switch (op.scan) {
  case ScanKind::Sum:
    line(result + " = torch.cumsum(" + v + ", 1)");
    break;
  case ScanKind::Prod:
    line(result + " = torch.cumprod(" + v + ", 1)");
    break;
  }
  for (const Store &s : op.stores) {
    if (s.value != 0)
      return Error("kernel " + k_.name + ": " + op.name + " stores a result it has not");
    line("store(" + bufferNames_.at(s.buffer) + ", " + expr(s.index) + ", " + result + ")");
  }
  return Status::ok();
}

Expected<PyKernel> KernelEmitter::run() {
  PyKernel out;
  for (const SizeArg &sa : k_.sizeArgs)
    sizeArgNames_.insert(sa.name);
  int in = 0, outs = 0;
  for (int32_t b : k_.inputs) {
    std::string n = "in_ptr" + std::to_string(in++);
    bufferNames_[b] = n;
    out.params.push_back({n, b, {}});
  }
  for (int32_t b : k_.outputs) {
    std::string n = "out_ptr" + std::to_string(outs++);
    bufferNames_[b] = n;
    out.params.push_back({n, b, {}});
  }
  if (k_.outputs.empty())
    return Error("kernel " + k_.name + " writes no output");
  for (int32_t b : k_.internal)
    bufferNames_[b] = p_.buffers[b].name;
  bool reduction = !k_.reductionRanges.empty();
  line("device = " + bufferNames_.at(k_.outputs.front()) + ".device");
  // Every buffer as its flat storage, indexed by the loop program's storage offsets.
  for (const PyKernelParam &param : out.params)
    line(param.name + " = flat_storage(" + param.name + ", " +
         expr(p_.buffers[param.buffer].storageNumel()) + ")");
  for (int32_t b : k_.internal)
    line(bufferNames_[b] + " = torch.empty(" + expr(p_.buffers[b].storageNumel()) + ", dtype=" +
         pyTorchDType(p_.buffers[b].type.dtype) + ", device=device)  # never leaves the kernel");
  line("xindex = torch.arange(xnumel, device=device)");
  if (reduction) {
    line("rindex = torch.arange(rnumel, device=device)");
    bool anyFull = false, anyReduction = false;
    for (size_t i = 0; i < k_.ops.size(); ++i) {
      anyFull = anyFull || (p_.ops[k_.ops[i]].kind != LoopOpKind::Reduction &&
                            k_.placements[i] == Placement::Full);
      anyReduction = anyReduction || p_.ops[k_.ops[i]].kind == LoopOpKind::Reduction ||
                     p_.ops[k_.ops[i]].kind == LoopOpKind::Scan;
    }
    if (anyReduction) {
      line("xrow = xindex[:, None]");
      line("rcol = rindex[None, :]");
    }
    if (anyFull)
      line("xfull = torch.arange(xnumel * rnumel, device=device)");
  }
  if (k_.placements.size() != k_.ops.size())
    return Error("kernel " + k_.name + " has no placement for some op");
  for (size_t i = 0; i < k_.ops.size(); ++i)
    if (Status s = emitOp(i); !s)
      return s.takeError();
  // Size parameters: symbols as they are, hoisted products, then the iteration space.
  for (const std::string &s : k_.symbolArgs)
    symbols_.insert(s);
  for (const std::string &s : symbols_)
    out.params.push_back({s, -1, SymExpr::symbol(s)});
  for (const SizeArg &sa : k_.sizeArgs)
    out.params.push_back({sa.name, -1, sa.definition});
  out.params.push_back({"xnumel", -1, symProduct(k_.ranges)});
  if (reduction)
    out.params.push_back({"rnumel", -1, symProduct(k_.reductionRanges)});
  std::string head = "def " + name_ + "(";
  for (size_t i = 0; i < out.params.size(); ++i)
    head += (i ? ", " : "") + out.params[i].name;
  head += "):\n";
  out.code = head + body_;
  if (!out.code.empty() && out.code.back() == '\n')
    out.code.pop_back();
  return out;
}

} // namespace

Expected<PyKernel> writePyKernel(const LoopProgram &program, const Kernel &kernel,
                                 const std::string &name) {
  if (kernel.isExtern)
    return Error("kernel " + kernel.name + " is an extern call, not generated code");
  return KernelEmitter(program, kernel, name).run();
}

const char *const kPyKernelHelpers = R"PY(def flat_storage(t, numel):
    # The elements a kernel indexes: `numel` of them from the tensor's own storage offset.
    return torch.as_strided(t, (numel,), (1,), t.storage_offset())


def load(flat, index, mask=None):
    index = torch.as_tensor(index, device=flat.device)
    if mask is None:
        return flat[index]
    # Masked-off points are not read (their index may be out of range) and load 0.
    mask = torch.as_tensor(mask, device=flat.device).to(torch.bool)
    index, mask = torch.broadcast_tensors(index, mask)
    safe = torch.where(mask, index, torch.zeros_like(index))
    return torch.where(mask, flat[safe], torch.zeros((), dtype=flat.dtype, device=flat.device))


def store(flat, index, value):
    index = torch.as_tensor(index, device=flat.device)
    value = torch.as_tensor(value, device=flat.device)
    index, value = torch.broadcast_tensors(index, value)
    flat[index.reshape(-1)] = value.reshape(-1).to(flat.dtype)


def store_reduce(flat, index, value, reduce):
    # A combining scatter: every point combines, also where several hit one element.
    index = torch.as_tensor(index, device=flat.device)
    value = torch.as_tensor(value, device=flat.device)
    index, value = torch.broadcast_tensors(index, value)
    flat.scatter_reduce_(0, index.reshape(-1), value.reshape(-1).to(flat.dtype), reduce)


def _fx_philox(seed, offset):
    # Philox-4x32-10 as Triton's tl.randint4x (fxkit's ir/loop/Philox.h): 32-bit words held in
    # int64 tensors, products wrapping modulo 2**64 and masked back to 32 bits.
    m = 0xFFFFFFFF
    seed = torch.as_tensor(seed).to(torch.int64)
    c0 = torch.as_tensor(offset, device=seed.device).to(torch.int64) & m
    c0, seed = torch.broadcast_tensors(c0, seed)
    c1 = torch.zeros_like(c0)
    c2, c3 = c1, c1
    k0, k1 = seed & m, (seed >> 32) & m
    for _ in range(10):
        p0, p2 = c0 * 0xD2511F53, c2 * 0xCD9E8D57
        n0 = ((p2 >> 32) & m) ^ c1 ^ k0
        n2 = ((p0 >> 32) & m) ^ c3 ^ k1
        c0, c1, c2, c3 = n0, p2 & m, n2, p0 & m
        k0, k1 = (k0 + 0x9E3779B9) & m, (k1 + 0xBB67AE85) & m
    return c0, c1, c2, c3


def _fx_uniform(w):
    x = torch.where(w >= 2**31, w - 2**32, w)
    x = torch.where(x < 0, -x - 1, x)
    return x.to(torch.float32) * torch.tensor(4.6566127342e-10, dtype=torch.float32, device=w.device)


def fx_rand(seed, offset):
    return _fx_uniform(_fx_philox(seed, offset)[0])


def fx_randn(seed, offset):
    w = _fx_philox(seed, offset)
    f32 = dict(dtype=torch.float32, device=w[0].device)
    u1 = torch.clamp_min(_fx_uniform(w[0]), torch.tensor(1.0e-7, **f32))
    th = torch.tensor(6.283185307179586, **f32) * _fx_uniform(w[1])
    r = torch.sqrt(-2.0 * torch.log(u1.to(torch.float64)))
    return (r * torch.cos(th.to(torch.float64))).to(torch.float32)


def fx_randint64(seed, offset, size):
    # (w0 | w1 << 32) modulo size as uint64, exactly: by parts while size < 2**31.
    w = _fx_philox(seed, offset)
    n = torch.as_tensor(size, device=w[0].device).to(torch.int64)
    w0, w1, n = torch.broadcast_tensors(w[0], w[1], n)
    if bool((n < 2**31).all()):
        n = torch.clamp_min(n, 1)
        return ((w1 % n) * ((2**32) % n) % n + w0 % n) % n
    bits = [int(a) | (int(b) << 32) for a, b in zip(w0.reshape(-1).tolist(), w1.reshape(-1).tolist())]
    out = [b % (k % 2**64) if k else 0 for b, k in zip(bits, n.reshape(-1).tolist())]
    out = [v - 2**64 if v >= 2**63 else v for v in out]
    return torch.tensor(out, dtype=torch.int64, device=w0.device).reshape(w0.shape)
)PY";

} // namespace fxkit
