#include "tests/gen/RandomGraph.h"

#include "ir/DType.h"
#include "ir/TensorType.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <vector>

namespace fxkit::testing {

namespace {

/// One dimension: a concrete size, or a symbol (whose value is `size`).
struct Dim {
  int64_t size = 1;
  std::string sym;
  bool operator==(const Dim &o) const { return size == o.size && sym == o.sym; }
  bool isOne() const { return sym.empty() && size == 1; }
  std::string str() const { return sym.empty() ? std::to_string(size) : sym; }
};

using Dims = std::vector<Dim>;

/// A tensor value of the graph being generated.
struct Value {
  std::string name;
  DType dtype = DType::Float32;
  Dims dims;
  bool contiguous = true; ///< known row-major (so `view` applies)
  bool exact = true;      ///< every backend computes it bit-exactly
  double bound = 4;       ///< magnitude bound (inputs: normal(0, 1) floats, ints in [0, 9])
};

/// One emitted call_function node.
struct Call {
  std::string name;
  std::string target; ///< without `torch.ops.`
  std::string args;   ///< the text inside `args = (...)`
  std::string kwargs; ///< the text inside `kwargs = {...}`
  std::vector<std::string> uses;
};

bool isFloat(DType d) { return d == DType::Float32 || d == DType::Float16; }

std::string torchDType(DType d) { return "torch." + std::string(dtypeName(d)); }

class Generator {
public:
  Generator(uint64_t seed, const RandomGraphOptions &options) : rng_(seed), options_(options) {}

  RandomGraph run(uint64_t seed);

private:
  // ---- random draws (deterministic: no std distributions) ----
  uint64_t draw(uint64_t n) { return n == 0 ? 0 : rng_() % n; }
  int64_t between(int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(draw(hi - lo + 1)); }
  bool chance(int percent) { return static_cast<int>(draw(100)) < percent; }
  template <class T> const T &pick(const std::vector<T> &v) { return v[draw(v.size())]; }

  // ---- shapes ----
  int64_t numel(const Dims &d) const {
    int64_t n = 1;
    for (const Dim &x : d)
      n *= x.size;
    return n;
  }
  Dim randomDim(bool allowSymbol);
  Dims randomDims(int rank, bool allowSymbol);
  static bool broadcastable(const Dims &a, const Dims &b);
  static Dims broadcast(const Dims &a, const Dims &b);
  /// A shape b broadcasts against: a suffix of `a` with some dims set to 1.
  Dims broadcastPartner(const Dims &a);

  // ---- emission ----
  std::string fresh(const std::string &base) { return base + "_" + std::to_string(counter_++); }
  Value &placeholder(DType dtype, const Dims &dims, bool allowOddLayout = true);
  Value &emit(const std::string &base, const std::string &target, const std::string &args,
              const std::vector<const Value *> &uses, Value result, const std::string &kwargs = "");
  /// A value of `v` with magnitude at most ~1 when v may be large (tanh for floats).
  const Value &tame(const Value &v, double limit);
  /// |v| + shift (a float value safe to divide by or take log/sqrt of).
  const Value &positive(const Value &v, double shift);
  const Value &castTo(const Value &v, DType dtype);
  std::string scalarFor(DType d) {
    if (isFloat(d))
      return pick(std::vector<std::string>{"0.5", "-1.5", "2.0", "0.25", "3.0"});
    return std::to_string(between(-3, 4));
  }

  // ---- op groups; each returns false when it does not apply to the drawn operands ----
  bool unary();
  bool binary();
  bool compare();
  bool where();
  bool cast();
  bool reduction();
  bool softmax();
  bool view();
  bool cat();
  bool matmul();

  /// A value, usually a recent one (so chains grow deep instead of many dead branches).
  const Value &anyValue() {
    if (chance(65))
      return values_[values_.size() - 1 - draw(std::min<size_t>(3, values_.size()))];
    return values_[draw(values_.size())];
  }
  const Value *valueWhere(const std::function<bool(const Value &)> &pred) {
    std::vector<size_t> ok;
    for (size_t i = 0; i < values_.size(); ++i)
      if (pred(values_[i]))
        ok.push_back(i);
    return ok.empty() ? nullptr : &values_[pick(ok)];
  }
  DType randomDType() {
    int r = static_cast<int>(draw(100));
    if (r < 60 || (!options_.float16 && r < 75))
      return DType::Float32;
    if (r < 75)
      return DType::Float16;
    if (r < 90)
      return DType::Int64;
    return DType::Bool;
  }

  std::mt19937_64 rng_;
  RandomGraphOptions options_;
  std::vector<std::string> placeholderLines_;
  std::vector<Call> calls_;
  // std::deque would keep references stable; values_ is reserved instead (see run()).
  std::vector<Value> values_;
  std::vector<std::string> symbols_;
  SymExpr::Bindings bindings_;
  int64_t placeholderElements_ = 0;
  int counter_ = 0;
};

Dim Generator::randomDim(bool allowSymbol) {
  Dim d;
  if (allowSymbol && options_.symbolic && chance(20)) {
    if (symbols_.empty() || (symbols_.size() < 3 && chance(40))) {
      std::string s = "s" + std::to_string(symbols_.size());
      symbols_.push_back(s);
      bindings_[s] = pick(std::vector<int64_t>{2, 3, 5, 6, 7});
    }
    d.sym = pick(symbols_);
    d.size = bindings_[d.sym];
    return d;
  }
  d.size = pick(std::vector<int64_t>{1, 1, 2, 3, 4, 5, 7, 8, 16});
  return d;
}

Dims Generator::randomDims(int rank, bool allowSymbol) {
  Dims d;
  for (int i = 0; i < rank; ++i)
    d.push_back(randomDim(allowSymbol));
  return d;
}

bool Generator::broadcastable(const Dims &a, const Dims &b) {
  size_t n = std::max(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    if (i >= a.size() || i >= b.size())
      continue;
    const Dim &x = a[a.size() - 1 - i], &y = b[b.size() - 1 - i];
    if (!(x == y || x.isOne() || y.isOne()))
      return false;
  }
  return true;
}

Dims Generator::broadcast(const Dims &a, const Dims &b) {
  size_t n = std::max(a.size(), b.size());
  Dims out(n);
  for (size_t i = 0; i < n; ++i) {
    const Dim *x = i < a.size() ? &a[a.size() - 1 - i] : nullptr;
    const Dim *y = i < b.size() ? &b[b.size() - 1 - i] : nullptr;
    out[n - 1 - i] = !x ? *y : !y ? *x : x->isOne() ? *y : *x;
  }
  return out;
}

Dims Generator::broadcastPartner(const Dims &a) {
  size_t drop = a.empty() ? 0 : draw(std::min<size_t>(a.size(), 2) + 1);
  Dims b(a.begin() + static_cast<std::ptrdiff_t>(drop), a.end());
  for (Dim &d : b)
    if (chance(30))
      d = Dim{};
  return b;
}

Value &Generator::placeholder(DType dtype, const Dims &dims, bool allowOddLayout) {
  Value v;
  v.name = fresh("arg");
  v.dtype = dtype;
  v.dims = dims;
  v.bound = isFloat(dtype) ? 5 : 9;
  TensorType t;
  t.dtype = dtype;
  for (const Dim &d : dims)
    t.sizes.push_back(d.sym.empty() ? SymExpr(d.size) : SymExpr::symbol(d.sym));
  t.strides = TensorType::contiguousStrides(t.sizes);
  int layout = allowOddLayout && dims.size() >= 1 ? static_cast<int>(draw(100)) : 0;
  if (layout >= 70 && dims.size() >= 2) {
    // Permuted: the strides of a row-major tensor of permuted sizes, put back in place.
    std::vector<size_t> perm(dims.size());
    for (size_t i = 0; i < perm.size(); ++i)
      perm[i] = i;
    for (size_t i = perm.size(); i > 1; --i)
      std::swap(perm[i - 1], perm[draw(i)]);
    std::vector<SymExpr> permuted;
    for (size_t p : perm)
      permuted.push_back(t.sizes[p]);
    std::vector<SymExpr> ps = TensorType::contiguousStrides(permuted);
    for (size_t i = 0; i < perm.size(); ++i)
      t.strides[perm[i]] = ps[i];
    v.contiguous = false;
  } else if (layout >= 55 && dims.back().sym.empty()) {
    // Gapped rows: the last dimension padded, as a slice of a wider tensor.
    std::vector<SymExpr> padded = t.sizes;
    padded.back() = SymExpr(dims.back().size + between(1, 3));
    t.strides = TensorType::contiguousStrides(padded);
    v.contiguous = false;
  } else if (layout >= 45) {
    // Broadcast inputs: size-1 dimensions with stride 0 are legal in PyTorch.
    for (size_t i = 0; i < dims.size(); ++i)
      if (dims[i].isOne())
        t.strides[i] = SymExpr(0);
  }
  for (SymExpr &s : t.strides)
    s = s.simplify();
  placeholderLines_.push_back("    %" + v.name + " : Tensor \"" + t.str() + "\"[num_users=@" +
                              v.name + "@] = placeholder[target=" + v.name + "]");
  placeholderElements_ += numel(dims);
  values_.push_back(std::move(v));
  return values_.back();
}

Value &Generator::emit(const std::string &base, const std::string &target, const std::string &args,
                       const std::vector<const Value *> &uses, Value result,
                       const std::string &kwargs) {
  Call c;
  c.name = fresh(base);
  c.target = target;
  c.args = args;
  c.kwargs = kwargs;
  for (const Value *u : uses)
    c.uses.push_back(u->name);
  result.name = c.name;
  calls_.push_back(std::move(c));
  values_.push_back(std::move(result));
  return values_.back();
}

const Value &Generator::tame(const Value &v, double limit) {
  if (v.bound <= limit)
    return v;
  if (!isFloat(v.dtype)) {
    // Integers: a comparison cast back to int64 keeps them small.
    const Value &cmp = emit("gt", "aten.gt.Scalar", "%" + v.name + ", 0", {&v},
                            Value{"", DType::Bool, v.dims, true, v.exact, 1});
    return emit("convert_element_type", "prims.convert_element_type.default",
                "%" + cmp.name + ", torch.int64", {&cmp},
                Value{"", DType::Int64, v.dims, true, cmp.exact, 1});
  }
  Value r = v;
  r.bound = 1;
  r.exact = false;
  r.contiguous = v.contiguous;
  return emit("tanh", "aten.tanh.default", "%" + v.name, {&v}, r);
}

const Value &Generator::positive(const Value &v, double shift) {
  Value a = v;
  a.exact = v.exact;
  const Value &abs = emit("abs", "aten.abs.default", "%" + v.name, {&v}, a);
  Value s = abs;
  s.bound = abs.bound + shift;
  s.exact = false;
  s.dtype = isFloat(abs.dtype) ? abs.dtype : DType::Float32;
  std::string shiftText = shift == 0 ? "0.0" : shift == 0.5 ? "0.5" : std::to_string(shift);
  return emit("add", "aten.add.Tensor", "%" + abs.name + ", " + shiftText, {&abs}, s);
}

const Value &Generator::castTo(const Value &v, DType dtype) {
  Value r = v;
  r.dtype = dtype;
  if (dtype == DType::Bool)
    r.bound = 1;
  return emit("convert_element_type", "prims.convert_element_type.default",
              "%" + v.name + ", " + torchDType(dtype), {&v}, r);
}

bool Generator::unary() {
  const Value &x = anyValue();
  if (x.dtype == DType::Bool)
    return false;
  struct U {
    const char *op;
    bool floatOnly;  ///< result is floating (int inputs promote to float32)
    bool keepsExact; ///< bit-exact on every backend
  };
  static const U kOps[] = {
      {"relu", false, true},       {"neg", false, true},  {"abs", false, true},
      {"sigmoid", true, false},    {"tanh", true, false}, {"erf", true, false},
      {"exp", true, false},        {"log", true, false},  {"cos", true, false},
      {"sin", true, false},        {"sqrt", true, false}, {"rsqrt", true, false},
      {"reciprocal", true, false}, {"gelu", true, false}, {"clone", false, true}};
  const U &u = kOps[draw(std::size(kOps))];
  std::string op = u.op;
  const Value *in = &x;
  if (op == "exp")
    in = &tame(x, 4);
  if (op == "log" || op == "sqrt" || op == "rsqrt" || op == "reciprocal")
    in = &positive(x, op == "sqrt" ? 0.0 : 0.5);
  Value r = *in;
  r.dtype = u.floatOnly && !isFloat(in->dtype) ? DType::Float32 : in->dtype;
  r.exact = u.keepsExact && in->exact;
  r.bound = op == "exp"          ? std::exp(in->bound)
            : op == "log"        ? in->bound + 1
            : op == "sqrt"       ? std::sqrt(in->bound) + 1
            : op == "rsqrt"      ? 1.5
            : op == "reciprocal" ? 2
            : u.floatOnly        ? std::max(1.0, op == "gelu" ? in->bound : 1.0)
                                 : in->bound;
  if (op != "clone" && op != "neg" && op != "abs" && op != "relu")
    r.contiguous = in->contiguous; // pointwise results follow their input's layout
  std::string kwargs = op == "gelu" && chance(50) ? "approximate: tanh" : "";
  return emit(op, "aten." + op + ".default", "%" + in->name, {in}, r, kwargs), true;
}

bool Generator::binary() {
  const Value &a0 = anyValue();
  if (a0.dtype == DType::Bool)
    return false;
  static const char *kOps[] = {"add", "sub", "mul", "div", "maximum", "minimum", "pow"};
  std::string op = kOps[draw(std::size(kOps))];
  const Value *a = &a0;
  if (op == "mul" || op == "pow")
    a = &tame(a0, op == "pow" ? 3 : 30);
  // The other operand: a scalar, an existing value that broadcasts, or a new input.
  bool scalar = op != "maximum" && op != "minimum" && chance(30);
  if (op == "pow")
    scalar = true;
  if (scalar) {
    std::string s =
        op == "pow" ? pick(std::vector<std::string>{"2", "3", "2.0", "0.5"}) : scalarFor(a->dtype);
    if (op == "pow" && s == "0.5")
      a = &positive(*a, 0.0);
    if (op == "div" && (s == "0" || s == "0.0"))
      s = "2";
    bool floatScalar = s.find('.') != std::string::npos;
    Value r = *a;
    r.dtype = (op == "div" || floatScalar) && !isFloat(a->dtype) ? DType::Float32 : a->dtype;
    double sv = std::abs(std::stod(s));
    r.bound = op == "pow"   ? std::pow(a->bound, sv) + 1
              : op == "mul" ? a->bound * sv
              : op == "div" ? a->bound / std::max(sv, 0.25)
                            : a->bound + sv;
    r.exact = a->exact && (op == "add" || op == "sub") && !isFloat(r.dtype);
    std::string target = "aten." + op + (op == "pow" ? ".Tensor_Scalar" : ".Tensor");
    std::string kwargs = (op == "add" || op == "sub") && chance(20) ? "alpha: 2" : "";
    if (!kwargs.empty())
      r.bound += sv;
    return emit(op, target, "%" + a->name + ", " + s, {a}, r, kwargs), true;
  }
  const Value *b = valueWhere([&](const Value &v) {
    return &v != a && v.dtype != DType::Bool && broadcastable(a->dims, v.dims) &&
           (isFloat(v.dtype) == isFloat(a->dtype) || chance(30));
  });
  if (!b || chance(30))
    b = &placeholder(chance(80)                      ? a->dtype
                     : randomDType() == DType::Int64 ? DType::Int64
                                                     : a->dtype,
                     broadcastPartner(a->dims));
  if (b->dtype == DType::Bool)
    return false;
  if (op == "mul")
    b = &tame(*b, 30);
  if (op == "div")
    b = &positive(*b, 0.5);
  bool swap = op != "div" && chance(50);
  const Value *lhs = swap ? b : a, *rhs = swap ? a : b;
  Value r;
  r.dims = broadcast(lhs->dims, rhs->dims);
  // Type promotion of two tensors of the categories generated here. A 0-d tensor takes part
  // only with a higher category than the other's (int64[4] * f32[] is f32, f16[4] * f32[] f16).
  bool anyFloat = isFloat(lhs->dtype) || isFloat(rhs->dtype);
  bool lhs0 = lhs->dims.empty(), rhs0 = rhs->dims.empty();
  if (lhs0 != rhs0) {
    const Value &dimensioned = lhs0 ? *rhs : *lhs, &zero = lhs0 ? *lhs : *rhs;
    r.dtype = isFloat(dimensioned.dtype) || !isFloat(zero.dtype) ? dimensioned.dtype : zero.dtype;
  } else if (!anyFloat) {
    r.dtype = DType::Int64;
  } else if (lhs->dtype == DType::Float32 || rhs->dtype == DType::Float32) {
    r.dtype = DType::Float32;
  } else {
    r.dtype = DType::Float16;
  }
  if (op == "div" && !anyFloat)
    r.dtype = DType::Float32;
  r.bound = op == "mul"   ? lhs->bound * rhs->bound
            : op == "div" ? lhs->bound / 0.5
                          : lhs->bound + rhs->bound;
  if (op == "maximum" || op == "minimum")
    r.bound = std::max(lhs->bound, rhs->bound);
  bool exactOp = op == "maximum" || op == "minimum" || ((op == "add" || op == "sub") && !anyFloat);
  r.exact = exactOp && lhs->exact && rhs->exact && lhs->dtype == rhs->dtype;
  r.contiguous = lhs->contiguous && rhs->contiguous && lhs->dims == r.dims && rhs->dims == r.dims;
  std::string overload = op == "maximum" || op == "minimum" ? ".default" : ".Tensor";
  return emit(op, "aten." + op + overload, "%" + lhs->name + ", %" + rhs->name, {lhs, rhs}, r),
         true;
}

bool Generator::compare() {
  const Value *a = valueWhere([](const Value &v) { return v.exact && v.dtype != DType::Bool; });
  if (!a)
    return false;
  static const char *kOps[] = {"lt", "le", "gt", "ge", "eq", "ne"};
  std::string op = kOps[draw(std::size(kOps))];
  Value r = *a;
  r.dtype = DType::Bool;
  r.bound = 1;
  if (chance(50)) {
    std::string s = isFloat(a->dtype) ? scalarFor(a->dtype) : std::to_string(between(0, 9));
    return emit(op, "aten." + op + ".Scalar", "%" + a->name + ", " + s, {a}, r), true;
  }
  const Value *b = valueWhere([&](const Value &v) {
    return &v != a && v.exact && v.dtype == a->dtype && broadcastable(a->dims, v.dims);
  });
  if (!b)
    b = &placeholder(a->dtype, broadcastPartner(a->dims));
  r.dims = broadcast(a->dims, b->dims);
  r.contiguous = a->contiguous && b->contiguous && a->dims == r.dims && b->dims == r.dims;
  return emit(op, "aten." + op + ".Tensor", "%" + a->name + ", %" + b->name, {a, b}, r), true;
}

bool Generator::where() {
  const Value &x = anyValue();
  if (x.dtype == DType::Bool)
    return false;
  const Value *cond = valueWhere(
      [&](const Value &v) { return v.dtype == DType::Bool && broadcastable(x.dims, v.dims); });
  if (!cond) {
    const Value *c = valueWhere([&](const Value &v) {
      return v.exact && v.dtype != DType::Bool && broadcastable(x.dims, v.dims);
    });
    if (!c)
      c = &placeholder(chance(50) ? DType::Int64 : DType::Float32, broadcastPartner(x.dims));
    Value r = *c;
    r.dtype = DType::Bool;
    r.bound = 1;
    cond = &emit("gt", "aten.gt.Scalar", "%" + c->name + ", " + (isFloat(c->dtype) ? "0.0" : "4"),
                 {c}, r);
  }
  Value r = x;
  r.dims = broadcast(x.dims, cond->dims);
  const Value *other = valueWhere([&](const Value &v) {
    return &v != &x && v.dtype == x.dtype && broadcastable(r.dims, v.dims);
  });
  std::string otherText;
  std::vector<const Value *> uses = {cond, &x};
  if (other && chance(60)) {
    r.dims = broadcast(r.dims, other->dims);
    r.bound = std::max(x.bound, other->bound);
    r.exact = x.exact && other->exact;
    otherText = "%" + other->name;
    uses.push_back(other);
  } else {
    otherText = scalarFor(x.dtype);
    r.bound = x.bound + 3;
  }
  r.contiguous = false;
  bool swap = chance(50);
  std::string args = "%" + cond->name + ", " +
                     (swap ? otherText + ", %" + x.name : "%" + x.name + ", " + otherText);
  return emit("where", "aten.where.self", args, uses, r), true;
}

bool Generator::cast() {
  const Value &x = anyValue();
  std::vector<DType> targets = {DType::Float32, DType::Int64, DType::Bool};
  if (options_.float16)
    targets.push_back(DType::Float16);
  DType to = pick(targets);
  if (to == x.dtype)
    return false;
  // A float that is not computed bit-exactly may round differently to an integer or a bool.
  if (isFloat(x.dtype) && !isFloat(to) && !x.exact)
    return false;
  // float32 values above float16's range become inf in one backend and not in another only
  // when they differ; keep it simple and tame first.
  const Value *in = &x;
  if (to == DType::Float16 && x.bound > 1000)
    in = &tame(x, 1000);
  Value r = *in;
  r.dtype = to;
  r.exact = in->exact || to == DType::Bool ? in->exact : false;
  if (to == DType::Float16 && x.dtype == DType::Float32)
    r.exact = in->exact; // rounding the same float32 value is deterministic
  if (to == DType::Bool)
    r.bound = 1;
  return emit("convert_element_type", "prims.convert_element_type.default",
              "%" + in->name + ", " + torchDType(to), {in}, r),
         true;
}

bool Generator::reduction() {
  const Value &x0 = anyValue();
  static const char *kOps[] = {"sum", "mean", "amax", "amin", "var_mean"};
  std::string op = kOps[draw(std::size(kOps))];
  if ((op == "mean" || op == "var_mean") && !isFloat(x0.dtype))
    return false;
  if (x0.dtype == DType::Bool && op != "sum")
    return false;
  const Value *x = &x0;
  if (op == "sum" || op == "mean" || op == "var_mean")
    x = &tame(x0, 100);
  size_t rank = x->dims.size();
  // Dims: a random non-empty subset (sometimes written negative), or all.
  std::vector<int64_t> dims;
  for (size_t i = 0; i < rank; ++i)
    if (chance(45))
      dims.push_back(static_cast<int64_t>(i));
  if (dims.empty() && rank > 0)
    dims.push_back(static_cast<int64_t>(draw(rank)));
  bool all = rank == 0 || (chance(10) && op != "amax" && op != "amin");
  bool keepdim = chance(50);
  Value r = *x;
  r.contiguous = true;
  r.exact = (op == "amax" || op == "amin") && x->exact;
  if (x->dtype == DType::Bool)
    r.dtype = DType::Int64;
  int64_t reduced = 1;
  Dims out;
  for (size_t i = 0; i < rank; ++i) {
    bool red = all || std::find(dims.begin(), dims.end(), static_cast<int64_t>(i)) != dims.end();
    if (red)
      reduced *= x->dims[i].size;
    if (!red)
      out.push_back(x->dims[i]);
    else if (keepdim && !all)
      out.push_back(Dim{});
  }
  r.dims = out;
  if (op == "sum")
    r.bound = x->bound * static_cast<double>(reduced);
  std::string dimList = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    dimList += (i ? ", " : "") +
               std::to_string(chance(25) ? dims[i] - static_cast<int64_t>(rank) : dims[i]);
  dimList += "]";
  std::string keep = keepdim ? "True" : "False";
  if (op == "var_mean") {
    int correction = static_cast<int>(draw(2));
    // var_mean(x, None) reduces everything; keepdim keeps every dimension as 1.
    std::string dimArg = all ? "None" : dimList;
    if (all && keepdim)
      r.dims = Dims(x->dims.size(), Dim{});
    const Value &vm =
        emit("var_mean", "aten.var_mean.correction", "%" + x->name + ", " + dimArg, {x}, r,
             "correction: " + std::to_string(correction) + ", keepdim: " + keep);
    Value item = vm;
    // The tuple node is not a tensor; only its getitems enter the value pool.
    std::string tuple = vm.name;
    values_.pop_back();
    item.bound = x->bound * x->bound + 1;
    const Value &var = emit("getitem", "operator.getitem", "%" + tuple + ", 0", {}, item);
    calls_.back().uses.push_back(tuple);
    item.bound = x->bound;
    emit("getitem", "operator.getitem", "%" + tuple + ", 1", {}, item);
    calls_.back().uses.push_back(tuple);
    (void)var;
    return true;
  }
  if (all) {
    if (op == "amax" || op == "amin")
      return false;
    r.dims.clear();
    return emit(op, "aten." + op + ".default", "%" + x->name, {x}, r), true;
  }
  std::string target = op == "sum"    ? "aten.sum.dim_IntList"
                       : op == "mean" ? "aten.mean.dim"
                                      : "aten." + op + ".default";
  return emit(op, target, "%" + x->name + ", " + dimList + ", " + keep, {x}, r), true;
}

bool Generator::softmax() {
  const Value *x = valueWhere([](const Value &v) { return isFloat(v.dtype) && !v.dims.empty(); });
  if (!x)
    return false;
  bool upcast = x->dtype == DType::Float16 && chance(70);
  if (upcast)
    x = &castTo(*x, DType::Float32);
  int64_t d = static_cast<int64_t>(draw(x->dims.size()));
  if (chance(30))
    d -= static_cast<int64_t>(x->dims.size());
  std::string dim = "[" + std::to_string(d) + "]";
  Value kept = *x;
  kept.dims[static_cast<size_t>(d < 0 ? d + static_cast<int64_t>(x->dims.size()) : d)] = Dim{};
  kept.contiguous = true;
  kept.exact = x->exact;
  const Value &amax =
      emit("amax", "aten.amax.default", "%" + x->name + ", " + dim + ", True", {x}, kept);
  Value full = *x;
  full.exact = false;
  full.bound = 2 * x->bound;
  const Value &sub =
      emit("sub", "aten.sub.Tensor", "%" + x->name + ", %" + amax.name, {x, &amax}, full);
  full.bound = 1;
  const Value &exp = emit("exp", "aten.exp.default", "%" + sub.name, {&sub}, full);
  kept.exact = false;
  kept.bound = static_cast<double>(std::max<int64_t>(1, numel(x->dims)));
  const Value &sum =
      emit("sum", "aten.sum.dim_IntList", "%" + exp.name + ", " + dim + ", True", {&exp}, kept);
  const Value *result;
  if (chance(50)) {
    result = &emit("div", "aten.div.Tensor", "%" + exp.name + ", %" + sum.name, {&exp, &sum}, full);
  } else {
    kept.bound = 10;
    const Value &log = emit("log", "aten.log.default", "%" + sum.name, {&sum}, kept);
    full.bound = 2 * x->bound + 10;
    result = &emit("sub", "aten.sub.Tensor", "%" + sub.name + ", %" + log.name, {&sub, &log}, full);
  }
  if (upcast)
    castTo(*result, DType::Float16);
  return true;
}

bool Generator::view() {
  const Value &x = anyValue();
  size_t rank = x.dims.size();
  int kind = static_cast<int>(draw(8));
  Value r = x;
  std::string args;
  switch (kind) {
  case 0: { // permute
    if (rank < 2)
      return false;
    std::vector<size_t> perm(rank);
    for (size_t i = 0; i < rank; ++i)
      perm[i] = i;
    for (size_t i = rank; i > 1; --i)
      std::swap(perm[i - 1], perm[draw(i)]);
    args = "%" + x.name + ", [";
    for (size_t i = 0; i < rank; ++i) {
      r.dims[i] = x.dims[perm[i]];
      args += (i ? ", " : "") + std::to_string(perm[i]);
    }
    args += "]";
    r.contiguous = false;
    return emit("permute", "aten.permute.default", args, {&x}, r), true;
  }
  case 1: { // transpose (PyTorch's aten graphs spell it as a permute)
    if (rank < 2)
      return false;
    size_t i = draw(rank), j = draw(rank);
    if (i == j)
      j = (i + 1) % rank;
    std::vector<size_t> perm(rank);
    for (size_t k = 0; k < rank; ++k)
      perm[k] = k;
    std::swap(perm[i], perm[j]);
    args = "%" + x.name + ", [";
    for (size_t k = 0; k < rank; ++k) {
      r.dims[k] = x.dims[perm[k]];
      args += (k ? ", " : "") + std::to_string(perm[k]);
    }
    args += "]";
    r.contiguous = false;
    return emit("permute", "aten.permute.default", args, {&x}, r), true;
  }
  case 2: { // unsqueeze
    if (rank >= 5)
      return false;
    int64_t d = between(0, static_cast<int64_t>(rank));
    r.dims.insert(r.dims.begin() + d, Dim{});
    if (chance(30))
      d -= static_cast<int64_t>(rank) + 1;
    return emit("unsqueeze", "aten.unsqueeze.default", "%" + x.name + ", " + std::to_string(d),
                {&x}, r),
           true;
  }
  case 3: { // squeeze a size-1 dim
    std::vector<size_t> ones;
    for (size_t i = 0; i < rank; ++i)
      if (x.dims[i].isOne())
        ones.push_back(i);
    if (ones.empty())
      return false;
    size_t d = pick(ones);
    r.dims.erase(r.dims.begin() + static_cast<std::ptrdiff_t>(d));
    return emit("squeeze", "aten.squeeze.dim", "%" + x.name + ", " + std::to_string(d), {&x}, r),
           true;
  }
  case 4: { // expand size-1 dims (and maybe a new leading dim)
    Dims out;
    std::vector<std::string> sizes;
    bool lead = rank < 4 && chance(30);
    if (lead) {
      out.push_back(Dim{between(2, 3), ""});
      sizes.push_back(std::to_string(out.back().size));
    }
    bool changed = lead;
    for (size_t i = 0; i < rank; ++i) {
      if (x.dims[i].isOne() && chance(70)) {
        out.push_back(Dim{between(2, 5), ""});
        sizes.push_back(std::to_string(out.back().size));
        changed = true;
      } else {
        out.push_back(x.dims[i]);
        sizes.push_back("-1");
      }
    }
    if (!changed || numel(out) > 4096)
      return false;
    args = "%" + x.name + ", [";
    for (size_t i = 0; i < sizes.size(); ++i)
      args += (i ? ", " : "") + sizes[i];
    args += "]";
    r.dims = out;
    r.contiguous = false;
    return emit("expand", "aten.expand.default", args, {&x}, r), true;
  }
  case 5: { // select
    std::vector<size_t> ok;
    for (size_t i = 0; i < rank; ++i)
      if (x.dims[i].sym.empty())
        ok.push_back(i);
    if (ok.empty())
      return false;
    size_t d = pick(ok);
    int64_t index = between(-x.dims[d].size, x.dims[d].size - 1);
    r.dims.erase(r.dims.begin() + static_cast<std::ptrdiff_t>(d));
    r.contiguous = x.contiguous && d == 0;
    return emit("select", "aten.select.int",
                "%" + x.name + ", " + std::to_string(d) + ", " + std::to_string(index), {&x}, r),
           true;
  }
  case 6: { // slice, as split + getitem
    std::vector<size_t> ok;
    for (size_t i = 0; i < rank; ++i)
      if (x.dims[i].sym.empty() && x.dims[i].size >= 2)
        ok.push_back(i);
    if (ok.empty())
      return false;
    size_t d = pick(ok);
    int64_t n = x.dims[d].size;
    int64_t split = between(1, n - 1);
    int64_t pieces = (n + split - 1) / split;
    int64_t which = between(0, pieces - 1);
    Value tuple = x;
    const Value &sp =
        emit("split", "aten.split.Tensor",
             "%" + x.name + ", " + std::to_string(split) + ", " + std::to_string(d), {&x}, tuple);
    std::string spName = sp.name;
    values_.pop_back(); // a list, not a tensor
    r.dims[d].size = std::min(split, n - which * split);
    r.contiguous = x.contiguous && (d == 0 || r.dims[d].size == n);
    emit("getitem", "operator.getitem", "%" + spName + ", " + std::to_string(which), {}, r);
    calls_.back().uses.push_back(spName);
    return true;
  }
  default: { // view / reshape: regroup the concrete dims, a symbolic dim stays as -1
    int symbolic = 0;
    for (const Dim &d : x.dims)
      symbolic += !d.sym.empty();
    if (symbolic > 1)
      return false;
    // Prime factors of the concrete product, regrouped at random.
    int64_t product = 1;
    for (const Dim &d : x.dims)
      if (d.sym.empty())
        product *= d.size;
    std::vector<int64_t> factors;
    for (int64_t p = 2, n = product; n > 1;) {
      if (n % p == 0) {
        factors.push_back(p);
        n /= p;
      } else {
        ++p;
      }
    }
    for (size_t i = factors.size(); i > 1; --i)
      std::swap(factors[i - 1], factors[draw(i)]);
    Dims out;
    for (int64_t f : factors) {
      if (!out.empty() && chance(50))
        out.back().size *= f;
      else
        out.push_back(Dim{f, ""});
    }
    while (chance(20) && out.size() < 4)
      out.insert(out.begin() + static_cast<std::ptrdiff_t>(draw(out.size() + 1)), Dim{});
    if (symbolic) {
      for (const Dim &d : x.dims)
        if (!d.sym.empty())
          out.insert(out.begin() + static_cast<std::ptrdiff_t>(draw(out.size() + 1)), d);
    }
    bool useView = x.contiguous && chance(60);
    args = "%" + x.name + ", [";
    for (size_t i = 0; i < out.size(); ++i)
      args += (i ? ", " : "") + (out[i].sym.empty() ? std::to_string(out[i].size) : "-1");
    args += "]";
    r.dims = out;
    // reshape returns a view where the strides allow one (then as strided as its input).
    r.contiguous = x.contiguous;
    std::string op = useView ? "view" : "reshape";
    return emit(op, "aten." + op + ".default", args, {&x}, r), true;
  }
  }
}

bool Generator::cat() {
  const Value &x = anyValue();
  std::vector<size_t> ok;
  for (size_t i = 0; i < x.dims.size(); ++i)
    if (x.dims[i].sym.empty())
      ok.push_back(i);
  if (ok.empty())
    return false;
  size_t d = pick(ok);
  std::vector<const Value *> parts = {&x};
  // Existing values of the same dtype and the same sizes off the cat dim, or new inputs.
  int more = static_cast<int>(between(1, 2));
  for (int k = 0; k < more; ++k) {
    const Value *y = valueWhere([&](const Value &v) {
      if (v.dtype != x.dtype || v.dims.size() != x.dims.size() || !v.dims[d].sym.empty())
        return false;
      for (size_t i = 0; i < v.dims.size(); ++i)
        if (i != d && !(v.dims[i] == x.dims[i]))
          return false;
      return true;
    });
    if (!y || chance(40)) {
      Dims dims = x.dims;
      dims[d] = Dim{between(1, 4), ""};
      y = &placeholder(x.dtype, dims);
    }
    parts.insert(parts.begin() + static_cast<std::ptrdiff_t>(draw(parts.size() + 1)), y);
  }
  Value r = x;
  r.dims[d].size = 0;
  std::string args = "[";
  for (size_t i = 0; i < parts.size(); ++i) {
    r.dims[d].size += parts[i]->dims[d].size;
    r.bound = std::max(r.bound, parts[i]->bound);
    r.exact = r.exact && parts[i]->exact;
    args += (i ? ", %" : "%") + parts[i]->name;
  }
  args += "], " + std::to_string(chance(30)
                                     ? static_cast<int64_t>(d) - static_cast<int64_t>(x.dims.size())
                                     : static_cast<int64_t>(d));
  r.contiguous = true;
  return emit("cat", "aten.cat.default", args, parts, r), true;
}

bool Generator::matmul() {
  if (!options_.matmul)
    return false;
  int kind = static_cast<int>(draw(3)); // mm, addmm, bmm
  size_t rank = kind == 2 ? 3 : 2;
  const Value *a = valueWhere(
      [&](const Value &v) { return v.dtype == DType::Float32 && v.dims.size() == rank; });
  if (!a || chance(25))
    a = &placeholder(DType::Float32, randomDims(static_cast<int>(rank), true));
  a = &tame(*a, 10);
  Dim k = a->dims.back();
  Dim n = randomDim(true);
  Dims bdims = kind == 2 ? Dims{a->dims[0], k, n} : Dims{k, n};
  const Value *b = valueWhere([&](const Value &v) {
    return v.dtype == DType::Float32 && v.dims.size() == rank && v.dims[rank - 2] == k &&
           (rank == 2 || v.dims[0] == a->dims[0]) && v.bound <= 10;
  });
  if (!b || chance(50))
    b = &placeholder(DType::Float32, bdims);
  Value r;
  r.dtype = DType::Float32;
  r.dims = kind == 2 ? Dims{a->dims[0], a->dims[1], b->dims[2]} : Dims{a->dims[0], b->dims[1]};
  r.exact = false;
  r.contiguous = true;
  r.bound = a->bound * b->bound * static_cast<double>(k.size);
  if (kind == 0)
    return emit("mm", "aten.mm.default", "%" + a->name + ", %" + b->name, {a, b}, r), true;
  if (kind == 2)
    return emit("bmm", "aten.bmm.default", "%" + a->name + ", %" + b->name, {a, b}, r), true;
  Dims biasDims = chance(50) ? Dims{r.dims[1]} : chance(50) ? Dims{Dim{}, r.dims[1]} : r.dims;
  const Value &bias = placeholder(DType::Float32, biasDims);
  std::string kwargs = chance(30) ? "beta: 0.5, alpha: 2" : "";
  r.bound = r.bound * 2 + bias.bound;
  return emit("addmm", "aten.addmm.default", "%" + bias.name + ", %" + a->name + ", %" + b->name,
              {&bias, a, b}, r, kwargs),
         true;
}

RandomGraph Generator::run(uint64_t seed) {
  // Values are referred to by address while later ones are added: no reallocation.
  values_.reserve(4096);
  int inputs = static_cast<int>(between(1, 3));
  for (int i = 0; i < inputs; ++i) {
    Dims dims = randomDims(static_cast<int>(between(0, 4)), true);
    while (numel(dims) > 512 && !dims.empty())
      dims.pop_back();
    placeholder(randomDType(), dims);
  }
  int ops = static_cast<int>(between(options_.minOps, options_.maxOps));
  int done = 0;
  for (int attempts = 0; done < ops && attempts < ops * 20; ++attempts) {
    if (placeholderElements_ > options_.maxPlaceholderElements || values_.size() > 200)
      break;
    int r = static_cast<int>(draw(100));
    bool ok = r < 16   ? unary()
              : r < 34 ? binary()
              : r < 40 ? compare()
              : r < 46 ? where()
              : r < 52 ? cast()
              : r < 64 ? reduction()
              : r < 68 ? softmax()
              : r < 86 ? view()
              : r < 92 ? cat()
                       : matmul();
    done += ok;
  }
  // Outputs: the last value, every other computed value nobody uses (up to 4), and sometimes
  // a random one (an input, a view, the same value twice).
  std::set<std::string> used;
  for (const Call &c : calls_)
    for (const std::string &u : c.uses)
      used.insert(u);
  std::vector<std::string> outputs = {values_.back().name};
  for (const Call &c : calls_)
    if (!used.count(c.name) && c.name != outputs[0] && outputs.size() < 5 &&
        c.target != "aten.split.Tensor" && c.target != "aten.var_mean.correction")
      outputs.push_back(c.name);
  if (chance(30))
    outputs.push_back(anyValue().name);
  RandomGraph g;
  g.seed = seed;
  g.symbols = bindings_;
  std::map<std::string, int> users;
  for (const Call &c : calls_)
    for (const std::string &u : c.uses)
      ++users[u];
  for (const std::string &o : outputs)
    ++users[o];
  std::string text = "graph():\n";
  for (std::string line : placeholderLines_) {
    size_t at = line.find("@");
    size_t end = line.find("@", at + 1);
    std::string name = line.substr(at + 1, end - at - 1);
    line.replace(at, end - at + 1, std::to_string(users[name]));
    text += line + "\n";
  }
  for (const Call &c : calls_) {
    std::string target = c.target.rfind("operator.", 0) == 0 ? c.target : "torch.ops." + c.target;
    text += "    %" + c.name + " : [num_users=" + std::to_string(users[c.name]) +
            "] = call_function[target=" + target + "](args = (" + c.args +
            (c.args.find(',') == std::string::npos ? "," : "") + "), kwargs = {" + c.kwargs +
            "})\n";
  }
  text += "    return (";
  for (size_t i = 0; i < outputs.size(); ++i)
    text += (i ? ", " : "") + outputs[i];
  text += outputs.size() == 1 ? ",)\n" : ")\n";
  g.fxText = std::move(text);
  return g;
}

} // namespace

RandomGraph generateRandomGraph(uint64_t seed, const RandomGraphOptions &options) {
  Generator gen(seed, options);
  return gen.run(seed);
}

} // namespace fxkit::testing
