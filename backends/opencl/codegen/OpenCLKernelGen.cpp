#include "backends/opencl/codegen/OpenCLKernelGen.h"
#include "backends/opencl/codegen/KernelPlan.h"
#include "backends/opencl/codegen/LaunchConstants.h"
#include "backends/opencl/codegen/PreludeCL.h"
#include "backends/opencl/codegen/SpecialMathCL.h"
#include "ir/TextTemplate.h"
#include "ir/Try.h"

#include "ir/loop/KernelPlacement.h"
#include "ir/ops/ShapeRules.h"
#include "transforms/SizeArgs.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

namespace fxkit::opencl {

using namespace loop;

namespace {

/// The OpenCL C type a value of `dtype` is computed in.
Expected<std::string> computeType(DType dtype) {
  switch (dtype) {
  case DType::Float32:
  case DType::Float16:
  case DType::BFloat16:
    return std::string("float");
  case DType::Float64:
    return std::string("double");
  case DType::Int64:
    return std::string("long");
  case DType::Int32:
    return std::string("int");
  case DType::Int16:
    return std::string("short");
  case DType::Int8:
    return std::string("char");
  case DType::UInt8:
    return std::string("uchar");
  case DType::Bool:
    return std::string("bool");
  default:
    return Error("dtype " + std::string(dtypeName(dtype)) + " has no OpenCL form");
  }
}

/// The OpenCL C type a value of `dtype` is stored as.
std::string storageType(DType dtype) {
  switch (dtype) {
  case DType::Float16:
    return "half";
  case DType::BFloat16:
    return "ushort";
  case DType::Bool:
    return "uchar";
  default: {
    auto t = computeType(dtype);
    return t ? *t : "uchar";
  }
  }
}

bool isFloatCompute(DType dtype) {
  return dtype == DType::Float32 || dtype == DType::Float16 || dtype == DType::BFloat16;
}

/// C spelling of a floating constant in `dtype`'s compute type.
std::string floatLiteral(double v, DType dtype) {
  bool isDouble = dtype == DType::Float64;
  if (std::isnan(v))
    return isDouble ? "(double)NAN" : "NAN";
  if (std::isinf(v))
    return std::string(v < 0 ? "-" : "") + (isDouble ? "(double)INFINITY" : "INFINITY");
  char buf[64];
  std::snprintf(buf, sizeof buf, isDouble ? "%.17g" : "%.9g", v);
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos)
    s += ".0";
  return isDouble ? s : s + "f";
}

/// The largest or smallest value of an OpenCL integer compute type: the identities of max and
/// min reductions.
std::string integerLimit(const std::string &type, bool largest) {
  static const std::map<std::string, std::pair<const char *, const char *>> limits = {
      {"long", {"LONG_MIN", "LONG_MAX"}},   {"int", {"INT_MIN", "INT_MAX"}},
      {"short", {"SHRT_MIN", "SHRT_MAX"}},  {"char", {"CHAR_MIN", "CHAR_MAX"}},
      {"uchar", {"(uchar)0", "UCHAR_MAX"}}, {"bool", {"false", "true"}}};
  auto it = limits.find(type);
  if (it == limits.end())
    return "(" + type + ")0";
  return largest ? it->second.second : it->second.first;
}

std::string intLiteral(int64_t v) {
  if (v == INT64_MIN)
    return "LONG_MIN";
  std::string s = std::to_string(v);
  if (v > INT32_MAX || v < INT32_MIN)
    s += "L";
  return s;
}

/// Prints SymExprs as OpenCL C integer arithmetic over fx_index_t, with Python's floor
/// division and modulo, and collects the size symbols they use.
class IndexPrinter {
public:
  /// Loop variables and other names defined in the kernel body, not passed as arguments.
  std::set<std::string> localNames;
  /// Size symbols used (kernel arguments).
  std::set<std::string> sizeSymbols;

  Expected<std::string> print(const SymExpr &e) {
    std::string out;
    if (Status s = emit(e, 0, out); !s)
      return s.takeError();
    return out;
  }

  /// The variables `name(d)` of the flat index `flat` over `sizes` (row-major, the last
  /// fastest) as statements `const fx_index_t v = (flat / (stride)) % (size);`, outermost
  /// first: the one home of unflattening (rows, reduced points, scans, reshaped ops). Every
  /// size is printed, so its symbols become kernel arguments.
  Expected<std::vector<std::string>> unflatten(const std::vector<SymExpr> &sizes,
                                               const std::string &flat,
                                               const std::function<std::string(size_t)> &name) {
    SymExpr stride = 1;
    std::vector<std::string> decls(sizes.size());
    for (size_t d = sizes.size(); d-- > 0;) {
      auto div = print(stride);
      if (!div)
        return div.takeError();
      auto mod = print(sizes[d]);
      if (!mod)
        return mod.takeError();
      std::string e = flat;
      if (!(stride.isConstant() && stride.constant() == 1))
        e = "(" + e + " / (" + *div + "))";
      if (d > 0)
        e += " % (" + *mod + ")";
      decls[d] = "const fx_index_t " + name(d) + " = " + e + ";";
      stride = symMul(stride, sizes[d]).simplify();
    }
    return decls;
  }

private:
  static int precedence(const SymExpr &e) {
    switch (e.kind()) {
    case SymExpr::Kind::Add:
    case SymExpr::Kind::Sub:
      return 1;
    case SymExpr::Kind::Mul:
      return 2;
    case SymExpr::Kind::Neg:
      return 3;
    case SymExpr::Kind::Paren:
      return precedence(e.operands()[0]);
    default:
      return 4;
    }
  }

  Status call(const char *fn, std::span<const SymExpr> args, std::string &out) {
    out += fn;
    out += "(";
    for (size_t i = 0; i < args.size(); ++i) {
      if (i)
        out += ", ";
      if (Status s = emit(args[i], 0, out); !s)
        return s;
    }
    out += ")";
    return Status::ok();
  }

  /// `Rounding(a / b)` of integers as (fx_floordiv | fx_ceildiv | fx_truncdiv, {a, b}).
  static std::optional<std::pair<const char *, std::vector<SymExpr>>>
  roundedQuotient(const SymExpr &e) {
    if (e.kind() != SymExpr::Kind::Call || e.operands().size() != 1)
      return std::nullopt;
    std::string_view n = e.name();
    const char *fn = n == "CeilToInt" || n == "math.ceil" || n == "ceiling"   ? "fx_ceildiv"
                     : n == "FloorToInt" || n == "math.floor" || n == "floor" ? "fx_floordiv"
                     : n == "TruncToInt" || n == "math.trunc"                 ? "fx_truncdiv"
                                                                              : nullptr;
    SymExpr q = e.operands()[0];
    while (q.kind() == SymExpr::Kind::Paren)
      q = q.operands()[0];
    bool quotient =
        q.kind() == SymExpr::Kind::TrueDiv ||
        (q.kind() == SymExpr::Kind::Call && q.name() == "IntTrueDiv" && q.operands().size() == 2);
    if (!fn || !quotient || q.operands()[0].type() != SymExpr::Type::Int ||
        q.operands()[1].type() != SymExpr::Type::Int)
      return std::nullopt;
    return std::make_pair(fn, std::vector<SymExpr>(q.operands().begin(), q.operands().end()));
  }

  Status emit(const SymExpr &e, int minPrec, std::string &out) {
    if (e.isConstant()) {
      if (e.constant() < 0 && minPrec > 1) {
        out += "(" + intLiteral(e.constant()) + ")";
        return Status::ok();
      }
      out += intLiteral(e.constant());
      return Status::ok();
    }
    auto ops = e.operands();
    bool paren = precedence(e) < minPrec;
    if (paren)
      out += "(";
    Status status = Status::ok();
    switch (e.kind()) {
    case SymExpr::Kind::Symbol: {
      std::string name(e.name());
      if (!localNames.count(name))
        sizeSymbols.insert(name);
      out += name;
      break;
    }
    case SymExpr::Kind::Add:
    case SymExpr::Kind::Sub:
      if (Status s = emit(ops[0], 1, out); !s)
        return s;
      out += e.kind() == SymExpr::Kind::Add ? " + " : " - ";
      status = emit(ops[1], 2, out);
      break;
    case SymExpr::Kind::Mul:
      if (Status s = emit(ops[0], 2, out); !s)
        return s;
      out += "*";
      status = emit(ops[1], 3, out);
      break;
    case SymExpr::Kind::Neg:
      out += "-";
      status = emit(ops[0], 4, out);
      break;
    case SymExpr::Kind::Paren:
      status = emit(ops[0], minPrec, out);
      break;
    case SymExpr::Kind::FloorDiv:
      status = call("fx_floordiv", ops, out);
      break;
    case SymExpr::Kind::Mod:
      status = call("fx_mod", ops, out);
      break;
    case SymExpr::Kind::Pow: {
      if (!ops[1].isConstant() || ops[1].constant() < 0 || ops[1].constant() > 8)
        return Error("index expression " + e.str() + ": only small constant powers have a form");
      if (ops[1].constant() == 0) {
        out += "1";
        break;
      }
      out += "(";
      for (int64_t i = 0; i < ops[1].constant(); ++i) {
        if (i)
          out += "*";
        if (Status s = emit(ops[0], 3, out); !s)
          return s;
      }
      out += ")";
      break;
    }
    case SymExpr::Kind::Call: {
      std::string_view n = e.name();
      if ((n == "Max" || n == "max" || n == "Min" || n == "min") && ops.size() >= 1) {
        const char *fn = (n == "Max" || n == "max") ? "max" : "min";
        // Fold left: max(max(a, b), c).
        std::string acc;
        if (Status s = emit(ops[0], 0, acc); !s)
          return s;
        for (size_t i = 1; i < ops.size(); ++i) {
          std::string next;
          if (Status s = emit(ops[i], 0, next); !s)
            return s;
          acc = std::string(fn) + "((fx_index_t)(" + acc + "), (fx_index_t)(" + next + "))";
        }
        out += acc;
      } else if ((n == "FloorDiv" || n == "floordiv" || n == "CleanDiv") && ops.size() == 2) {
        status = call("fx_floordiv", ops, out);
      } else if (n == "Identity" && ops.size() == 1) {
        status = emit(ops[0], minPrec, out);
      } else if (auto q = roundedQuotient(e)) {
        // CeilToInt(IntTrueDiv(a, b)), math.floor(a / b): an integer quotient rounded, as
        // PyTorch writes ceil-division of sizes (`32*CeilToInt(IntTrueDiv(s27, 32))`).
        status = call(q->first, q->second, out);
      } else if (n == "CeilDiv" && ops.size() == 2) {
        status = call("fx_ceildiv", ops, out);
      } else if ((n == "PythonMod" || n == "Mod") && ops.size() == 2) {
        status = call("fx_mod", ops, out);
      } else if (n == "ModularIndexing" && ops.size() == 3) {
        out += "fx_mod(fx_floordiv(";
        if (Status s = emit(ops[0], 0, out); !s)
          return s;
        out += ", ";
        if (Status s = emit(ops[1], 0, out); !s)
          return s;
        out += "), ";
        status = emit(ops[2], 0, out);
        out += ")";
      } else {
        return Error("index expression " + e.str() + ": " + std::string(n) + " has no OpenCL form");
      }
      break;
    }
    default:
      return Error("index expression " + e.str() + " has no integer OpenCL form");
    }
    if (!status)
      return status;
    if (paren)
      out += ")";
    return Status::ok();
  }
};

/// How one form of a reduction loop reaches its points: a loop's ops are printed once per
/// form (KernelEmitter::emitLoop), each access spelt as that form and the kernel's plan say.
enum class LoopForm { Looped, Persistent, Vector };

/// A load of a buffer the kernel does not write, inside a loop over the reduced points.
struct RowLoad {
  int32_t buffer = -1;
  std::string text; ///< the load expression
  std::string type; ///< its compute type
  int scope = 0;    ///< the loop it is in
  bool masked = false;
  /// Reads kVectorWidth consecutive points as one float4 in the vector form: a float32 buffer
  /// read unmasked at an index that grows by 1 with the reduced index.
  bool vector = false;
  std::string pointer; ///< vector: the buffer's pointer
  std::string base;    ///< vector: the index at r0 = 0 (the row's first point)
};

/// A store at a reduced point.
struct RowStore {
  int32_t buffer = -1;
  std::string stmt;  ///< the scalar store statement
  std::string value; ///< the stored value (vector: one component of the vector)
  int scope = 0;
  bool vector = false; ///< as RowLoad::vector, for a float32 buffer
  std::string pointer, base, index;
};

/// A float4 access of a pointwise kernel's vector form: its buffer's pointer and its index at
/// the first of the work-item's 4 points (the text under that point's variables).
struct PointAccess {
  std::string pointer, index;
};

/// The exp every kernel computes in compute type T (prelude_floating.cl's fx_exp_f and fx_exp_d:
/// in float, where FX_FAST_EXP is defined, the device's approximate exp2 as Triton computes it).
std::string expFunction(const std::string &T) { return T == "double" ? "fx_exp_d" : "fx_exp_f"; }

/// The float4 at `pointer` + (`index`), plus `offset` when given: the value a vector access reads
/// or, with `store`, the lvalue it writes (every form's float4 loads and stores).
std::string float4At(const std::string &pointer, const std::string &index,
                     const std::string &offset = "", bool store = false) {
  return std::string("*(__global ") + (store ? "" : "const ") + "float4 *)(" + pointer + " + (" +
         index + ")" + (offset.empty() ? "" : " + " + offset) + ")";
}

/// A var_mean or online-softmax step at a reduced point.
struct RowUpdate {
  ReductionKind kind = ReductionKind::VarMean;
  int scope = 0;
  std::string type;
  std::string base;  ///< accumulators base_mean, base_m2, base_n or base_max, base_sum
  std::string value; ///< the reduced value
  std::string step;  ///< the one-point update (looped and persistent forms)
  /// Vector copy j's value: fx_w<n>_<j>.
  std::string slot(size_t n, int j) const {
    return "fx_w" + std::to_string(n) + "_" + std::to_string(j);
  }
  /// The persistent form's value at the lane's point fx_k: fx_pu<n>[fx_k].
  std::string pointSlot(size_t n) const { return "fx_pu" + std::to_string(n) + "[fx_k]"; }

  /// A Welford step of `value` into the accumulators `base`_mean, `base`_m2, `base`_n (type T),
  /// its inner lines indented by `indent` spaces.
  static RowUpdate welford(const std::string &T, const std::string &base, const std::string &value,
                           int scope, size_t indent) {
    std::string pad(indent, ' ');
    RowUpdate w;
    w.scope = scope;
    w.type = T;
    w.base = base;
    w.value = value;
    w.step = "{\n" + pad + "  const " + T + " fx_v = " + value + ";\n" + pad + "  " + base +
             "_n = " + base + "_n + 1;\n" + pad + "  const " + T + " fx_d = fx_v - " + base +
             "_mean;\n" + pad + "  " + base + "_mean = " + base + "_mean + fx_d / " + base +
             "_n;\n" + pad + "  " + base + "_m2 = " + base + "_m2 + fx_d * (fx_v - " + base +
             "_mean);\n" + pad + "}";
    return w;
  }

  /// An online-softmax step of `value` into `base`_max and `base`_sum: the sum rescaled when
  /// the maximum grows, a point equal to the maximum counting 1 (no inf - inf), NaN kept.
  static RowUpdate onlineSoftmax(const std::string &T, const std::string &base,
                                 const std::string &value, int scope, size_t indent) {
    std::string pad(indent, ' ');
    RowUpdate u;
    u.kind = ReductionKind::OnlineSoftmax;
    const std::string ex = expFunction(T);
    u.scope = scope;
    u.type = T;
    u.base = base;
    u.value = value;
    u.step = "{\n" + pad + "  const " + T + " fx_v = " + value + ";\n" + pad +
             "  if (isnan(fx_v)) {\n" + pad + "    " + base + "_max = fx_v;\n" + pad + "    " +
             base + "_sum = fx_v;\n" + pad + "  } else if (fx_v > " + base + "_max) {\n" + pad +
             "    " + base + "_sum = " + base + "_sum * " + ex + "(" + base +
             "_max - fx_v) + 1;\n" + pad + "    " + base + "_max = fx_v;\n" + pad + "  } else {\n" +
             pad + "    " + base + "_sum = " + base + "_sum + (fx_v == " + base +
             "_max ? 1 : " + ex + "(fx_v - " + base + "_max));\n" + pad + "  }\n" + pad + "}";
    return u;
  }
};

/// `text` with every line indented by `by` more spaces.
std::string reindent(const std::string &text, int by) {
  std::string out;
  bool lineStart = true;
  for (char c : text) {
    if (lineStart && c != '\n')
      out.append(by, ' ');
    lineStart = c == '\n';
    out += c;
  }
  return out;
}

/// The text of one loop over reduced points in each of its forms (empty: not printed).
struct LoopTexts {
  std::string looped, persistent;
  std::array<std::string, kVectorWidth> vector;
};

/// Which loop of a reduction kernel a value lives in: the row scope, or one loop over the
/// row's reduced points.
constexpr int kRowScope = -1;

struct Value {
  std::string name;
  int scope = kRowScope;
};

/// Statements (each line indented by `pad`) merging the Welford state b = (mean, m2, n) into
/// a = (mean, m2, n), lvalues of type T: the one home of the merge (vector blocks, cascade
/// levels, lanes). As ATen's WelfordOps::combine, an empty side leaves the other unchanged, so
/// no zero weight multiplies a squared difference that overflowed (inf * 0 = NaN where the
/// answer is exact: a constant row of 2e19 has variance 0); and the squared difference is
/// scaled before its second factor, delta * (delta * (na * nb / n)), na * nb / n >= 1/2, so an
/// intermediate overflows only where the merged m2 itself does.
std::string welfordCombine(const std::string &T, const std::string &pad,
                           const std::array<std::string, 3> &a,
                           const std::array<std::string, 3> &b) {
  std::string out;
  out += pad + "{\n";
  out += pad + "  const " + T + " fx_na = " + a[2] + ", fx_nb = " + b[2] + ";\n";
  out += pad + "  if (fx_na == 0) {\n";
  out += pad + "    " + a[0] + " = " + b[0] + ";\n";
  out += pad + "    " + a[1] + " = " + b[1] + ";\n";
  out += pad + "    " + a[2] + " = fx_nb;\n";
  out += pad + "  } else if (fx_nb != 0) {\n";
  out += pad + "    const " + T + " fx_nn = fx_na + fx_nb;\n";
  out += pad + "    const " + T + " fx_f = fx_nb / fx_nn;\n";
  out += pad + "    const " + T + " fx_delta = " + b[0] + " - " + a[0] + ";\n";
  out += pad + "    " + a[0] + " = " + a[0] + " + fx_delta * fx_f;\n";
  out += pad + "    " + a[1] + " = " + a[1] + " + " + b[1] +
         " + fx_delta * (fx_delta * (fx_na * fx_f));\n";
  out += pad + "    " + a[2] + " = fx_nn;\n";
  out += pad + "  }\n";
  out += pad + "}\n";
  return out;
}

/// Cascade summation (ATen's cascade_sum, SumKernel.cpp): a float sum or Welford state over a
/// long row is not one serial accumulator, whose rounding error grows with the row's length
/// (2^25 ones summed in float32 stop at 2^24), but three levels: each lane's points in blocks
/// of fx_cb points, blocks in groups of fx_cb, groups into the running total. fx_cb is a power
/// of two, at least kCascadeMinBlock and at least the cube root of a lane's points, so no level
/// adds more than about max(kCascadeMinBlock, cbrt(points)) terms. The level of a state: its
/// accumulators' names are the total's with this suffix (`acc3_b`, `acc3_b_mean`).
constexpr const char *kCascadeBlock = "_b", *kCascadeGroup = "_g";
/// Points per lane below which a row is one block: long enough that the block bookkeeping is
/// noise next to the adds, short enough that a block's serial sum stays accurate.
constexpr int kCascadeMinBlock = 256;
static_assert(kCascadeMinBlock % kVectorWidth == 0, "vector steps must tile a block");
/// Rows fastest: the loop over a lane's reduced points unrolled this many times, so that a
/// work-item has as many independent loads in flight (a column sum's blocks: 8 on an H100).
constexpr int kRowsFastestUnroll = 8;

/// The register components of one reduction's running state.
struct ReductionState {
  std::vector<std::string> names; ///< accumulators (Welford: mean, m2, weight)
  std::string type;               ///< their C type
  /// Per component where they differ (an arg reduction's index is a long); empty: `type`.
  std::vector<std::string> types;
  const std::string &typeOf(size_t c) const { return types.empty() ? type : types[c]; }
  /// Summed in cascade (a float Sum, Mean, VarMean, OnlineSoftmax or LogSumExp; see
  /// kCascadeBlock): the loop's points update the block level's accumulators, the levels merge
  /// up into `names`.
  bool cascade = false;
  ReductionKind kind = ReductionKind::Sum;
  /// The accumulators of cascade level `suffix` ("": the total, `names`).
  std::vector<std::string> level(const std::string &suffix) const {
    if (suffix.empty())
      return names;
    if (kind == ReductionKind::VarMean) {
      std::string base = names[0].substr(0, names[0].size() - 5); // less "_mean"
      return {base + suffix + "_mean", base + suffix + "_m2", base + suffix + "_n"};
    }
    if (onlineSoftmax()) {
      std::string base = names[0].substr(0, names[0].size() - 4); // less "_max"
      return {base + suffix + "_max", base + suffix + "_sum"};
    }
    return {names[0] + suffix};
  }
  /// A running (max, sum of exp(x - max)) pair.
  bool onlineSoftmax() const {
    return kind == ReductionKind::OnlineSoftmax || kind == ReductionKind::LogSumExp;
  }
  /// Statements adding level `from`'s state into level `to`'s.
  std::string merge(const std::string &to, const std::string &from, const std::string &pad) const {
    std::vector<std::string> a = level(to), b = level(from);
    if (kind == ReductionKind::VarMean)
      return welfordCombine(type, pad, {a[0], a[1], a[2]}, {b[0], b[1], b[2]});
    if (onlineSoftmax()) {
      // As the lanes merge (combineLanes): each sum rescaled to the larger max, a side whose
      // max is that max taken as it is (an empty side, max -inf, adds 0; no inf - inf).
      std::string sfx = type == "double" ? "d" : "f";
      return pad + "{\n" + pad + "  const " + type + " fx_mm = fx_maximum_" + sfx + "(" + a[0] +
             ", " + b[0] + ");\n" + pad + "  " + a[1] + " = (" + a[0] + " == fx_mm ? " + a[1] +
             " : " + a[1] + " * " + expFunction(type) + "(" + a[0] + " - fx_mm)) + (" + b[0] +
             " == fx_mm ? " + b[1] + " : " + b[1] + " * " + expFunction(type) + "(" + b[0] +
             " - fx_mm));\n" + pad + "  " + a[0] + " = fx_mm;\n" + pad + "}\n";
    }
    return pad + a[0] + " = " + a[0] + " + " + b[0] + ";\n";
  }
  /// The declaration of level `suffix`'s accumulators, all the identity (0; a max -inf).
  std::string declare(const std::string &suffix, const std::string &pad) const {
    std::string out = pad + type;
    std::vector<std::string> l = level(suffix);
    for (size_t c = 0; c < l.size(); ++c)
      out += (c ? ", " : " ") + l[c] + (onlineSoftmax() && c == 0 ? " = -INFINITY" : " = 0");
    return out + ";\n";
  }
};

/// Whether the point (v, i) beats the best so far (bv, bi) in an arg reduction: a larger
/// (smaller) value, NaN beating every number; an equal value (NaN equal to NaN) at a lower
/// index. Independent of the order points come in, so lanes combine in any order.
std::string argBetter(bool isMax, bool floating, const std::string &v, const std::string &i,
                      const std::string &bv, const std::string &bi) {
  std::string tie = "(" + v + " == " + bv + " && " + i + " < " + bi + ")";
  std::string order = "(" + v + (isMax ? " > " : " < ") + bv + " || " + tie + ")";
  if (!floating)
    return order;
  return "(isnan(" + v + ") ? (!isnan(" + bv + ") || " + i + " < " + bi + ") : (!isnan(" + bv +
         ") && " + order + "))";
}

class KernelEmitter {
public:
  /// `persistentPoints`: reduced points per lane a row may have for the kernel to keep the
  /// values its loops load more than once in registers (0: loops only).
  /// `vector`: whether loops over the reduced points get a vector form (see kVectorWidth).
  /// `rowsFastest`: a row's lanes are fx_W work-items apart, neighbouring work-items take
  /// neighbouring rows (see GeneratedKernel::rowsFastest).
  /// Without a plan the emitter only plans: it walks the kernel once, printing every loop in
  /// its looped form, and records the accesses and the loop of each op (`plan`). With a plan
  /// (made with the same options) it prints each form of each loop as the plan decided.
  KernelEmitter(const LoopProgram &p, const Kernel &k, int persistentPoints, bool vector,
                bool rowsFastest, const KernelPlan *plan = nullptr)
      : p_(p), k_(k), persistentK_(persistentPoints), vector_(vector), rowsFastest_(rowsFastest),
        plan_(plan) {}
  /// Plans (see `plan`) or prints the kernel.
  Expected<GeneratedKernel> run();
  /// Prints the kernel's body at one point too (GeneratedKernel::pointFunction), reading
  /// `product`'s value at the point from the parameter `fx_product` (a pointwise kernel that
  /// fusion made a GEMM epilogue: Kernel::gemmEpilogueOf).
  void atOnePoint(int32_t product) { pointProduct_ = product; }
  /// After a planning run: the accesses and loops it found, decisions not yet made.
  KernelPlan plan() const;

private:
  Status setUp();
  Status emitOp(size_t i);
  /// The kernel's parameters into `g.params`, their declarations into `sig` and the typed
  /// pointers of its buffers into `pointers`: buffers, the size symbols its text used, numels,
  /// and for reductions the launch configuration and the scratch memory.
  Status signature(GeneratedKernel &g, std::vector<std::string> &sig, std::string &pointers);
  /// A pointwise kernel's body at one point, as a function (GeneratedKernel::pointFunction).
  void pointFunction(GeneratedKernel &g, const std::vector<std::string> &sig,
                     const std::string &pointers, const std::string &rowVars) const;
  /// A reduction kernel's body after its pointers: lanes and rows of the work-group, the
  /// cascade's block sizes, the loop over the group's rows around rowBody_.
  std::string reductionKernel(const GeneratedKernel &g, const std::string &rowVars,
                              const std::string &rowArrays, const std::string &vectorDecl) const;
  /// Reduction op `i`'s step at the current point (`v`: its body's values), its state's
  /// declaration in the loop's prologue.
  Status emitReductionStep(size_t i, const std::vector<std::string> &v);
  /// The stores of pointwise op `i` (`v`: its body's values); `perPoint`: at every reduced point.
  Status emitStores(size_t i, const std::vector<std::string> &v, bool perPoint);
  /// The row body of a kernel that is one scan (scans are not fused): see its comment.
  Status emitScan();
  /// Emits `op`'s body at the current point; returns the names of its instructions' values.
  Expected<std::vector<std::string>> emitBody(size_t i);
  /// The value of buffer `b` at the current point, when the kernel writes it.
  Expected<std::string> valueOf(int32_t b, const std::string &indexText);
  Expected<std::string> index(const SymExpr &opIndex, size_t i);
  /// `opIndex` of op `i` in the kernel's variables.
  SymExpr kernelIndex(const SymExpr &opIndex, size_t i) const;
  /// Whether `index` (kernel variables) grows by exactly 1 with r0, so kVectorWidth points from
  /// an r0 that is a multiple of it are consecutive; `base` is then its text at r0 = 0.
  bool unitStride(const SymExpr &index, std::string &base);
  Status openLoop();
  /// Closes the open loop: in a planning run the looped form of loopBody_, else the forms of
  /// `texts` (see emitLoop); then the lanes combine and the loop's reductions become row values.
  Status closeLoop(const LoopTexts *texts = nullptr);
  /// The loop over the reduced points in every form the kernel takes (persistent, vector,
  /// looped), one `if` chain choosing per row; `rvars` declares the reduced variables.
  std::string loopForms(const std::vector<const ReductionState *> &cascaded,
                        const std::string &rvars, const LoopTexts &texts) const;
  /// The lanes of each row combining the states of reduction op `i`, so that every lane holds
  /// the row's: a state of one component (sums, extrema, products, any/all) and softmax's (a
  /// maximum, then the sums rescaled to it) reduce a value at a time (laneReduce); Welford's and
  /// the arg reductions' states merge whole in a tree (combineLanesInTree).
  std::string combineLanes(size_t i) const;
  /// The tree combining the lanes' states of reduction op `i` in local memory, state by state
  /// (lane, lane + step), the row's in lane 0 then read by every lane.
  std::string combineLanesInTree(size_t i) const;
  /// Statements (indented by 6) reducing the lvalue `var` of type T over the lanes of each row, in
  /// local memory at `fx_s0` (a `__local T *` the caller declares),
  /// with the commutative `op` (its text for two operands), every lane ending with the row's. On
  /// NVIDIA GPUs (FX_WARP_SHUFFLE) float and int values go through warp shuffles, a butterfly in
  /// each warp, then for a wider row a butterfly over its warps' results (through local memory);
  /// else (and for rows fastest) a tree in local memory.
  std::string
  laneReduce(const std::string &T, const std::string &var,
             const std::function<std::string(const std::string &, const std::string &)> &op) const;
  /// Whether the persistent form takes the blocked layout: a lane's points are persistentK_ / 4
  /// float4s, lane l's j-th at reduced index (j * fx_L + l) * 4, loaded and stored as float4 (the
  /// kernel's vector accesses; rows where fx_vec holds), as Triton's persistent reductions give
  /// each thread a few 16-byte vectors of the row. Else point k of lane l is at l + k * fx_L.
  bool blockedPersistent() const {
    return plan_ && persistentK_ > 0 && vector_ && plan_->vectorWidth > 0 &&
           persistentK_ % kVectorWidth == 0;
  }
  /// The reduced index of the persistent form's point `k` (of this lane), in either layout.
  std::string persistentIndex(const std::string &k) const {
    return blockedPersistent()
               ? "((fx_index_t)((" + k + ") >> 2) * fx_L + lane) * 4 + ((" + k + ") & 3)"
               : "lane + (fx_index_t)(" + k + ") * fx_L";
  }
  /// The persistent form's loop: `text` at each of a lane's persistentK_ points, unrolled.
  std::string persistentForm(const std::vector<const ReductionState *> &cascaded,
                             const std::string &text) const;
  /// The vector form's loop: kVectorWidth points per lane and step, `vector[j]` the copy for
  /// point j, between the step's float4 loads and its float4 stores and update merges.
  std::string vectorForm(const std::vector<const ReductionState *> &cascaded,
                         const std::string &rvars,
                         const std::array<std::string, kVectorWidth> &vector) const;
  /// Reduction op `i`'s results as row values (temporaries), stored by lane 0.
  Status reductionResults(size_t i);
  /// Printing run: ops [begin, end), one loop of the plan, printed once per form the plan takes,
  /// from the same state each time (the forms differ only in how they reach their points).
  Status emitLoop(size_t begin, size_t end);
  /// `for (var = start; var < rnumel; var += step) { body }` at indentation `pad`, in the
  /// cascade's groups and blocks when `cascaded` (the loop's cascaded reductions, whose points
  /// `body` adds into their block level) is not empty (see kCascadeBlock).
  std::string cascadeLoop(const std::vector<const ReductionState *> &cascaded,
                          const std::string &pad, const std::string &var, const std::string &start,
                          const std::string &step, const std::string &body) const;
  Expected<std::string> scalar(const ScalarInstr &in, const std::vector<std::string> &v, size_t i);
  std::string loadExpr(int32_t b, const std::string &idx);
  std::string storeStmt(int32_t b, const std::string &idx, const std::string &value);
  /// An atomic `buffer[idx] = combine(buffer[idx], value)` (a combining scatter: several
  /// work-items may meet at one element); an error for a dtype without atomics here.
  Expected<std::string> atomicCombineStmt(int32_t b, const std::string &idx,
                                          const std::string &value, ScatterCombine combine);
  std::string newTemp() { return "tmp" + std::to_string(temp_++); }
  void line(const std::string &text) { body().append(indent(), ' ') += text + "\n"; }
  std::string &body() { return loopOpen_ ? loopBody_ : rowBody_; }
  size_t indent() const { return loopOpen_ ? 6 : 4; }
  bool dependsOnOpenLoop(size_t i) const;
  /// `text`, a load at a reduced point, as the current form spells it: itself, a register
  /// of the persistent form, or a component of a vector load.
  std::string rowLoad(const std::string &text, DType dtype, bool masked, int32_t buffer,
                      const SymExpr &index);
  /// A store at a reduced point (guarded by xmask), as the current form spells it.
  std::string rowStore(int32_t buffer, const SymExpr &index, const std::string &idx,
                       const std::string &value);
  /// Pointwise vector form (copy pointCopy_ of the 4 points): `text`, a load at `idx`, as
  /// component pointCopy_ of a float4 read at the first point, where the buffer is float32, the
  /// load unmasked and `index` grows by 1 with the innermost row variable; else `text`.
  std::string pointLoad(const std::string &text, const std::string &idx, DType dtype, bool masked,
                        int32_t buffer, const SymExpr &index);
  /// Whether a store of buffer `b` at `index` (kernel variables) is one of a float4's components
  /// in the pointwise vector form.
  bool pointVectorStore(int32_t b, const SymExpr &index) const;
  /// Emits every op of the kernel in order (the one pass over its ops that printing makes).
  Status emitOps();
  /// A pointwise kernel's loop in its vector form (empty: no access has one): each work-item
  /// takes 4 consecutive points per step, their float4 loads, the ops once per point
  /// (`copies`), their float4 stores; groups that are not 4 consecutive, aligned points of one
  /// row take the scalar body (rowBody_) point by point.
  Expected<std::string> pointVectorLoop(const std::string &rowVars,
                                        const std::array<std::string, kVectorWidth> &copies);
  /// The vector form's loads before copy 0 of the open loop and its stores after the last.
  std::string vectorLoads(int scope) const;
  std::string vectorStores(int scope) const;
  /// `u`'s one-point step at the current point or, in vector copy j, the collection of the
  /// copy's point (merged after the last copy: updateMerges).
  void emitUpdate(RowUpdate u) {
    size_t n = nextUpdate_++;
    if (rowUpdates_.size() <= n)
      rowUpdates_.resize(n + 1);
    rowUpdates_[n] = std::move(u);
    if (form_ == LoopForm::Vector)
      line(rowUpdates_[n].slot(n, copy_) + " = " + rowUpdates_[n].value + ";");
    else if (form_ == LoopForm::Persistent)
      line(rowUpdates_[n].pointSlot(n) + " = " + rowUpdates_[n].value + ";");
    else
      body().append(indent(), ' ') += rowUpdates_[n].step + "\n";
  }
  /// The vector form's var_mean updates after the last copy: the copies' 4 points merged into
  /// the running state at once.
  std::string updateMerges(int scope) const;
  /// The persistent form's updates after its loop: a lane's points, held in registers, taken at
  /// once (see persistentForm).
  std::string persistentMerges(int scope) const;
  /// The declaration of `fx_vec`, whether a row takes the vector form (empty: no access has
  /// one, so the kernel has no vector form).
  std::string vectorCondition() const;

  const LoopProgram &p_;
  const Kernel &k_;
  int persistentK_ = 0;
  bool vector_ = false, rowsFastest_ = false;
  const KernelPlan *plan_ = nullptr; ///< null: a planning run
  /// The form of the loop being printed, and its vector copy (0 <= copy_ < kVectorWidth).
  LoopForm form_ = LoopForm::Looped;
  int copy_ = 0;
  /// The next load, store and update at a reduced point: their index in rowLoads_, rowStores_,
  /// rowUpdates_ and the plan's loads and stores.
  size_t nextLoad_ = 0, nextStore_ = 0, nextUpdate_ = 0;
  std::vector<int> loopOf_;  ///< planning run: per op, its loop (0: the row)
  std::string planMismatch_; ///< printing run: an access the plan does not have (internal error)
  /// Loads at reduced points whose index grows by 1 with r0, and with the innermost row
  /// variable: which layout makes a warp's loads contiguous.
  int unitReducedLoads_ = 0, unitRowLoads_ = 0;
  std::vector<RowLoad> rowLoads_;
  std::vector<RowStore> rowStores_;
  std::vector<RowUpdate> rowUpdates_;
  bool reduction_ = false;
  std::vector<OpPlace> places_;
  std::map<int32_t, std::string> param_; ///< buffer -> pointer name
  std::map<int32_t, size_t> producer_;   ///< buffer -> position in k_.ops of its writer
  std::set<int32_t> internal_, written_;
  std::map<int32_t, Value> values_; ///< buffer -> value at the current point
  IndexPrinter printer_;
  /// The symbols of indirect indices (LoopIR's "ind<id>") -> the temporaries holding them, for
  /// the loads after them in the body being emitted.
  std::map<std::string, SymExpr, std::less<>> indirect_;
  int temp_ = 0, scope_ = 0;
  bool loopOpen_ = false;
  std::vector<size_t> loopReductions_; ///< reductions of the open loop, in order
  std::map<size_t, ReductionState> states_;
  std::string rowBody_, loopBody_, loopPrologue_;
  int maxComponents_ = 0;
  bool cascadeUsed_ = false; ///< a loop sums in cascade: the kernel computes fx_cb
  bool usesDouble_ = false;
  bool usesInt64Atomics_ = false; ///< an accumulating scatter of a 64-bit type
  int32_t pointProduct_ = -1;     ///< atOnePoint's product buffer, or -1
  /// Pointwise vector form: the copy (point 0-3 of a work-item's 4) being printed, or -1; the
  /// float4 loads (one per load text) and stores copy 0 found.
  int pointCopy_ = -1;
  std::vector<PointAccess> pointLoads_, pointStores_;
  std::map<std::string, size_t> pointLoadSlot_; ///< load text -> its float4 in pointLoads_
  size_t nextPointStore_ = 0;
};

Status KernelEmitter::setUp() {
  reduction_ = !k_.reductionRanges.empty();
  for (size_t i = 0; i < k_.ops.size(); ++i) {
    const LoopOp &op = p_.ops[k_.ops[i]];
    auto place = placeOp(op, k_.ranges, k_.reductionRanges);
    if (!place)
      return Error("kernel " + k_.name + ": " + op.name + " does not fit its iteration space");
    place->placement = k_.placements[i];
    if (place->placement == Placement::Flat) {
      // The op's own variables, unflattened from the flat row index in emitOp.
      place->toKernel.clear();
      for (size_t d = 0; d < op.ranges.size(); ++d)
        place->toKernel[loopVarName(false, d)] =
            SymExpr::symbol("f" + std::to_string(i) + "_" + std::to_string(d));
    }
    places_.push_back(std::move(*place));
    for (const Store &s : op.stores)
      producer_.emplace(s.buffer, i);
    for (const ScalarInstr &in : op.body) // randn's Box-Muller runs in double (fx_randn)
      usesDouble_ = usesDouble_ || in.dtype == DType::Float64 || in.op == ScalarOp::Randn;
    usesDouble_ =
        usesDouble_ || (op.kind == LoopOpKind::Reduction && op.accumulator == DType::Float64);
  }
  internal_.insert(k_.internal.begin(), k_.internal.end());
  for (const auto &[b, i] : producer_)
    written_.insert(b);
  for (size_t i = 0; i < k_.ranges.size(); ++i)
    printer_.localNames.insert(loopVarName(false, i));
  for (size_t i = 0; i < k_.reductionRanges.size(); ++i)
    printer_.localNames.insert(loopVarName(true, i));
  for (size_t i = 0; i < k_.ops.size(); ++i)
    for (size_t d = 0; d < p_.ops[k_.ops[i]].ranges.size(); ++d)
      printer_.localNames.insert("f" + std::to_string(i) + "_" + std::to_string(d));
  return Status::ok();
}

SymExpr KernelEmitter::kernelIndex(const SymExpr &opIndex, size_t i) const {
  return useSizeArgs(toKernelCoordinates(opIndex, places_[i]), k_);
}

/// Whether `index` uses the symbol of an indirect index (its address depends on data).
bool mentionsIndirect(const SymExpr &index) {
  for (const std::string &s : index.symbols())
    if (isIndirectVarName(s))
      return true;
  return false;
}

Expected<std::string> KernelEmitter::index(const SymExpr &opIndex, size_t i) {
  SymExpr e = kernelIndex(opIndex, i);
  if (!indirect_.empty() && mentionsIndirect(e)) // a computed index read as a number, say
    e = e.substitute(indirect_).simplify();
  return printer_.print(e);
}

/// Whether `index` grows by exactly 1 when variable `var` does.
bool growsByOne(const SymExpr &index, const std::string &var) {
  return symIs(symSub(index.substitute({{var, symAdd(SymExpr::symbol(var), SymExpr(1))}}), index),
               1);
}

bool KernelEmitter::unitStride(const SymExpr &index, std::string &base) {
  const std::string r0 = loopVarName(true, 0);
  if (!growsByOne(index, r0))
    return false;
  auto b = printer_.print(index.substitute({{r0, SymExpr(0)}}).simplify());
  if (!b)
    return false;
  base = *b;
  return true;
}

std::string KernelEmitter::loadExpr(int32_t b, const std::string &idx) {
  if (b == pointProduct_) // the template's value at this point (fusion checked the index)
    return "fx_product";
  const std::string &ptr = param_.at(b);
  switch (p_.buffers[b].type.dtype) {
  case DType::Float16:
    return "vload_half(" + idx + ", " + ptr + ")";
  case DType::BFloat16:
    return "fx_bf16_to_float(" + ptr + "[" + idx + "])";
  case DType::Bool:
    return "(" + ptr + "[" + idx + "] != 0)";
  default:
    return ptr + "[" + idx + "]";
  }
}

std::string KernelEmitter::storeStmt(int32_t b, const std::string &idx, const std::string &value) {
  const std::string &ptr = param_.at(b);
  DType dtype = p_.buffers[b].type.dtype;
  switch (dtype) {
  case DType::Float16:
    return "vstore_half_rte((float)(" + value + "), " + idx + ", " + ptr + ");";
  case DType::BFloat16:
    return ptr + "[" + idx + "] = fx_float_to_bf16((float)(" + value + "));";
  case DType::Bool:
    return ptr + "[" + idx + "] = (uchar)((" + value + ") != 0);";
  default:
    return ptr + "[" + idx + "] = (" + storageType(dtype) + ")(" + value + ");";
  }
}

Expected<std::string> KernelEmitter::atomicCombineStmt(int32_t b, const std::string &idx,
                                                       const std::string &value,
                                                       ScatterCombine combine) {
  const std::string at = "(" + param_.at(b) + " + " + idx + ")";
  DType dtype = p_.buffers[b].type.dtype;
  if (combine == ScatterCombine::Add && dtype == DType::Int32)
    return "atomic_add((volatile __global int *)" + at + ", (int)(" + value + "));";
  if (combine == ScatterCombine::Add && dtype == DType::Int64) {
    usesInt64Atomics_ = true;
    return "atom_add((volatile __global long *)" + at + ", (long)(" + value + "));";
  }
  // Otherwise compare-and-swap on the element's bits until no other work-item changed them in
  // between: `word` the integer type of the bits, `cas` the swap, `in`/`out` the conversions.
  std::string type, word, cas, in, out;
  switch (dtype) {
  case DType::Float32:
    type = "float", word = "uint", cas = "atomic_cmpxchg", in = "as_float", out = "as_uint";
    break;
  case DType::Float64:
    type = "double", word = "ulong", cas = "atom_cmpxchg", in = "as_double", out = "as_ulong";
    break;
  case DType::Int32:
    type = "int", word = "int", cas = "atomic_cmpxchg";
    break;
  case DType::Int64:
    type = "long", word = "long", cas = "atom_cmpxchg";
    break;
  default:
    return Error("kernel " + k_.name + ": a combining scatter into " + p_.buffers[b].name + " (" +
                 std::string(dtypeName(dtype)) +
                 ") has no OpenCL form (atomics of 32- and 64-bit types only)");
  }
  usesInt64Atomics_ = usesInt64Atomics_ || word == "ulong" || word == "long";
  bool fl = dtypeIsFloating(dtype);
  std::string sfx = dtype == DType::Float64 ? "d" : "f";
  const std::string old = in + "(fx_seen)", v = "(" + type + ")(" + value + ")";
  std::string combined;
  switch (combine) {
  case ScatterCombine::Replace:
    combined = v;
    break;
  case ScatterCombine::Add:
    combined = old + " + " + v;
    break;
  case ScatterCombine::Mul:
    combined = old + " * " + v;
    break;
  case ScatterCombine::Max:
    combined = (fl ? "fx_maximum_" + sfx : std::string("max")) + "(" + old + ", " + v + ")";
    break;
  case ScatterCombine::Min:
    combined = (fl ? "fx_minimum_" + sfx : std::string("min")) + "(" + old + ", " + v + ")";
    break;
  }
  return "{ volatile __global " + word + " *fx_p = (volatile __global " + word + " *)" + at + "; " +
         word + " fx_seen, fx_old = *fx_p; do { fx_seen = fx_old; fx_old = " + cas +
         "(fx_p, fx_seen, " + out + "(" + combined + ")); } while (fx_old != fx_seen); }";
}

bool KernelEmitter::dependsOnOpenLoop(size_t i) const {
  for (int32_t b : p_.ops[k_.ops[i]].reads()) {
    auto it = producer_.find(b);
    if (it == producer_.end())
      continue;
    for (size_t r : loopReductions_)
      if (r == it->second)
        return true;
  }
  return false;
}

Expected<std::string> KernelEmitter::valueOf(int32_t b, const std::string &indexText) {
  auto v = values_.find(b);
  if (v != values_.end() && (v->second.scope == kRowScope || v->second.scope == scope_))
    return v->second.name;
  size_t i = producer_.at(b);
  if (!internal_.count(b)) {
    // Stored by this work-item in an earlier loop over the same reduced points: load it.
    std::string t = newTemp();
    auto type = computeType(p_.buffers[b].type.dtype);
    if (!type)
      return type.takeError();
    line("const " + *type + " " + t + " = " + loadExpr(b, indexText) + ";");
    return t;
  }
  if (k_.placements[i] != Placement::Full || !loopOpen_)
    return Error("kernel " + k_.name + ": " + p_.buffers[b].name +
                 " is read where it is not available (internal error)");
  // Recompute a value that never leaves the kernel where it is read.
  line("// recomputed where it is read: it never leaves the kernel");
  auto names = emitBody(i);
  if (!names)
    return names.takeError();
  for (const Store &s : p_.ops[k_.ops[i]].stores)
    values_[s.buffer] = {(*names)[s.value], scope_};
  return values_.at(b).name;
}

Expected<std::string> KernelEmitter::scalar(const ScalarInstr &in,
                                            const std::vector<std::string> &v, size_t i) {
  auto type = computeType(in.dtype);
  if (!type)
    return type.takeError();
  const std::string &T = *type;
  bool fl = isFloatCompute(in.dtype) || in.dtype == DType::Float64;
  std::string sfx = in.dtype == DType::Float64 ? "d" : "f";
  const LoopOp &op = p_.ops[k_.ops[i]];
  // An operand is converted only when its type differs.
  auto a = [&](int k) {
    auto t = computeType(op.body[in.operands[k]].dtype);
    return t && *t == T ? v[in.operands[k]] : "(" + T + ")" + v[in.operands[k]];
  };
  switch (scalarOpKind(in.op)) {
  case ScalarOpKind::Special:
    if (in.op == ScalarOp::Cast) {
      const std::string &x = v[in.operands[0]];
      if (in.dtype == DType::Float16)
        return "fx_round_half((float)" + x + ")";
      if (in.dtype == DType::BFloat16)
        return "fx_round_bf16((float)" + x + ")";
      if (in.dtype == DType::Bool)
        return "(" + x + " != 0)";
      return "(" + T + ")" + x;
    }
    break; // leaves are emitted by emitBody
  case ScalarOpKind::Arith:
  case ScalarOpKind::FloatFn:
  case ScalarOpKind::Predicate: {
    // A predicate's form follows its first operand's dtype, any other op's its own.
    bool floating = fl;
    if (scalarOpKind(in.op) == ScalarOpKind::Predicate)
      floating = dtypeIsFloating(op.body[in.operands[0]].dtype);
    const ScalarOpSpelling &sp = scalarOpSpelling(in.op);
    std::string_view form = floating || sp.openclInt.empty() ? sp.openclFloat : sp.openclInt;
    if (form.empty())
      break;
    return expandSpelling(form, [&](std::string_view p) -> std::string {
      if (p == "T")
        return T;
      if (p == "s")
        return sfx;
      if (p[0] == 'r' || p[0] == 'b')
        return v[in.operands[p[1] - '0']];
      return a(p[0] - '0');
    });
  }
  }
  return Error("kernel " + k_.name + ": " + std::string(scalarOpName(in.op)) + " in " +
               p_.ops[k_.ops[i]].name + " has no OpenCL form");
}

Expected<std::vector<std::string>> KernelEmitter::emitBody(size_t i) {
  const LoopOp &op = p_.ops[k_.ops[i]];
  std::vector<std::string> v(op.body.size());
  // Whether any load may index through a gathered value (most bodies: none, no symbol scan).
  const bool gathers = std::any_of(op.body.begin(), op.body.end(), [](const ScalarInstr &in) {
    return in.op == ScalarOp::IndirectIndex;
  });
  for (size_t j = 0; j < op.body.size(); ++j) {
    const ScalarInstr &in = op.body[j];
    auto type = computeType(in.dtype);
    if (!type)
      return Error("kernel " + k_.name + ", " + op.name + ": " + type.error().message);
    std::string expr;
    if (in.op == ScalarOp::Load && gathers && mentionsIndirect(in.index)) {
      // A gather: its address depends on a value of this point, so it is read here, as it is
      // (never hoisted into the vector or persistent forms' register arrays).
      auto idx = index(in.index, i);
      if (!idx)
        return idx.takeError();
      std::string value = loadExpr(in.buffer, *idx);
      DType stored = p_.buffers[in.buffer].type.dtype;
      bool sameType = computeType(stored).hasValue() && *computeType(stored) == *type;
      if (!sameType)
        value = "(" + *type + ")" + value;
      expr =
          in.operands[0] >= 0 ? v[in.operands[0]] + " ? " + value + " : (" + *type + ")0" : value;
    } else if (in.op == ScalarOp::IndirectIndex) {
      // Wrapped once when negative, as Python indexing; then clamped into the dimension, so a
      // bad index cannot read outside the buffer (the interpreters report it as an error).
      auto size = index(in.index, i);
      if (!size)
        return size.takeError();
      expr = std::string(in.constant != 0 ? "fx_indirect" : "fx_indirect_nowrap") +
             "((fx_index_t)" + v[in.operands[0]] + ", " + *size + ")";
      v[j] = newTemp();
      line("const fx_index_t " + v[j] + " = " + expr + ";");
      printer_.localNames.insert(v[j]);
      indirect_[indirectVarName(in.intConstant)] = SymExpr::symbol(v[j]);
      continue;
    } else if (in.op == ScalarOp::Load) {
      auto idx = index(in.index, i);
      if (!idx)
        return idx.takeError();
      std::string value;
      if (written_.count(in.buffer)) {
        auto w = valueOf(in.buffer, *idx);
        if (!w)
          return w.takeError();
        value = *w;
      } else {
        value = loadExpr(in.buffer, *idx);
        if (loopOpen_)
          value = rowLoad(value, p_.buffers[in.buffer].type.dtype, in.operands[0] >= 0, in.buffer,
                          kernelIndex(in.index, i));
        else if (pointCopy_ >= 0)
          value = pointLoad(value, *idx, p_.buffers[in.buffer].type.dtype, in.operands[0] >= 0,
                            in.buffer, kernelIndex(in.index, i));
      }
      DType stored = p_.buffers[in.buffer].type.dtype;
      bool sameType = computeType(stored).hasValue() && *computeType(stored) == *type;
      if (in.operands[0] >= 0) {
        expr = v[in.operands[0]] + " ? " + (sameType ? value : "(" + *type + ")" + value) + " : (" +
               *type + ")0";
      } else if (written_.count(in.buffer) && sameType && value.rfind("tmp", 0) == 0) {
        v[j] = value; // the kernel's own value: no copy
        continue;
      } else {
        expr = sameType ? value : "(" + *type + ")" + value;
      }
    } else if (in.op == ScalarOp::Constant) {
      expr = dtypeIsFloating(in.dtype) ? floatLiteral(in.constant, in.dtype)
                                       : "(" + *type + ")" + intLiteral(in.intConstant);
    } else if (in.op == ScalarOp::IndexValue) {
      auto idx = index(in.index, i);
      if (!idx)
        return idx.takeError();
      expr = "(" + *type + ")(" + *idx + ")";
    } else {
      auto e = scalar(in, v, i);
      if (!e)
        return e.takeError();
      expr = *e;
    }
    v[j] = newTemp();
    line("const " + *type + " " + v[j] + " = " + expr + ";");
  }
  return v;
}

std::string KernelEmitter::rowLoad(const std::string &text, DType dtype, bool masked,
                                   int32_t buffer, const SymExpr &index) {
  auto type = computeType(dtype);
  if (!type || dtype == DType::Bool) // bool has no private arrays worth keeping
    return text;
  RowLoad l;
  l.buffer = buffer;
  l.text = text;
  l.type = *type;
  l.scope = scope_;
  l.masked = masked;
  std::string base;
  bool unitReduced = unitStride(index, base);
  unitReducedLoads_ += unitReduced;
  if (!k_.ranges.empty())
    unitRowLoads_ += growsByOne(index, loopVarName(false, k_.ranges.size() - 1));
  l.vector = vector_ && !masked && dtype == DType::Float32 && unitReduced;
  l.base = base;
  l.pointer = param_.at(buffer);
  size_t n = nextLoad_++;
  if (rowLoads_.size() <= n)
    rowLoads_.resize(n + 1);
  rowLoads_[n] = std::move(l);
  if (!plan_)
    return text;
  if (n >= plan_->loads.size() || plan_->loads[n].text != text) {
    planMismatch_ = text;
    return text;
  }
  const PlannedLoad &planned = plan_->loads[n];
  switch (form_) {
  case LoopForm::Looped:
    return text;
  case LoopForm::Persistent: {
    // Blocked layout: a vector load's points come from the float4 registers the form loaded
    // before its points (persistentForm).
    std::string value =
        blockedPersistent() && planned.vector
            ? "fx_f4at(fx_pv" + std::to_string(planned.vectorSource) + "[fx_k >> 2], fx_k & 3)"
            : text;
    if (planned.array < 0)
      return value;
    std::string slot = "fx_row" + std::to_string(planned.array) + "[fx_k]";
    // The first loop that reads it keeps it; later loops read the register.
    return planned.keeps ? "(" + slot + " = " + value + ")" : slot;
  }
  case LoopForm::Vector:
    return planned.vector
               ? "fx_vl" + std::to_string(planned.vectorSource) + ".s" + std::to_string(copy_)
               : text;
  }
  return text;
}

std::string KernelEmitter::rowStore(int32_t buffer, const SymExpr &index, const std::string &idx,
                                    const std::string &value) {
  RowStore s;
  s.buffer = buffer;
  s.stmt = "if (xmask) " + storeStmt(buffer, idx, value);
  s.value = value;
  s.scope = scope_;
  s.vector =
      vector_ && p_.buffers[buffer].type.dtype == DType::Float32 && unitStride(index, s.base);
  s.pointer = param_.at(buffer);
  s.index = idx;
  size_t n = nextStore_++;
  if (rowStores_.size() <= n)
    rowStores_.resize(n + 1);
  rowStores_[n] = std::move(s);
  const RowStore &st = rowStores_[n];
  if (plan_ && (n >= plan_->stores.size() || plan_->stores[n].vector != st.vector))
    planMismatch_ = st.stmt;
  if (form_ == LoopForm::Vector && st.vector)
    return "fx_vs" + std::to_string(n) + ".s" + std::to_string(copy_) + " = (float)(" + st.value +
           ");";
  if (form_ == LoopForm::Persistent && st.vector && blockedPersistent()) {
    // Blocked layout: the 4 points of a lane's float4 collected, stored at the last of them.
    std::string reg = "fx_ps" + std::to_string(n);
    return reg + " = fx_f4with(" + reg + ", fx_k & 3, (float)(" + st.value +
           ")); if ((fx_k & 3) == 3 && xmask) " + float4At(st.pointer, st.base, "fx_rb", true) +
           " = " + reg + ";";
  }
  return st.stmt;
}

std::string KernelEmitter::pointLoad(const std::string &text, const std::string &idx, DType dtype,
                                     bool masked, int32_t buffer, const SymExpr &index) {
  if (dtype != DType::Float32 || masked || buffer == pointProduct_ ||
      !growsByOne(index, loopVarName(false, k_.ranges.size() - 1)))
    return text;
  // One float4 per load text: the text is the same in every copy (each declares its point's
  // variables under the same names), so the copies number their float4s alike.
  auto [slot, added] = pointLoadSlot_.emplace(text, pointLoads_.size());
  if (added)
    pointLoads_.push_back({param_.at(buffer), idx});
  return "fx_pl" + std::to_string(slot->second) + ".s" + std::to_string(pointCopy_);
}

bool KernelEmitter::pointVectorStore(int32_t b, const SymExpr &index) const {
  return p_.buffers[b].type.dtype == DType::Float32 &&
         growsByOne(index, loopVarName(false, k_.ranges.size() - 1));
}

Expected<std::string>
KernelEmitter::pointVectorLoop(const std::string &rowVars,
                               const std::array<std::string, kVectorWidth> &copies) {
  if (pointLoads_.empty() && pointStores_.empty())
    return std::string();
  const std::string w = std::to_string(kVectorWidth);
  // A group's 4 points are consecutive in the innermost row variable when they are in one row:
  // always in a kernel of one dimension, else when the innermost size is a multiple of 4 (a
  // constant one that is not never gets here: run).
  std::string groups = "xnumel - xbase >= " + w;
  if (k_.ranges.size() > 1) {
    const SymExpr &inner = k_.ranges.back();
    if (!inner.isConstant()) {
      auto text = printer_.print(inner);
      if (!text)
        return text.takeError();
      groups = "((" + *text + ") & " + std::to_string(kVectorWidth - 1) + ") == 0 && " + groups;
    }
  }
  std::string out;
  out += "  // Vector form: " + w +
         " consecutive points per work-item and step, loaded and stored\n"
         "  // as float4 where they lie in one row and each such access is 16-byte aligned;\n"
         "  // other groups point by point. The step stops at xnumel (no index wraps).\n";
  out += "  const fx_index_t fx_step = (fx_index_t)get_global_size(0) * " + w + ";\n";
  out += "  for (fx_index_t xbase = (fx_index_t)get_global_id(0) * " + w +
         "; xbase < xnumel;\n"
         "       xbase = xnumel - xbase > fx_step ? xbase + fx_step : xnumel) {\n";
  out += "    bool fx_vec = " + groups + ";\n";
  out += "    if (fx_vec) {\n";
  out += "      const fx_index_t xindex = xbase;\n";
  out += reindent(rowVars, 2);
  std::string aligned;
  std::set<std::string> seen;
  auto check = [&](const PointAccess &a) {
    std::string c = "fx_aligned16(" + a.pointer + " + (" + a.index + "))";
    if (seen.insert(c).second)
      aligned += (aligned.empty() ? "" : " &&\n               ") + c;
  };
  for (const PointAccess &a : pointLoads_)
    check(a);
  for (const PointAccess &a : pointStores_)
    check(a);
  out += "      fx_vec = " + aligned + ";\n";
  out += "      if (fx_vec) {\n";
  for (size_t n = 0; n < pointLoads_.size(); ++n)
    out += "        const float4 fx_pl" + std::to_string(n) + " = " +
           float4At(pointLoads_[n].pointer, pointLoads_[n].index) + ";\n";
  for (size_t n = 0; n < pointStores_.size(); ++n)
    out += "        float4 fx_ps" + std::to_string(n) + ";\n";
  for (int j = 0; j < kVectorWidth; ++j) {
    out += "        {\n";
    out += "          const fx_index_t xindex = xbase + " + std::to_string(j) + ";\n";
    out += reindent(rowVars + copies[j], 6);
    out += "        }\n";
  }
  for (size_t n = 0; n < pointStores_.size(); ++n)
    out += "        " + float4At(pointStores_[n].pointer, pointStores_[n].index, "", true) +
           " = fx_ps" + std::to_string(n) + ";\n";
  out += "      }\n";
  out += "    }\n";
  out += "    if (!fx_vec) {\n";
  out += "      for (fx_index_t xindex = xbase; xindex < xnumel && xindex - xbase < " + w +
         "; ++xindex) {\n";
  out += reindent(rowVars + rowBody_, 4);
  out += "      }\n";
  out += "    }\n";
  out += "  }\n";
  return out;
}

std::string KernelEmitter::vectorLoads(int scope) const {
  std::string out;
  std::set<std::string> seen;
  for (size_t n = 0; n < rowLoads_.size(); ++n) {
    const RowLoad &l = rowLoads_[n];
    if (l.scope != scope || !l.vector || !seen.insert(l.text).second)
      continue;
    out += "        const float4 fx_vl" + std::to_string(n) + " = " +
           float4At(l.pointer, l.base, "rbase") + "; // " + l.text + "\n";
  }
  return out;
}

std::string KernelEmitter::updateMerges(int scope) const {
  std::string out;
  for (size_t n = 0; n < rowUpdates_.size(); ++n) {
    const RowUpdate &w = rowUpdates_[n];
    if (w.scope != scope)
      continue;
    const std::string &T = w.type, &b = w.base;
    std::string v[4];
    for (int j = 0; j < 4; ++j)
      v[j] = w.slot(n, j);
    if (w.kind == ReductionKind::OnlineSoftmax) {
      // The running sum is rescaled once for the 4 points' maximum; a point equal to the
      // maximum counts 1 (so an infinite one gives no inf - inf), as in the one-point step.
      std::string sfx = T == "double" ? "d" : "f";
      out += "        {\n";
      out += "          // The 4 points at once: one rescale for their maximum.\n";
      out += "          const " + T + " fx_bm = fx_maximum_" + sfx + "(fx_maximum_" + sfx + "(" +
             v[0] + ", " + v[1] + "), fx_maximum_" + sfx + "(" + v[2] + ", " + v[3] + "));\n";
      out += "          if (isnan(fx_bm)) {\n";
      out += "            " + b + "_max = fx_bm;\n";
      out += "            " + b + "_sum = fx_bm;\n";
      out += "          } else if (fx_bm > " + b + "_max) {\n";
      out += "            " + b + "_sum = " + b + "_sum * " + expFunction(T) + "(" + b +
             "_max - fx_bm);\n";
      out += "            " + b + "_max = fx_bm;\n";
      out += "          }\n";
      out += "          " + b + "_sum = " + b + "_sum";
      for (int j = 0; j < 4; ++j)
        out += " + (" + v[j] + " == " + b + "_max ? 1 : " + expFunction(T) + "(" + v[j] + " - " +
               b + "_max))";
      out += ";\n";
      out += "        }\n";
      continue;
    }
    // The 4 points' mean (scaled before the adds, so 4 large points do not overflow) and
    // squared deviations, merged into the running state.
    out += "        {\n";
    out += "          const " + T + " fx_bm = ((" + v[0] + " * (" + T + ")0.25 + " + v[1] + " * (" +
           T + ")0.25) + " + v[2] + " * (" + T + ")0.25) + " + v[3] + " * (" + T + ")0.25;\n";
    out += "          const " + T + " fx_d0 = " + v[0] + " - fx_bm, fx_d1 = " + v[1] +
           " - fx_bm, fx_d2 = " + v[2] + " - fx_bm, fx_d3 = " + v[3] + " - fx_bm;\n";
    out += "          const " + T +
           " fx_bm2 = fx_d0 * fx_d0 + fx_d1 * fx_d1 + fx_d2 * fx_d2 + fx_d3 * fx_d3;\n";
    out += "          const " + T + " fx_bn = 4;\n";
    out += welfordCombine(T, "          ", {b + "_mean", b + "_m2", b + "_n"},
                          {"fx_bm", "fx_bm2", "fx_bn"});
    out += "        }\n";
  }
  return out;
}

std::string KernelEmitter::vectorStores(int scope) const {
  std::string out;
  for (size_t n = 0; n < rowStores_.size(); ++n) {
    const RowStore &s = rowStores_[n];
    if (s.scope == scope && s.vector)
      out += "        if (xmask) " + float4At(s.pointer, s.base, "rbase", true) + " = fx_vs" +
             std::to_string(n) + ";\n";
  }
  return out;
}

std::string KernelEmitter::vectorCondition() const {
  std::set<std::string> checks;
  for (const RowLoad &l : rowLoads_)
    if (l.vector)
      checks.insert("fx_aligned16(" + l.pointer + " + (" + l.base + "))");
  for (const RowStore &s : rowStores_)
    if (s.vector)
      checks.insert("fx_aligned16(" + s.pointer + " + (" + s.base + "))");
  if (checks.empty())
    return "";
  std::string out = "    // Vector form: " + std::to_string(kVectorWidth) +
                    " consecutive points per lane, loaded and stored as float4, when each\n"
                    "    // access's first point in this row is 16-byte aligned.\n"
                    "    const bool fx_vec = (rnumel & " +
                    std::to_string(kVectorWidth - 1) + ") == 0";
  for (const std::string &c : checks)
    out += " &&\n        " + c;
  return out + ";\n";
}

Status KernelEmitter::openLoop() {
  loopOpen_ = true;
  ++scope_;
  loopBody_.clear();
  loopPrologue_.clear();
  loopReductions_.clear();
  return Status::ok();
}

Status KernelEmitter::emitLoop(size_t begin, size_t end) {
  if (Status s = openLoop(); !s)
    return s;
  // Each form starts from the same state: the same temporaries, values and accesses.
  const int temp = temp_;
  const std::map<int32_t, Value> values = values_;
  const std::map<std::string, SymExpr, std::less<>> indirect = indirect_;
  const IndexPrinter printer = printer_;
  const size_t load = nextLoad_, store = nextStore_, update = nextUpdate_;
  auto print = [&](LoopForm form, int copy, std::string &text) -> Status {
    temp_ = temp;
    values_ = values;
    indirect_ = indirect;
    printer_ = printer;
    nextLoad_ = load, nextStore_ = store, nextUpdate_ = update;
    loopBody_.clear();
    loopPrologue_.clear();
    loopReductions_.clear();
    form_ = form;
    copy_ = copy;
    for (size_t i = begin; i < end; ++i)
      if (Status s = emitOp(i); !s)
        return s;
    text = std::move(loopBody_);
    return Status::ok();
  };
  LoopTexts texts;
  if (persistentK_ > 0)
    if (Status s = print(LoopForm::Persistent, 0, texts.persistent); !s)
      return s;
  if (vector_)
    for (int j = 0; j < kVectorWidth; ++j)
      if (Status s = print(LoopForm::Vector, j, texts.vector[j]); !s)
        return s;
  // The looped form last: the state it leaves is the one every form leaves.
  if (Status s = print(LoopForm::Looped, 0, texts.looped); !s)
    return s;
  form_ = LoopForm::Looped;
  return closeLoop(&texts);
}

std::string KernelEmitter::cascadeLoop(const std::vector<const ReductionState *> &cascaded,
                                       const std::string &pad, const std::string &var,
                                       const std::string &start, const std::string &step,
                                       const std::string &body) const {
  // Rows fastest (a column sum's blocks): a lane's loads at successive reduced points are
  // independent, and each work-item has few of them in flight unless the loop is unrolled (one
  // load per work-item leaves an H100's memory system half idle). The loop takes
  // kRowsFastestUnroll steps at a time in an inner loop of that constant count, which every
  // compiler unrolls (an unroll pragma over a step of fx_L is refused by PoCL's clang with a
  // warning); the step count guards each one, so no index passes the end.
  auto loop = [&](const std::string &p, const std::string &begin, const std::string &end,
                  const std::string &text) {
    if (!rowsFastest_)
      return p + "for (fx_index_t " + var + " = " + begin + "; " + var + " < " + end + "; " + var +
             " += " + step + ") {\n" + text + p + "}\n";
    std::string u = std::to_string(kRowsFastestUnroll);
    return p + "for (fx_index_t fx_u = 0, fx_un = (" + end + " - " + begin + " + " + step +
           " - 1) / (" + step + "); fx_u < fx_un; fx_u += " + u + ") {\n" + p +
           "  for (int fx_j = 0; fx_j < " + u + "; ++fx_j) {\n" + p +
           "    if (fx_u + fx_j < fx_un) {\n" + p + "      const fx_index_t " + var + " = " +
           begin + " + (fx_u + fx_j) * (" + step + ");\n" + reindent(text, 4) + p + "    }\n" + p +
           "  }\n" + p + "}\n";
  };
  if (cascaded.empty())
    return loop(pad, start, "rnumel", body);
  // Groups of fx_cgs reduced indices, blocks of fx_cbs (fx_cb steps of the lane each); the
  // ends are taken without passing rnumel, so a 32-bit index does not wrap.
  std::string out;
  out += pad + "// Cascade summation: blocks of fx_cb points per lane, groups of fx_cb blocks.\n";
  out += pad + "for (fx_index_t fx_cg = " + start + ", fx_cge; fx_cg < rnumel; fx_cg = fx_cge) {\n";
  out += pad + "  fx_cge = rnumel - fx_cg > fx_cgs ? fx_cg + fx_cgs : rnumel;\n";
  for (const ReductionState *st : cascaded)
    out += st->declare(kCascadeGroup, pad + "  ");
  out += pad + "  for (fx_index_t fx_cb0 = fx_cg, fx_cbe; fx_cb0 < fx_cge; fx_cb0 = fx_cbe) {\n";
  out += pad + "    fx_cbe = fx_cge - fx_cb0 > fx_cbs ? fx_cb0 + fx_cbs : fx_cge;\n";
  for (const ReductionState *st : cascaded)
    out += st->declare(kCascadeBlock, pad + "    ");
  out += loop(pad + "    ", "fx_cb0", "fx_cbe", reindent(body, 4));
  for (const ReductionState *st : cascaded)
    out += st->merge(kCascadeGroup, kCascadeBlock, pad + "    ");
  out += pad + "  }\n";
  for (const ReductionState *st : cascaded)
    out += st->merge("", kCascadeGroup, pad + "  ");
  out += pad + "}\n";
  return out;
}

Status KernelEmitter::closeLoop(const LoopTexts *texts) {
  if (!loopOpen_)
    return Status::ok();
  loopOpen_ = false;
  rowBody_ += loopPrologue_;
  // The reduced variables, unflattened from the flat reduced index.
  if (!k_.reductionRanges.empty())
    printer_.localNames.insert("rindex");
  auto decls = printer_.unflatten(k_.reductionRanges, "rindex",
                                  [](size_t d) { return loopVarName(true, d); });
  if (!decls)
    return Error("kernel " + k_.name + ": reduced sizes have no OpenCL form");
  std::string rvars;
  for (const std::string &d : *decls)
    rvars += "      " + d + "\n";
  std::vector<const ReductionState *> cascaded;
  for (size_t i : loopReductions_)
    if (states_.at(i).cascade)
      cascaded.push_back(&states_.at(i));
  cascadeUsed_ = cascadeUsed_ || !cascaded.empty();
  rowBody_ += texts ? loopForms(cascaded, rvars, *texts)
                    : cascadeLoop(cascaded, "    ", "rindex", "lane", "fx_L", rvars + loopBody_);
  // Combine the lanes of each reduction, then its results become row values.
  for (size_t i : loopReductions_) {
    rowBody_ += combineLanes(i);
    if (Status s = reductionResults(i); !s)
      return s;
  }
  return Status::ok();
}

std::string KernelEmitter::loopForms(const std::vector<const ReductionState *> &cascaded,
                                     const std::string &rvars, const LoopTexts &texts) const {
  if (persistentK_ == 0 && !vector_)
    return cascadeLoop(cascaded, "    ", "rindex", "lane", "fx_L", rvars + texts.looped);
  std::string out;
  std::string branch = "    if";
  if (persistentK_ > 0) {
    // The blocked layout loads float4s: rows where the vector form's conditions hold.
    out += branch +
           (blockedPersistent() ? " (fx_persistent && fx_vec) {\n" : " (fx_persistent) {\n") +
           persistentForm(cascaded, rvars + texts.persistent);
    branch = "    } else if";
  }
  if (vector_)
    out += branch + " (fx_vec) {\n" + vectorForm(cascaded, rvars, texts.vector);
  // The looped form: rows longer than the lanes hold, or not aligned for vectors.
  out += "    } else {\n";
  out +=
      cascadeLoop(cascaded, "      ", "rindex", "lane", "fx_L", reindent(rvars + texts.looped, 2));
  out += "    }\n";
  return out;
}

std::string KernelEmitter::persistentForm(const std::vector<const ReductionState *> &cascaded,
                                          const std::string &text) const {
  // Persistent form: a fixed number of points per lane, unrolled, so that the loads two
  // loops repeat stay in registers (Inductor's persistent reductions). Few enough points
  // for one cascade block.
  std::string k = std::to_string(persistentK_);
  std::string out;
  for (const ReductionState *st : cascaded)
    out += st->declare(kCascadeBlock, "      ");
  for (size_t n = 0; n < rowUpdates_.size(); ++n)
    if (rowUpdates_[n].scope == scope_)
      out += "      " + rowUpdates_[n].type + " fx_pu" + std::to_string(n) + "[" + k + "];\n";
  if (blockedPersistent()) {
    // Every float4 of the lane loaded before any point is computed, so that all of a lane's
    // loads are in flight at once (the loads that a register of an earlier loop holds are not
    // read again).
    const std::string k4 = std::to_string(persistentK_ / kVectorWidth);
    std::string loads;
    for (size_t n = 0; n < rowLoads_.size() && n < plan_->loads.size(); ++n) {
      const PlannedLoad &pl = plan_->loads[n];
      if (rowLoads_[n].scope != scope_ || !pl.vector || pl.vectorSource != static_cast<int>(n) ||
          (pl.array >= 0 && !pl.keeps))
        continue;
      out += "      float4 fx_pv" + std::to_string(n) + "[" + k4 + "]; // " + pl.text + "\n";
      loads += "          fx_pv" + std::to_string(n) +
               "[fx_j] = " + float4At(rowLoads_[n].pointer, rowLoads_[n].base, "fx_rb") + ";\n";
    }
    for (size_t n = 0; n < rowStores_.size(); ++n)
      if (rowStores_[n].scope == scope_ && rowStores_[n].vector)
        out += "      float4 fx_ps" + std::to_string(n) + " = 0;\n";
    if (!loads.empty()) {
      out += "      #pragma unroll\n";
      out += "      for (int fx_j = 0; fx_j < " + k4 + "; ++fx_j) {\n";
      out += "        const fx_index_t fx_rb = ((fx_index_t)fx_j * fx_L + lane) * 4;\n";
      out += "        if (fx_rb < rnumel) {\n" + loads + "        }\n";
      out += "      }\n";
    }
  }
  out += "      #pragma unroll\n";
  out += "      for (int fx_k = 0; fx_k < " + k + "; ++fx_k) {\n";
  if (blockedPersistent()) {
    out += "        const fx_index_t fx_rb = ((fx_index_t)(fx_k >> 2) * fx_L + lane) * 4;\n";
    out += "        const fx_index_t rindex = fx_rb + (fx_k & 3);\n";
  } else {
    out += "        const fx_index_t rindex = " + persistentIndex("fx_k") + ";\n";
  }
  out += "        if (rindex < rnumel) {\n";
  out += reindent(text, 4);
  out += "        }\n";
  out += "      }\n";
  out += persistentMerges(scope_);
  for (const ReductionState *st : cascaded)
    out += st->merge("", kCascadeBlock, "      ");
  return out;
}

std::string KernelEmitter::persistentMerges(int scope) const {
  // A lane's points are all in registers: no serial chain of one-point steps (a rescale and a
  // branch per point for softmax, a division per point for Welford), but loops over the points
  // whose iterations are independent (an H200's softmax over 1024-point rows at 256 lanes: 0.43
  // ms point by point, 0.35 ms so).
  const std::string k = std::to_string(persistentK_);
  auto each = [&](const std::string &body) {
    return "        #pragma unroll\n        for (int fx_k = 0; fx_k < " + k +
           "; ++fx_k)\n          if (" + persistentIndex("fx_k") + " < rnumel)\n            " +
           body + "\n";
  };
  std::string out;
  for (size_t n = 0; n < rowUpdates_.size(); ++n) {
    const RowUpdate &w = rowUpdates_[n];
    if (w.scope != scope)
      continue;
    const std::string &T = w.type, &b = w.base;
    const std::string sfx = T == "double" ? "d" : "f", v = "fx_pu" + std::to_string(n) + "[fx_k]";
    out += "      {\n";
    if (w.kind == ReductionKind::OnlineSoftmax) {
      // The points' maximum (NaN if one is NaN), then each point's exp against it; a point equal
      // to it counts 1 (so infinite ones give no inf - inf), as in the one-point step.
      out += "        " + T + " fx_pm = -INFINITY, fx_ps = 0;\n";
      out += each("fx_pm = fx_maximum_" + sfx + "(fx_pm, " + v + ");");
      out += each("fx_ps = fx_ps + (" + v + " == fx_pm ? 1 : " + expFunction(T) + "(" + v +
                  " - fx_pm));");
      out += "        " + b + "_max = fx_pm;\n";
      out += "        " + b + "_sum = isnan(fx_pm) ? fx_pm : fx_ps;\n";
    } else {
      // The points' mean (each scaled by 1/n before the adds, so large points do not overflow),
      // then their squared deviations from it.
      out += "        " + T + " fx_pn = 0, fx_pmean = 0, fx_pm2 = 0;\n";
      out += each("fx_pn = fx_pn + 1;");
      out += "        if (fx_pn > 0) {\n";
      out += "          const " + T + " fx_pinv = 1 / fx_pn;\n";
      out += reindent(each("fx_pmean = fx_pmean + " + v + " * fx_pinv;"), 2);
      out +=
          reindent(each("fx_pm2 = fx_pm2 + (" + v + " - fx_pmean) * (" + v + " - fx_pmean);"), 2);
      out += "          " + b + "_mean = fx_pmean;\n";
      out += "          " + b + "_m2 = fx_pm2;\n";
      out += "          " + b + "_n = fx_pn;\n";
      out += "        }\n";
    }
    out += "      }\n";
  }
  return out;
}

std::string KernelEmitter::vectorForm(const std::vector<const ReductionState *> &cascaded,
                                      const std::string &rvars,
                                      const std::array<std::string, kVectorWidth> &vector) const {
  // Vector form: each lane takes kVectorWidth consecutive points at a time, so a warp's
  // loads are 16-byte vectors covering one contiguous span (Triton's size_per_thread).
  std::string w = std::to_string(kVectorWidth);
  std::string body = vectorLoads(scope_);
  for (size_t n = 0; n < rowStores_.size(); ++n)
    if (rowStores_[n].scope == scope_ && rowStores_[n].vector)
      body += "        float4 fx_vs" + std::to_string(n) + ";\n";
  for (size_t n = 0; n < rowUpdates_.size(); ++n)
    if (rowUpdates_[n].scope == scope_)
      body += "        " + rowUpdates_[n].type + " " + rowUpdates_[n].slot(n, 0) + ", " +
              rowUpdates_[n].slot(n, 1) + ", " + rowUpdates_[n].slot(n, 2) + ", " +
              rowUpdates_[n].slot(n, 3) + ";\n";
  for (int j = 0; j < kVectorWidth; ++j) {
    body += "        {\n";
    body += "          const fx_index_t rindex = rbase + " + std::to_string(j) + ";\n";
    body += reindent(rvars + vector[j], 4);
    body += "        }\n";
  }
  body += vectorStores(scope_);
  body += updateMerges(scope_);
  return cascadeLoop(cascaded, "      ", "rbase", "(fx_index_t)lane * " + w,
                     "(fx_index_t)fx_L * " + w, body);
}

std::string KernelEmitter::laneReduce(
    const std::string &T, const std::string &var,
    const std::function<std::string(const std::string &, const std::string &)> &op) const {
  const std::string pad = "      ", s = "fx_s0";
  const std::string partner = rowsFastest_ ? "lid + fx_step * fx_W" : "lid + fx_step";
  std::string tree;
  tree += pad + s + "[lid] = " + var + ";\n";
  tree += pad + "barrier(CLK_LOCAL_MEM_FENCE);\n";
  tree += pad + "for (int fx_step = fx_L >> 1; fx_step > 0; fx_step >>= 1) {\n";
  tree += pad + "  if (lane < fx_step)\n";
  tree += pad + "    " + s + "[lid] = " + op(s + "[lid]", s + "[" + partner + "]") + ";\n";
  tree += pad + "  barrier(CLK_LOCAL_MEM_FENCE);\n";
  tree += pad + "}\n";
  tree += pad + var + " = " + s + (rowsFastest_ ? "[slot]" : "[lid - lane]") + ";\n";
  tree += pad + "barrier(CLK_LOCAL_MEM_FENCE);\n";
  const std::string shuffle = T == "float" ? "fx_shfl_xor_f" : T == "int" ? "fx_shfl_xor_i" : "";
  if (rowsFastest_ || shuffle.empty())
    return tree;
  // A row's lanes are consecutive work-items, fx_L a power of two: a row of up to 32 lanes lies
  // in one warp, a wider one spans whole warps. Whole warps only (shfl.sync names all 32 lanes).
  std::string out = "#ifdef FX_WARP_SHUFFLE\n";
  out += pad + "if (((fx_L * fx_W) & 31) == 0) {\n";
  out += pad + "  for (int fx_d = (fx_L < 32 ? fx_L : 32) >> 1; fx_d > 0; fx_d >>= 1)\n";
  out += pad + "    " + var + " = " + op(var, shuffle + "(" + var + ", fx_d)") + ";\n";
  out += pad + "  if (fx_L > 32) {\n";
  out += pad + "    if ((lid & 31) == 0)\n";
  out += pad + "      " + s + "[lid >> 5] = " + var + ";\n";
  out += pad + "    barrier(CLK_LOCAL_MEM_FENCE);\n";
  // The row's warps' results (at most 32): lane l of each of its warps takes warp l's (mod their
  // count), then a butterfly over that many lanes.
  out += pad + "    const int fx_nw = fx_L >> 5;\n";
  out += pad + "    " + var + " = " + s + "[((lid - lane) >> 5) + (lid & (fx_nw - 1))];\n";
  out += pad + "    for (int fx_d = fx_nw >> 1; fx_d > 0; fx_d >>= 1)\n";
  out += pad + "      " + var + " = " + op(var, shuffle + "(" + var + ", fx_d)") + ";\n";
  out += pad + "    barrier(CLK_LOCAL_MEM_FENCE);\n";
  out += pad + "  }\n";
  // The tree otherwise: printed once, the shuffles' `else` where FX_WARP_SHUFFLE is defined.
  out += pad + "} else\n#endif\n";
  return out + pad + "{\n" + reindent(tree, 2) + pad + "}\n";
}

std::string KernelEmitter::combineLanes(size_t i) const {
  const LoopOp &op = p_.ops[k_.ops[i]];
  const ReductionState &st = states_.at(i);
  const std::string &T = st.type;
  const bool fl = T == "float" || T == "double";
  const std::string sfx = T == "double" ? "d" : "f";
  auto infix = [](const char *o) {
    return [o](const std::string &a, const std::string &b) { return a + " " + o + " " + b; };
  };
  auto call = [](const std::string &fn) {
    return
        [fn](const std::string &a, const std::string &b) { return fn + "(" + a + ", " + b + ")"; };
  };
  std::string body;
  switch (op.reduction) {
  case ReductionKind::Sum:
  case ReductionKind::Mean:
  case ReductionKind::Prod:
  case ReductionKind::Any:
  case ReductionKind::All: {
    const ReductionKind r = op.reduction;
    body = laneReduce(T, st.names[0],
                      infix(r == ReductionKind::Prod  ? "*"
                            : r == ReductionKind::Any ? "|"
                            : r == ReductionKind::All ? "&"
                                                      : "+"));
    break;
  }
  case ReductionKind::Max:
  case ReductionKind::Min: {
    const bool isMax = op.reduction == ReductionKind::Max;
    body = laneReduce(T, st.names[0],
                      call(fl ? std::string(isMax ? "fx_maximum_" : "fx_minimum_") + sfx
                              : std::string(isMax ? "max" : "min")));
    break;
  }
  case ReductionKind::OnlineSoftmax:
  case ReductionKind::LogSumExp: {
    // Two plain reductions instead of one of (max, sum) pairs, whose merge takes two exps per
    // step (an H200's softmax over 1024-point rows spent a quarter of its time there): the row's
    // maximum, then each lane's sum rescaled to it (a lane whose maximum is the row's as it is,
    // so no inf - inf; NaN stays NaN) and summed.
    const std::string &m = st.names[0], &sum = st.names[1];
    body += "      const " + T + " fx_lm = " + m + ";\n";
    body += laneReduce(T, m, call("fx_maximum_" + sfx));
    body += "      " + sum + " = fx_lm == " + m + " ? " + sum + " : " + sum + " * " +
            expFunction(T) + "(fx_lm - " + m + ");\n";
    body += laneReduce(T, sum, infix("+"));
    break;
  }
  case ReductionKind::VarMean:
  case ReductionKind::ArgMax:
  case ReductionKind::ArgMin:
    return combineLanesInTree(i);
  }
  return "    if (fx_L > 1) {\n      __local " + T + " *fx_s0 = (__local " + T +
         " *)fx_scratch;\n" + body + "    }\n";
}

std::string KernelEmitter::combineLanesInTree(size_t i) const {
  const LoopOp &op = p_.ops[k_.ops[i]];
  const ReductionState &st = states_.at(i);
  const std::string &T = st.type;
  bool fl = T == "float" || T == "double";
  std::string sfx = T == "double" ? "d" : "f";
  // The lane `fx_step` further on: the next work-item, or the next row's width further when
  // rows are fastest.
  const char *partner = rowsFastest_ ? "lid + fx_step * fx_W" : "lid + fx_step";
  std::string out;
  out += "    if (fx_L > 1) {\n";
  for (size_t c = 0; c < st.names.size(); ++c)
    out += "      __local " + st.typeOf(c) + " *fx_s" + std::to_string(c) + " = (__local " +
           st.typeOf(c) + " *)(fx_scratch + " + std::to_string(c) + " * fx_L * fx_W);\n";
  for (size_t c = 0; c < st.names.size(); ++c)
    out += "      fx_s" + std::to_string(c) + "[lid] = " + st.names[c] + ";\n";
  out += "      barrier(CLK_LOCAL_MEM_FENCE);\n";
  out += "      for (int fx_step = fx_L >> 1; fx_step > 0; fx_step >>= 1) {\n";
  out += "        if (lane < fx_step) {\n";
  auto at = [](int c, const char *where) { return "fx_s" + std::to_string(c) + "[" + where + "]"; };
  switch (op.reduction) {
  case ReductionKind::Sum:
  case ReductionKind::Mean:
    out += "          " + at(0, "lid") + " = " + at(0, "lid") + " + " + at(0, partner) + ";\n";
    break;
  case ReductionKind::Max:
  case ReductionKind::Min: {
    std::string fn = op.reduction == ReductionKind::Max ? "max" : "min";
    fn =
        fl ? "fx_" + std::string(op.reduction == ReductionKind::Max ? "maximum_" : "minimum_") + sfx
           : fn;
    out += "          " + at(0, "lid") + " = " + fn + "(" + at(0, "lid") + ", " + at(0, partner) +
           ");\n";
    break;
  }
  case ReductionKind::VarMean:
    out += welfordCombine(T, "          ", {at(0, "lid"), at(1, "lid"), at(2, "lid")},
                          {at(0, partner), at(1, partner), at(2, partner)});
    break;
  case ReductionKind::Prod:
    out += "          " + at(0, "lid") + " = " + at(0, "lid") + " * " + at(0, partner) + ";\n";
    break;
  case ReductionKind::Any:
    out += "          " + at(0, "lid") + " = " + at(0, "lid") + " | " + at(0, partner) + ";\n";
    break;
  case ReductionKind::All:
    out += "          " + at(0, "lid") + " = " + at(0, "lid") + " & " + at(0, partner) + ";\n";
    break;
  case ReductionKind::ArgMax:
  case ReductionKind::ArgMin:
    out += "          const " + T + " va = " + at(0, "lid") + ", vb = " + at(0, partner) + ";\n";
    out += "          const long ia = " + at(1, "lid") + ", ib = " + at(1, partner) + ";\n";
    out += "          if " +
           argBetter(op.reduction == ReductionKind::ArgMax, fl, "vb", "ib", "va", "ia") + " {\n";
    out += "            " + at(0, "lid") + " = vb;\n";
    out += "            " + at(1, "lid") + " = ib;\n";
    out += "          }\n";
    break;
  case ReductionKind::OnlineSoftmax:
  case ReductionKind::LogSumExp:
    out += "          const " + T + " ma = " + at(0, "lid") + ", mb = " + at(0, partner) + ";\n";
    out += "          const " + T + " mm = fx_maximum_" + sfx + "(ma, mb);\n";
    out += "          " + at(1, "lid") + " = (ma == mm ? " + at(1, "lid") + " : " + at(1, "lid") +
           " * " + expFunction(T) + "(ma - mm)) + (mb == mm ? " + at(1, partner) + " : " +
           at(1, partner) + " * " + expFunction(T) + "(mb - mm));\n";
    out += "          " + at(0, "lid") + " = mm;\n";
    break;
  }
  out += "        }\n";
  out += "        barrier(CLK_LOCAL_MEM_FENCE);\n";
  out += "      }\n";
  for (size_t c = 0; c < st.names.size(); ++c)
    out += "      " + st.names[c] + " = fx_s" + std::to_string(c) +
           (rowsFastest_ ? "[slot];\n" : "[lid - lane];\n");
  out += "      barrier(CLK_LOCAL_MEM_FENCE);\n";
  out += "    }\n";
  return out;
}

Status KernelEmitter::reductionResults(size_t i) {
  const LoopOp &op = p_.ops[k_.ops[i]];
  const ReductionState &st = states_.at(i);
  const std::string &T = st.type;
  std::string &out = rowBody_;
  // Results, in the accumulator's type.
  std::vector<std::string> results;
  std::vector<std::string> resultTypes; // where they differ from T (an index is a long)
  const std::string &acc = st.names[0];
  switch (op.reduction) {
  case ReductionKind::Sum:
  case ReductionKind::Max:
  case ReductionKind::Min:
  case ReductionKind::Prod:
  case ReductionKind::Any:
  case ReductionKind::All:
    results.push_back(acc);
    break;
  case ReductionKind::ArgMax:
  case ReductionKind::ArgMin:
    results.push_back(acc);
    results.push_back(st.names[1]);
    resultTypes = {T, "long"};
    break;
  case ReductionKind::LogSumExp:
    // As torch._refs.logsumexp: an infinite max is taken as 0, which leaves it the result
    // (-inf for a row of -inf or no points, inf for a row holding inf); NaN propagates.
    results.push_back("isinf(" + st.names[0] + ") || isnan(" + st.names[0] + ") ? " + st.names[0] +
                      " : log(" + st.names[1] + ") + " + st.names[0]);
    break;
  case ReductionKind::Mean:
    results.push_back(acc + " / (" + T + ")rnumel");
    break;
  case ReductionKind::VarMean: {
    std::string corr = floatLiteral(op.correction, T == "double" ? DType::Float64 : DType::Float32);
    results.push_back(st.names[1] + " / fmax((" + T + ")0, " + st.names[2] + " - " + corr + ")");
    // The mean of no points is 0 / 0 (NaN), as var_mean's decomposition gives.
    results.push_back(st.names[2] + " == 0 ? (" + T + ")NAN : " + st.names[0]);
    break;
  }
  case ReductionKind::OnlineSoftmax:
    // As eager defines it (amax, then sum(exp(x - amax))): an infinite max makes the sum NaN
    // (inf - inf); the running update counted those points as 1 to keep the others finite.
    results.push_back(st.names[0]);
    results.push_back("isinf(" + st.names[0] + ") ? (" + T + ")NAN : " + st.names[1]);
    break;
  }
  std::vector<std::string> names;
  for (size_t r = 0; r < results.size(); ++r) {
    std::string n = newTemp();
    out += "    const " + (resultTypes.empty() ? T : resultTypes[r]) + " " + n + " = " +
           results[r] + ";\n";
    names.push_back(n);
  }
  for (const Store &s : op.stores) {
    values_[s.buffer] = {names.at(s.value), kRowScope};
    if (internal_.count(s.buffer))
      continue;
    auto idx = index(s.index, i);
    if (!idx)
      return idx.takeError();
    out +=
        "    if (xmask && lane == 0)\n      " + storeStmt(s.buffer, *idx, names.at(s.value)) + "\n";
  }
  return Status::ok();
}

Status KernelEmitter::emitOp(size_t i) {
  const LoopOp &op = p_.ops[k_.ops[i]];
  Placement placement = k_.placements[i];
  if (op.kind == LoopOpKind::Extern)
    return Error("kernel " + k_.name + ": an extern op inside a generated kernel");
  if (op.kind == LoopOpKind::Scan)
    return Error("kernel " + k_.name + ": a scan fused with other ops (scans are not fused)");
  bool perPoint = op.kind == LoopOpKind::Reduction || placement == Placement::Full;
  if (!plan_) {
    // Planning: an op at every reduced point joins the open loop unless it needs one of its
    // reductions' results; an op once per row closes it. (Printing follows the plan's loops.)
    if (perPoint) {
      if (loopOpen_ && dependsOnOpenLoop(i))
        if (Status s = closeLoop(); !s)
          return s;
      if (!loopOpen_)
        if (Status s = openLoop(); !s)
          return s;
    } else if (loopOpen_) {
      if (Status s = closeLoop(); !s)
        return s;
    }
    loopOf_.push_back(loopOpen_ ? scope_ : 0);
  }
  // The ops' kinds, not their node names: kernels with one signature share one definition.
  std::string comment = "//";
  for (const std::string &o : op.originOps)
    comment += " " + o;
  line(comment);
  if (placement == Placement::Flat) {
    // The op's own variables, unflattened from the flat row index.
    line("{");
    auto decls = printer_.unflatten(op.ranges, "xindex", [i](size_t d) {
      return "f" + std::to_string(i) + "_" + std::to_string(d);
    });
    if (!decls)
      return Error("kernel " + k_.name + ": " + op.name + "'s sizes have no OpenCL form");
    for (const std::string &d : *decls)
      line("  " + d);
  }
  auto v = emitBody(i);
  if (!v)
    return v.takeError();
  if (op.kind == LoopOpKind::Reduction)
    return emitReductionStep(i, *v);
  return emitStores(i, *v, perPoint);
}

Status KernelEmitter::emitReductionStep(size_t i, const std::vector<std::string> &v) {
  const LoopOp &op = p_.ops[k_.ops[i]];
  auto type = computeType(op.accumulator);
  if (!type)
    return Error("kernel " + k_.name + ": " + type.error().message);
  const std::string &T = *type;
  bool fl = T == "float" || T == "double";
  std::string sfx = T == "double" ? "d" : "f";
  ReductionState st;
  st.type = T;
  st.kind = op.reduction;
  std::string base = "acc" + std::to_string(i);
  auto reducedType = computeType(op.body[op.reduced].dtype);
  std::string x = reducedType && *reducedType == T ? v[op.reduced] : "(" + T + ")" + v[op.reduced];
  std::string lowest = fl ? "-INFINITY" : integerLimit(T, false);
  std::string highest = fl ? "INFINITY" : integerLimit(T, true);
  switch (op.reduction) {
  case ReductionKind::Sum:
  case ReductionKind::Mean: {
    // Floats sum in cascade: the points add into the block level (see kCascadeBlock).
    st.names = {base};
    st.cascade = fl;
    loopPrologue_ += "    " + T + " " + base + " = 0;\n";
    std::string a = st.level(fl ? kCascadeBlock : "")[0];
    line(a + " = " + a + " + " + x + ";");
    break;
  }
  case ReductionKind::Max:
  case ReductionKind::Min: {
    bool isMax = op.reduction == ReductionKind::Max;
    st.names = {base};
    loopPrologue_ += "    " + T + " " + base + " = " + (isMax ? lowest : highest) + ";\n";
    std::string fn =
        fl ? std::string(isMax ? "fx_maximum_" : "fx_minimum_") + sfx : (isMax ? "max" : "min");
    line(base + " = " + fn + "(" + base + ", " + x + ");");
    break;
  }
  case ReductionKind::Prod:
    st.names = {base};
    loopPrologue_ += "    " + T + " " + base + " = 1;\n";
    line(base + " = " + base + " * " + x + ";");
    break;
  case ReductionKind::Any:
  case ReductionKind::All: {
    // 0 or 1 in an integer state (a reduced bool converts to 0 or 1): | and & combine.
    bool any = op.reduction == ReductionKind::Any;
    st.names = {base};
    loopPrologue_ += "    " + T + " " + base + " = " + (any ? "0" : "1") + ";\n";
    line(base + " = " + base + (any ? " | " : " & ") + x + ";");
    break;
  }
  case ReductionKind::ArgMax:
  case ReductionKind::ArgMin: {
    if (op.reducedIndex < 0)
      return Error("kernel " + k_.name + ": " + op.name + " has no index to reduce");
    bool isMax = op.reduction == ReductionKind::ArgMax;
    st.names = {base, base + "_i"};
    st.types = {T, "long"};
    // A lane without points holds the identity at the largest index: any point beats it.
    loopPrologue_ += "    " + T + " " + base + " = " + (isMax ? lowest : highest) + ";\n    long " +
                     base + "_i = LONG_MAX;\n";
    line("{");
    line("  const " + T + " fx_v = " + x + ";");
    line("  const long fx_i = (long)" + v[op.reducedIndex] + ";");
    line("  if " + argBetter(isMax, fl, "fx_v", "fx_i", base, base + "_i") + " {");
    line("    " + base + " = fx_v;");
    line("    " + base + "_i = fx_i;");
    line("  }");
    line("}");
    break;
  }
  case ReductionKind::VarMean:
    if (!fl)
      return Error("kernel " + k_.name + ": var_mean of integers");
    st.names = {base + "_mean", base + "_m2", base + "_n"};
    st.cascade = true;
    loopPrologue_ +=
        "    " + T + " " + base + "_mean = 0, " + base + "_m2 = 0, " + base + "_n = 0;\n";
    // One Welford step per point, into the cascade's block level (see kCascadeBlock); in
    // the vector form the 4 points of a copy are collected and merged at once (Chan et
    // al.), one division per 4 points instead of 4.
    emitUpdate(RowUpdate::welford(T, base + kCascadeBlock, x, scope_, indent()));
    break;
  case ReductionKind::OnlineSoftmax:
  case ReductionKind::LogSumExp:
    if (!fl)
      return Error("kernel " + k_.name + ": online softmax of integers");
    st.names = {base + "_max", base + "_sum"};
    st.cascade = true;
    loopPrologue_ += "    " + T + " " + base + "_max = -INFINITY, " + base + "_sum = 0;\n";
    // One step per point, into the cascade's block level (see kCascadeBlock: the sum of a
    // long row is not one serial accumulator); in the vector form the 4 points of a copy
    // are taken at once (one rescale for their maximum, see updateMerges).
    emitUpdate(RowUpdate::onlineSoftmax(T, base + kCascadeBlock, x, scope_, indent()));
    break;
  }
  maxComponents_ = std::max<int>(maxComponents_, static_cast<int>(st.names.size()));
  states_[i] = std::move(st);
  loopReductions_.push_back(i);
  return Status::ok();
}

Status KernelEmitter::emitStores(size_t i, const std::vector<std::string> &v, bool perPoint) {
  const LoopOp &op = p_.ops[k_.ops[i]];
  Placement placement = k_.placements[i];
  for (const Store &s : op.stores) {
    if (!s.scatter) // a scatter's value is not the element's
      values_[s.buffer] = {v[s.value], perPoint ? scope_ : kRowScope};
    if (internal_.count(s.buffer))
      continue;
    auto idx = index(s.index, i);
    if (!idx)
      return idx.takeError();
    std::string stmt = storeStmt(s.buffer, *idx, v[s.value]);
    if (s.scatter && s.combine != ScatterCombine::Replace) {
      auto combined = atomicCombineStmt(s.buffer, *idx, v[s.value], s.combine);
      if (!combined)
        return combined.takeError();
      stmt = *combined;
    }
    if (!reduction_ && pointCopy_ >= 0 && !s.scatter &&
        pointVectorStore(s.buffer, kernelIndex(s.index, i))) {
      size_t n = nextPointStore_++;
      pointStores_.push_back({param_.at(s.buffer), *idx});
      line("fx_ps" + std::to_string(n) + ".s" + std::to_string(pointCopy_) + " = (float)(" +
           v[s.value] + ");");
    } else if (!reduction_)
      line(stmt);
    else if (perPoint && loopOpen_)
      line(rowStore(s.buffer, kernelIndex(s.index, i), *idx, v[s.value]));
    else if (perPoint)
      line("if (xmask) " + stmt);
    else
      line("if (xmask && lane == 0) " + stmt);
  }
  if (placement == Placement::Flat) {
    line("}");
    values_.clear(); // a flat op's values are its own
  }
  return Status::ok();
}

/// The text of a scan kernel's row (see KernelEmitter::emitScan) in the accumulator's type T.
struct ScanText {
  std::string T;
  ScanKind kind = ScanKind::Sum;
  bool integral = false; ///< integers combine wrapping, through ulong
  bool cascade = false;  ///< a float sum: the running value in cascade levels

  std::string identity() const {
    switch (kind) {
    case ScanKind::Sum:
      return "(" + T + ")0";
    case ScanKind::Prod:
      return "(" + T + ")1";
    }
    return "(" + T + ")0";
  }
  std::string combine(const std::string &a, const std::string &b) const {
    const char *op = kind == ScanKind::Prod ? " * " : " + ";
    return integral ? "(" + T + ")((ulong)(" + a + ")" + op + "(ulong)(" + b + "))" : a + op + b;
  }
  /// Statements adding `v` into the running value `run` (into its block level run_b when
  /// cascaded).
  std::string add(const std::string &run, const std::string &v, const std::string &pad) const {
    return cascade ? pad + run + "_b = " + run + "_b + " + v + ";\n"
                   : pad + run + " = " + combine(run, v) + ";\n";
  }
  /// Statements closing a full block into the levels above (nothing when not cascaded).
  std::string closeBlock(const std::string &run, const std::string &pad) const {
    if (!cascade)
      return std::string();
    std::string out;
    out += pad + "if (++" + run + "_kb == fx_cb) {\n";
    out += pad + "  " + run + "_kb = 0;\n";
    out += pad + "  " + run + "_g = " + run + "_g + " + run + "_b;\n";
    out += pad + "  " + run + "_b = 0;\n";
    out += pad + "  if (++" + run + "_kg == fx_cb) {\n";
    out += pad + "    " + run + "_kg = 0;\n";
    out += pad + "    " + run + " = " + run + " + " + run + "_g;\n";
    out += pad + "    " + run + "_g = 0;\n";
    out += pad + "  }\n";
    out += pad + "}\n";
    return out;
  }
  /// The declarations of `run`'s cascade levels and their counters.
  std::string levels(const std::string &run, const std::string &pad) const {
    return cascade ? pad + T + " " + run + "_g = 0, " + run + "_b = 0;\n" + pad + "long " + run +
                         "_kb = 0, " + run + "_kg = 0;\n"
                   : std::string();
  }
  std::string runningValue(const std::string &run) const {
    return cascade ? run + " + (" + run + "_g + " + run + "_b)" : run;
  }
  /// The row: each lane's chunk totalled (`totalBody` computing `totalValue` at a point), the
  /// totals scanned across the lanes, the chunk walked again (`runBody`, `runValue`) storing
  /// every running value (`stores` of fx_val).
  std::string print(const std::string &comment, const std::string &totalBody,
                    const std::string &totalValue, const std::string &runBody,
                    const std::string &runValue, const std::string &stores) const {
    const std::string identity = this->identity();
    std::string out;
    out += comment + ": a scan along the row, one chunk of consecutive points per lane\n";
    out += "    const fx_index_t fx_chunk = (rnumel + fx_L - 1) / fx_L;\n";
    out += "    const fx_index_t fx_begin = (fx_index_t)lane * fx_chunk < rnumel ? "
           "(fx_index_t)lane * fx_chunk : (fx_index_t)rnumel;\n";
    out += "    const fx_index_t fx_end = fx_begin + fx_chunk < rnumel ? fx_begin + fx_chunk : "
           "(fx_index_t)rnumel;\n";
    out += "    " + T + " fx_prefix = " + identity + ";\n";
    out += "    if (fx_L > 1) {\n";
    out += "      // The chunks' totals, scanned across the row's lanes.\n";
    out += "      " + T + " fx_total = " + identity + ";\n";
    out += levels("fx_total", "      ");
    out += "      for (fx_index_t rindex = fx_begin; rindex < fx_end; ++rindex) {\n";
    out += totalBody;
    out += add("fx_total", totalValue, "        ") + closeBlock("fx_total", "        ");
    out += "      }\n";
    if (cascade)
      out += "      fx_total = " + runningValue("fx_total") + ";\n";
    out += "      __local " + T + " *fx_s = (__local " + T + " *)fx_scratch;\n";
    out += "      fx_s[lid] = fx_total;\n";
    out += "      barrier(CLK_LOCAL_MEM_FENCE);\n";
    out += "      for (int fx_step = 1; fx_step < fx_L; fx_step <<= 1) {\n";
    out += "        const " + T +
           " fx_before = lane >= fx_step ? fx_s[lid - fx_step] : " + identity + ";\n";
    out += "        barrier(CLK_LOCAL_MEM_FENCE);\n";
    out += "        fx_s[lid] = " + combine("fx_before", "fx_s[lid]") + ";\n";
    out += "        barrier(CLK_LOCAL_MEM_FENCE);\n";
    out += "      }\n";
    out += "      if (lane > 0)\n";
    out += "        fx_prefix = fx_s[lid - 1];\n";
    out += "      barrier(CLK_LOCAL_MEM_FENCE);\n";
    out += "    }\n";
    out += "    " + T + " fx_run = fx_prefix;\n";
    out += levels("fx_run", "    ");
    out += "    for (fx_index_t rindex = fx_begin; rindex < fx_end; ++rindex) {\n";
    out += runBody;
    // The value stored is the levels' sum, taken before a full block closes into them.
    out += add("fx_run", runValue, "      ");
    out += "      const " + T + " fx_val = " + runningValue("fx_run") + ";\n";
    out += stores;
    out += closeBlock("fx_run", "      ");
    out += "    }\n";
    return out;
  }
};

/// A scan kernel is launched as a reduction (fx_L lanes per row, fx_W rows per work-group).
/// Each lane takes one chunk of consecutive points of its row; with several lanes, each first
/// combines its chunk, the chunks' totals are scanned across the lanes in local memory
/// (Hillis-Steele, log2(fx_L) steps), and each lane then walks its chunk again from the combined
/// value of the chunks before it, storing every running value. One lane (fx_L = 1: the LLVM
/// backend, and CPUs' usual choice) walks the row once. Values combine in the accumulator's
/// type (float16 and bfloat16 in float, integers in long, wrapping), each stored value rounded
/// to its buffer's type. A point is read before it is written and never after, so the result
/// may overwrite the input.
Status KernelEmitter::emitScan() {
  const LoopOp &op = p_.ops[k_.ops[0]];
  auto type = computeType(op.accumulator);
  if (!type)
    return Error("kernel " + k_.name + ": " + type.error().message);
  const std::string T = *type;
  usesDouble_ = usesDouble_ || op.accumulator == DType::Float64;
  ScanText scan;
  scan.T = T;
  scan.kind = op.scan;
  scan.integral = !dtypeIsFloating(op.accumulator);
  // A float sum runs in cascade (see kCascadeBlock): the running value is the total of the
  // groups before, the group's blocks before and the block so far, each level adding at most
  // about max(kCascadeMinBlock, cbrt(points)) terms, so a prefix of 2^25 ones is 2^25 and the
  // error does not grow with the row's length (a serial float prefix stops at 2^24).
  scan.cascade = !scan.integral && op.scan == ScanKind::Sum;
  if (op.reduced < 0 || op.reduced >= static_cast<int32_t>(op.body.size()))
    return Error("kernel " + k_.name + ": " + op.name + " scans no value");
  // The scanned variables, unflattened from rindex (declared at `pad` spaces).
  auto rDecls = printer_.unflatten(k_.reductionRanges, "rindex",
                                   [](size_t d) { return loopVarName(true, d); });
  if (!rDecls)
    return Error("kernel " + k_.name + ": scanned sizes have no OpenCL form");
  auto rVars = [&](int pad) {
    std::string out;
    for (const std::string &d : *rDecls)
      out += std::string(pad, ' ') + d + "\n";
    return out;
  };
  // The body at one point (written at the row's indentation, moved into a loop below), and
  // its scanned value in the accumulator's type.
  auto point = [&](std::string &value, int pad) -> Expected<std::string> {
    rowBody_.clear();
    auto v = emitBody(0);
    if (!v)
      return v.takeError();
    auto t = computeType(op.body[op.reduced].dtype);
    value = t && *t == T ? (*v)[op.reduced] : "(" + T + ")" + (*v)[op.reduced];
    std::string text = reindent(rowBody_, pad - 4);
    rowBody_.clear();
    return text;
  };
  std::string totalValue, runValue;
  auto totalBody = point(totalValue, 8);
  if (!totalBody)
    return totalBody.takeError();
  auto runBody = point(runValue, 6);
  if (!runBody)
    return runBody.takeError();
  std::string stores;
  for (const Store &s : op.stores) {
    if (internal_.count(s.buffer))
      continue;
    auto idx = index(s.index, 0);
    if (!idx)
      return idx.takeError();
    stores += "      if (xmask) " + storeStmt(s.buffer, *idx, "fx_val") + "\n";
  }
  cascadeUsed_ = cascadeUsed_ || scan.cascade;
  std::string comment = "    //";
  for (const std::string &o : op.originOps)
    comment += " " + o;
  rowBody_ +=
      scan.print(comment, rVars(8) + *totalBody, totalValue, rVars(6) + *runBody, runValue, stores);
  maxComponents_ = std::max(maxComponents_, 1);
  return Status::ok();
}

Status KernelEmitter::emitOps() {
  if (!plan_) {
    for (size_t i = 0; i < k_.ops.size(); ++i)
      if (Status s = emitOp(i); !s)
        return s;
  } else {
    if (plan_->loopOf.size() != k_.ops.size())
      return Error("kernel " + k_.name + ": its plan is of another kernel (internal error)");
    for (size_t i = 0; i < k_.ops.size();) {
      size_t end = i + 1;
      if (plan_->loopOf[i] == 0) {
        if (Status s = emitOp(i); !s)
          return s;
      } else {
        while (end < k_.ops.size() && plan_->loopOf[end] == plan_->loopOf[i])
          ++end;
        if (Status s = emitLoop(i, end); !s)
          return s;
      }
      i = end;
    }
  }
  return closeLoop();
}

Expected<GeneratedKernel> KernelEmitter::run() {
  if (Status s = setUp(); !s)
    return s.takeError();
  GeneratedKernel g;
  g.name = k_.name;
  g.isReduction = reduction_;
  g.xnumel = symProduct(k_.ranges).simplify();
  g.rnumel = reduction_ ? symProduct(k_.reductionRanges).simplify() : SymExpr(1);

  // Buffer parameters: inputs then outputs, named as Inductor names them.
  int in = 0, out = 0;
  for (int32_t b : k_.inputs)
    param_[b] = "in_ptr" + std::to_string(in++);
  for (int32_t b : k_.outputs)
    param_[b] = "out_ptr" + std::to_string(out++);

  const bool scan = k_.ops.size() == 1 && p_.ops[k_.ops[0]].kind == LoopOpKind::Scan;
  // The pointwise vector form prints the ops again once per point of a work-item's 4, each time
  // from the state before the first op.
  // Rows of a known length that float4s do not tile never take it: no copies printed.
  const bool pointVector = !reduction_ && !scan && vector_ && plan_ && pointProduct_ < 0 &&
                           !k_.ranges.empty() &&
                           !(k_.ranges.size() > 1 && k_.ranges.back().isConstant() &&
                             k_.ranges.back().constant() % kVectorWidth != 0);
  std::optional<KernelEmitter> fresh;
  if (pointVector)
    fresh.emplace(*this);
  if (scan) {
    if (Status s = emitScan(); !s)
      return s.takeError();
  } else if (Status s = emitOps(); !s) {
    return s.takeError();
  }
  if (!planMismatch_.empty())
    return Error("kernel " + k_.name + ": " + planMismatch_ +
                 " is not the access its plan has (internal error)");
  std::string vectorDecl = vectorCondition();
  // Registers for the loads two loops repeat, in the persistent form.
  std::string rowArrays;
  if (plan_ && persistentK_ > 0)
    for (size_t a = 0; a < plan_->registerArrays.size(); ++a)
      rowArrays += "    " + plan_->registerArrays[a].type + " fx_row" + std::to_string(a) + "[" +
                   std::to_string(persistentK_) + "]; // " + plan_->registerArrays[a].text + "\n";
  if (!rowArrays.empty())
    g.persistentPoints = persistentK_;
  if (!vectorDecl.empty())
    g.vectorWidth = kVectorWidth;
  g.rowsFastest = rowsFastest_;
  g.prefersRowsFastest = unitReducedLoads_ == 0 && unitRowLoads_ > 0;

  // The row variables, unflattened from the flat row index.
  auto rowDecls =
      printer_.unflatten(k_.ranges, "xindex", [](size_t d) { return loopVarName(false, d); });
  if (!rowDecls)
    return Error("kernel " + k_.name + ": its sizes have no OpenCL form");
  std::string rowVars;
  for (const std::string &d : *rowDecls)
    rowVars += "    " + d + "\n";

  std::string pointLoop;
  if (pointVector) {
    std::array<std::string, kVectorWidth> copies;
    for (int j = 0; j < kVectorWidth; ++j) {
      KernelEmitter c = *fresh;
      c.pointCopy_ = j;
      if (Status s = c.emitOps(); !s)
        return s.takeError();
      copies[j] = std::move(c.rowBody_);
      if (j == 0) {
        pointLoads_ = std::move(c.pointLoads_);
        pointStores_ = std::move(c.pointStores_);
        if (pointLoads_.empty() && pointStores_.empty())
          break; // no access has a vector form: the other copies are not printed
      } else if (c.pointLoads_.size() != pointLoads_.size() ||
                 c.pointStores_.size() != pointStores_.size()) {
        return Error("kernel " + k_.name +
                     ": the vector form's copies access different points (internal error)");
      }
    }
    auto loop = pointVectorLoop(rowVars, copies);
    if (!loop)
      return loop.takeError();
    pointLoop = std::move(*loop);
    if (!pointLoop.empty())
      g.vectorWidth = kVectorWidth;
  }

  std::vector<std::string> sig;
  std::string pointers;
  if (Status s = signature(g, sig, pointers); !s)
    return s.takeError();

  std::string src;
  src += "// " + k_.name + ": " + std::to_string(k_.ops.size()) + " ops over [";
  for (size_t i = 0; i < k_.ranges.size(); ++i)
    src += (i ? ", " : "") + k_.ranges[i].str();
  src += "]";
  if (reduction_) {
    src += " x [";
    for (size_t i = 0; i < k_.reductionRanges.size(); ++i)
      src += (i ? ", " : "") + k_.reductionRanges[i].str();
    src += "]";
  }
  src += "\n__kernel void " + k_.name + "(";
  for (size_t i = 0; i < sig.size(); ++i)
    src += (i ? ",\n    " : "") + sig[i];
  src += ") {\n";
  src += pointers;
  if (!reduction_ && !pointLoop.empty()) {
    src += pointLoop + "}\n";
  } else if (!reduction_) {
    src += "  for (fx_index_t xindex = get_global_id(0); xindex < xnumel;\n"
           "       xindex += get_global_size(0)) {\n";
    src += rowVars;
    src += rowBody_;
    src += "  }\n}\n";
  } else {
    src += reductionKernel(g, rowVars, rowArrays, vectorDecl);
  }
  if (usesInt64Atomics_)
    src = "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n" + src;
  else if (!reduction_ && pointProduct_ >= 0)
    pointFunction(g, sig, pointers, rowVars);
  g.source = std::move(src);
  g.usesDouble = usesDouble_;
  return g;
}

void KernelEmitter::pointFunction(GeneratedKernel &g, const std::vector<std::string> &sig,
                                  const std::string &pointers, const std::string &rowVars) const {
  std::string params, args;
  for (const std::string &decl : sig) {
    params += (params.empty() ? "" : ",\n    ") + decl;
    // The declared name: the identifier ending the declaration.
    size_t start = decl.find_last_of(" *") + 1;
    args += (args.empty() ? "" : ", ") + decl.substr(start);
  }
  g.pointFunction = "// " + k_.name + " at one point: a GEMM template's epilogue\ninline void " +
                    k_.name + "_point(" + params +
                    ",\n    const float fx_product, const fx_index_t xindex) {\n" + pointers +
                    rowVars + rowBody_ + "}\n";
  g.pointParams = std::move(params);
  g.pointArgs = std::move(args);
}

Status KernelEmitter::signature(GeneratedKernel &g, std::vector<std::string> &sig,
                                std::string &pointers) {
  auto addBuffer = [&](int32_t b, bool written) {
    const std::string &name = param_.at(b);
    std::string type = storageType(p_.buffers[b].type.dtype);
    std::string cq = written ? "" : "const ";
    sig.push_back("__global " + cq + "uchar *" + name + "_base");
    sig.push_back("const ulong " + name + "_offset");
    pointers += "  __global " + cq + type + " *" + name + " = (__global " + cq + type + " *)(" +
                name + "_base + " + name + "_offset);\n";
    KernelParam p;
    p.kind = KernelParam::Kind::Buffer;
    p.name = name;
    p.buffer = b;
    p.written = written;
    g.params.push_back(p);
    usesDouble_ = usesDouble_ || p_.buffers[b].type.dtype == DType::Float64;
  };
  for (int32_t b : k_.inputs)
    addBuffer(b, false);
  for (int32_t b : k_.outputs)
    addBuffer(b, true);
  std::map<std::string, SymExpr> hoisted;
  for (const SizeArg &a : k_.sizeArgs)
    hoisted[a.name] = a.definition;
  // xnumel and rnumel are printed through the printer too, so their symbols are arguments.
  auto xn = printer_.print(g.xnumel);
  auto rn = printer_.print(g.rnumel);
  if (!xn || !rn)
    return Error("kernel " + k_.name + ": its numels have no OpenCL form");
  for (const std::string &s : printer_.sizeSymbols) {
    if (s == "xnumel" || s == "rnumel")
      continue;
    sig.push_back("const long " + s);
    KernelParam p;
    p.kind = KernelParam::Kind::Size;
    p.name = s;
    auto it = hoisted.find(s);
    p.value = it != hoisted.end() ? it->second : SymExpr::symbol(s);
    g.params.push_back(p);
  }
  sig.push_back("const long xnumel");
  g.params.push_back({KernelParam::Kind::Numel, "xnumel", -1, false, g.xnumel});
  if (reduction_) {
    // Read through launchConstantsPrologue: constants in a build for one launch.
    sig.push_back("const long rnumel_arg");
    g.params.push_back({KernelParam::Kind::Numel, "rnumel", -1, false, g.rnumel});
    sig.push_back("const int fx_L_arg");
    sig.push_back("const int fx_W_arg");
    g.params.push_back({KernelParam::Kind::Lanes, "fx_L", -1, false, {}});
    g.params.push_back({KernelParam::Kind::Lanes, "fx_W", -1, false, {}});
    sig.push_back("__local double *fx_scratch");
    g.params.push_back({KernelParam::Kind::Scratch, "fx_scratch", -1, false, {}});
    g.scratchBytesPerItem = 8 * std::max(1, maxComponents_);
  }
  return Status::ok();
}

std::string KernelEmitter::reductionKernel(const GeneratedKernel &g, const std::string &rowVars,
                                           const std::string &rowArrays,
                                           const std::string &vectorDecl) const {
  std::string src = launchConstantsPrologue();
  src += "  const int lid = get_local_id(0);\n";
  if (cascadeUsed_) {
    std::string minBlock = std::to_string(kCascadeMinBlock);
    src += "  // Cascade summation (ATen's cascade_sum): fx_cb points per lane in a block, fx_cb\n";
    src +=
        "  // blocks in a group, at least " + minBlock + ", at least a lane's points' cube root.\n";
    src += "  long fx_cb = " + minBlock + ";\n";
    src += "  while (fx_cb * fx_cb * fx_cb < (rnumel + fx_L - 1) / fx_L)\n";
    src += "    fx_cb <<= 1;\n";
    src += "  const long fx_cbl = fx_cb * fx_L, fx_cgl = fx_cb * fx_cb * fx_L;\n";
    src += "  const fx_index_t fx_cbs = (fx_index_t)(rnumel < fx_cbl ? rnumel : fx_cbl);\n";
    src += "  const fx_index_t fx_cgs = (fx_index_t)(rnumel < fx_cgl ? rnumel : fx_cgl);\n";
  }
  if (rowsFastest_) {
    src += "  // Rows fastest: neighbouring work-items take neighbouring rows, whose points are\n"
           "  // neighbours in memory, so a warp's loads at one reduced point are contiguous.\n";
    src += "  const int lane = lid / fx_W;\n";
    src += "  const int slot = lid % fx_W;\n";
  } else {
    src += "  const int lane = lid & (fx_L - 1);\n";
    src += "  const int slot = lid / fx_L;\n";
  }
  if (g.persistentPoints > 0)
    src += "  // Persistent form: each lane holds up to " + std::to_string(g.persistentPoints) +
           " of its row's points in registers.\n"
           "  const bool fx_persistent = rnumel <= " +
           std::to_string(g.persistentPoints) + " * (long)fx_L;\n";
  src += "  for (fx_index_t xbase = (fx_index_t)get_group_id(0) * fx_W; xbase < xnumel;\n"
         "       xbase += (fx_index_t)get_num_groups(0) * fx_W) {\n";
  src += "    // Rows past the end compute row xnumel - 1 again and store nothing.\n";
  src += "    const bool xmask = xbase + slot < xnumel;\n";
  src += "    const fx_index_t xindex = xmask ? xbase + slot : xnumel - 1;\n";
  src += rowVars;
  src += rowArrays;
  src += vectorDecl;
  src += rowBody_;
  src += "  }\n}\n";
  return src;
}

KernelPlan KernelEmitter::plan() const {
  KernelPlan plan;
  bool scan = k_.ops.size() == 1 && p_.ops[k_.ops[0]].kind == LoopOpKind::Scan;
  plan.form = scan ? KernelForm::Scan : reduction_ ? KernelForm::Reduction : KernelForm::Pointwise;
  plan.loopOf = loopOf_;
  plan.loopOf.resize(k_.ops.size(), 0);
  plan.loops = scope_;
  for (const RowLoad &l : rowLoads_) {
    PlannedLoad pl;
    pl.buffer = l.buffer;
    pl.text = l.text;
    pl.type = l.type;
    pl.loop = l.scope;
    pl.masked = l.masked;
    pl.vector = l.vector;
    plan.loads.push_back(std::move(pl));
  }
  for (const RowStore &s : rowStores_)
    plan.stores.push_back({s.buffer, s.scope, s.vector});
  plan.unitReducedLoads = unitReducedLoads_;
  plan.unitRowLoads = unitRowLoads_;
  return plan;
}

} // namespace

Expected<KernelPlan> planKernel(const LoopProgram &program, const Kernel &k,
                                std::optional<int> persistentPoints) {
  // Reduced points per lane a persistent row may have: a row of R points over 256 lanes, at
  // most 8 per lane, so rows up to 2048 points. Both forms live in one kernel, and the
  // registers of the persistent one are paid even when the looped one runs: on an H100 a
  // softmax over 8192-point rows took 0.43 ms with a persistent form for 1024 lanes compiled
  // in (53 registers, half occupancy) and 0.31 ms without it (31 registers); 32 points per
  // lane spilled and failed to launch at 256 lanes.
  int persistent = 0;
  if (!k.reductionRanges.empty()) {
    SymExpr r = symProduct(k.reductionRanges).simplify();
    if (!r.isConstant())
      persistent = 8;
    else if (r.constant() <= 2048)
      persistent = static_cast<int>(std::clamp<int64_t>((r.constant() + 255) / 256, 1, 8));
  }
  if (persistentPoints)
    persistent = k.reductionRanges.empty() ? 0 : *persistentPoints;
  // Vector forms for one reduced dimension (whose index grows with r0); a reduction over
  // several has no consecutive points to load together.
  bool vector = k.reductionRanges.size() == 1 && !std::getenv("FXKIT_OPENCL_NO_VECTOR");
  KernelEmitter planner(program, k, persistent, vector, false);
  if (auto walked = planner.run(); !walked)
    return walked.takeError();
  KernelPlan plan = planner.plan();
  decideForms(plan, persistent);
  // With vector accesses the persistent form takes the blocked layout (blockedPersistent): whole
  // float4s per lane. The kernel's own form holds 8 points (two float4s, rows up to 8 * fx_L);
  // an H200's softmax over 1024-point rows took 0.133 ms so at 128 lanes, 0.144 ms with 4 points
  // at 256 lanes (bench/README.md).
  if (plan.persistentPoints > 0 && plan.vectorWidth > 0)
    plan.persistentPoints =
        persistentPoints ? (plan.persistentPoints + kVectorWidth - 1) / kVectorWidth * kVectorWidth
                         : 8;
  return plan;
}

namespace {

/// `text` of a template, a whole number of lines, to stand in one line of another.
std::string inLine(std::string text) {
  if (!text.empty() && text.back() == '\n')
    text.pop_back();
  return text;
}

/// The NaN-propagating maximum, minimum, remainder and GELUs of float or double
/// (prelude_floating.cl).
std::string floatingHelpers(bool isDouble) {
  // float32 exp where FX_FAST_EXP is defined (KernelSet: GPUs, OpenCLOptions::fastExp): the
  // device's exp2 of x * log2(e), as Triton computes float32 exp for Inductor (ex2.approx on
  // NVIDIA GPUs, about 2 ulp, a softmax 14-15% faster on an H200: bench/README.md); else exp.
  const std::pair<std::string_view, std::string> keys[] = {
      {"T", isDouble ? "double" : "float"},
      {"s", isDouble ? "d" : "f"},
      {"f", isDouble ? "" : "f"},
      {"exp", isDouble ? "exp"
                       : "with FX_FAST_EXP (GPUs), exp2 of x * log2(e) on the device's "
                         "approximate exp2, as Triton's; else exp"},
      {"exp body", isDouble ? "exp(x)" : "FX_EXP_F(x)"}};
  return inLine(substituteKeys(kPreludeFloatingCL, keys));
}

std::string preludeText(bool usesDouble) {
  std::string s = R"(// Generated by fxkit: OpenCL C kernels of a fused loop program.
#ifndef FX_INDEX_T
#define FX_INDEX_T long
#endif
typedef FX_INDEX_T fx_index_t;
)";
  if (usesDouble)
    s += "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  // The helper functions, kept as OpenCL C files (prelude.cl, prelude_fp64.cl and the templates
  // they take in their {{...}} lines) embedded at build time (EmbedText.cmake).
  s += "\n";
  const std::pair<std::string_view, std::string> keys[] = {
      {"index arithmetic", inLine(pyIndexArithmetic("fx_index_t"))},
      {"floating", floatingHelpers(false)}};
  s += substituteKeys(kPreludeCL, keys);
  if (usesDouble) {
    const std::pair<std::string_view, std::string> fp64[] = {{"floating", floatingHelpers(true)}};
    s += substituteKeys(kPreludeFp64CL, fp64);
  }
  return s;
}

} // namespace

std::string pyIndexArithmetic(std::string_view type) {
  const std::pair<std::string_view, std::string> keys[] = {{"I", std::string(type)}};
  return substituteKeys(kPreludeIndexCL, keys);
}

std::string GeneratedProgram::prelude(bool usesDouble) {
  // Every program and device extern takes one of the two: instantiated once.
  static const std::string withoutDouble = preludeText(false), withDouble = preludeText(true);
  return usesDouble ? withDouble : withoutDouble;
}

std::string GeneratedProgram::source() const {
  bool usesDouble = false;
  for (const GeneratedKernel &k : launches)
    usesDouble = usesDouble || k.usesDouble;
  std::string s = prelude(usesDouble);
  std::set<std::string> done;
  for (const GeneratedKernel &k : launches)
    if (!k.name.empty() && done.insert(k.name).second) {
      s += "\n" + k.source;
      for (const KernelVariant &v : k.variants)
        s += "\n" + v.source;
    }
  return s;
}

namespace {

/// What the emitter reads of a kernel beyond its buffers' identities: kernels with one key print
/// the same code. The fuser's signature (the ops' kinds, placements, bodies, indices, stores,
/// dtypes and buffers by role) plus what it leaves out: the name, the ATen ops each loop op
/// came from (a comment in the code), the hoisted size arguments and size symbols, and where
/// each input and output buffer stands among the kernel's buffers (the order of its pointer
/// parameters). Empty for kernels without a signature (built by hand, not by the fuser).
std::string sharingKey(const LoopProgram &program, const Kernel &k) {
  if (k.signature.empty())
    return {};
  std::string key = k.name + '\n' + k.signature + '\n';
  std::vector<int32_t> order; // buffers in order of first use
  auto use = [&](int32_t b) {
    if (std::find(order.begin(), order.end(), b) == order.end())
      order.push_back(b);
  };
  for (int32_t o : k.ops) {
    const LoopOp &op = program.ops[o];
    for (const std::string &origin : op.originOps)
      key += origin + ',';
    key += '|';
    for (const ScalarInstr &in : op.body)
      if (in.op == ScalarOp::Load)
        use(in.buffer);
    for (const Store &st : op.stores)
      use(st.buffer);
  }
  for (const SizeArg &a : k.sizeArgs)
    key += a.name + '=' + a.definition.str() + ';';
  for (const std::string &symbol : k.symbolArgs)
    key += symbol + ';';
  auto position = [&](int32_t b) {
    return std::to_string(std::find(order.begin(), order.end(), b) - order.begin());
  };
  key += "\nin";
  for (int32_t b : k.inputs)
    key += ' ' + position(b);
  key += "\nout";
  for (int32_t b : k.outputs)
    key += ' ' + position(b);
  return key;
}

/// `shared`, generated for another kernel with the same sharingKey, as kernel `k`'s launch: its
/// pointer parameters bound to k's buffers (the emitter lists inputs, then outputs).
GeneratedKernel rebound(const GeneratedKernel &shared, const Kernel &k) {
  GeneratedKernel g = shared;
  size_t next = 0;
  for (KernelParam &param : g.params) {
    if (param.kind != KernelParam::Kind::Buffer)
      continue;
    assert(next < k.inputs.size() + k.outputs.size() &&
           "a kernel with the same sharing key has as many buffer parameters");
    param.buffer = next < k.inputs.size() ? k.inputs[next] : k.outputs[next - k.inputs.size()];
    ++next;
  }
  assert(next == k.inputs.size() + k.outputs.size() && "every buffer of the kernel is bound");
  return g;
}

/// Points per lane of a `_persistent` variant: rows longer than the persistent form of the kernel
/// itself (2048 points) up to this many per lane at 1024 lanes.
constexpr int64_t kMaxVariantPoints = 32;

/// Kernel `k`'s multi-kernel variant in the other form (GeneratedKernel::variants), or nothing:
/// `plan` and `g` are its own form. Only reductions over rows of a known length whose loops
/// read the same input again have one (a persistent form holds nothing otherwise).
Expected<std::optional<KernelVariant>> variantOf(const LoopProgram &program, const Kernel &k,
                                                 const KernelPlan &plan, const GeneratedKernel &g) {
  if (plan.form != KernelForm::Reduction || !g.rnumel.isConstant())
    return std::optional<KernelVariant>();
  const int64_t rnumel = g.rnumel.constant();
  int points = 0; // the variant's persistent points per lane
  std::string suffix = "_looped";
  if (plan.persistentPoints == 0) {
    // Long rows: enough points per lane for 512 lanes, else for 1024.
    int64_t at512 = (rnumel + 511) / 512, at1024 = (rnumel + 1023) / 1024;
    if (rnumel <= 2048 || at1024 > kMaxVariantPoints)
      return std::optional<KernelVariant>();
    points = static_cast<int>(at512 <= kMaxVariantPoints ? at512 : at1024);
    suffix = "_persistent";
  }
  FXKIT_ASSIGN_OR_RETURN(KernelPlan other, planKernel(program, k, points));
  if ((other.persistentPoints == 0) != (points == 0)) // no load repeats: nothing to hold
    return std::optional<KernelVariant>();
  points = other.persistentPoints; // whole float4s in the blocked layout
  Kernel renamed = k;
  renamed.name += suffix;
  FXKIT_ASSIGN_OR_RETURN(
      GeneratedKernel v,
      KernelEmitter(program, renamed, points, other.vectorWidth > 0, other.rowsFastest, &other)
          .run());
  // One launch's arguments serve every variant.
  assert(v.params.size() == g.params.size() && v.scratchBytesPerItem == g.scratchBytesPerItem &&
         "a kernel's variants take the same arguments");
  if (usesSpecialMath(v.source))
    v.source = specialMathOpenCL(v.usesDouble) + v.source;
  return std::optional<KernelVariant>(KernelVariant{renamed.name, std::move(v.source), points});
}

} // namespace

Expected<GeneratedProgram> generateOpenCL(const LoopProgram &program, const FusedProgram &fused,
                                          const GenerateOptions &options) {
  GeneratedProgram out;
  const bool pointwiseVectors = options.pointwiseVectors && !std::getenv("FXKIT_OPENCL_NO_VECTOR");
  // A model's repeated blocks fuse into kernels that print the same code: printed once each
  // (a 100,000-node graph spent 84% of `fxkit report` printing 10,000 copies of 4 kernels).
  std::unordered_map<std::string, size_t> printed; // sharing key -> its first launch
  // A GEMM epilogue's body at one point, reading the product's value from a parameter: printed
  // again for each kernel and position of the product among its buffers.
  std::unordered_map<std::string, size_t> pointPrinted; // key#position -> its first launch
  auto addPointFunction = [&](const Kernel &k, GeneratedKernel &g,
                              const std::string &key) -> Status {
    g.pointFunction.clear();
    g.pointParams.clear();
    g.pointArgs.clear();
    if (k.gemmEpilogueOf < 0 || g.isReduction)
      return Status::ok();
    size_t position = 0;
    while (position < g.params.size() && g.params[position].buffer != k.gemmEpilogueOf)
      ++position;
    std::string pointKey = key.empty() ? std::string() : key + "#" + std::to_string(position);
    if (auto it = pointPrinted.find(pointKey); !pointKey.empty() && it != pointPrinted.end()) {
      const GeneratedKernel &first = out.launches[it->second];
      g.pointFunction = first.pointFunction;
      g.pointParams = first.pointParams;
      g.pointArgs = first.pointArgs;
      return Status::ok();
    }
    auto plan = planKernel(program, k);
    if (!plan)
      return plan.takeError();
    KernelEmitter emitter(program, k, plan->persistentPoints, plan->vectorWidth > 0,
                          plan->rowsFastest, &*plan);
    emitter.atOnePoint(k.gemmEpilogueOf);
    auto p = emitter.run();
    if (!p)
      return p.takeError();
    g.pointFunction = usesSpecialMath(p->pointFunction)
                          ? specialMathOpenCL(p->usesDouble) + p->pointFunction
                          : std::move(p->pointFunction);
    g.pointParams = std::move(p->pointParams);
    g.pointArgs = std::move(p->pointArgs);
    if (!pointKey.empty())
      pointPrinted.emplace(std::move(pointKey), out.launches.size() - 1);
    return Status::ok();
  };
  for (const Kernel &k : fused.kernels) {
    if (k.isExtern) {
      out.launches.emplace_back();
      continue;
    }
    std::string key = options.shareEqualKernels ? sharingKey(program, k) : std::string();
    if (!key.empty()) {
      if (auto it = printed.find(key); it != printed.end()) {
        out.launches.push_back(rebound(out.launches[it->second], k));
        if (Status s = addPointFunction(k, out.launches.back(), key); !s)
          return s.takeError();
        continue;
      }
    }
    // Plan, then print: the forms and accesses decided before any text (KernelPlan.h).
    auto plan = planKernel(program, k);
    if (!plan)
      return plan.takeError();
    auto g = KernelEmitter(program, k, plan->persistentPoints,
                           k.reductionRanges.empty() ? pointwiseVectors : plan->vectorWidth > 0,
                           plan->rowsFastest, &*plan)
                 .run();
    if (!g)
      return g.takeError();
    // The special functions (digamma, erfcx, ...) travel with the kernels that call them.
    if (usesSpecialMath(g->source))
      g->source = specialMathOpenCL(g->usesDouble) + g->source;
    if (options.variants) {
      FXKIT_ASSIGN_OR_RETURN(std::optional<KernelVariant> v, variantOf(program, k, *plan, *g));
      if (v)
        g->variants.push_back(std::move(*v));
    }
    if (!key.empty())
      printed.emplace(key, out.launches.size());
    out.launches.push_back(g.take());
    if (Status s = addPointFunction(k, out.launches.back(), key); !s)
      return s.takeError();
  }
  return out;
}

Expected<std::string> printCIntExpr(const SymExpr &e) { return IndexPrinter().print(e); }

std::string openclBuildOptions(const loop::LoopProgram &program,
                               const GeneratedProgram &generated) {
  std::string options = std::string("-cl-std=CL1.2 -DFX_INDEX_T=") +
                        (indexFitsInt(program, generated) ? "int" : "long");
  if (const char *extra = std::getenv("FXKIT_OPENCL_BUILD_OPTIONS"); extra && *extra)
    options += std::string(" ") + extra;
  return options;
}

bool indexFitsInt(const loop::LoopProgram &program, const GeneratedProgram &generated) {
  bool smallIndex = true;
  for (const loop::Buffer &b : program.buffers) {
    SymExpr n = b.storageNumel();
    smallIndex = smallIndex && n.isConstant() && n.constant() < (int64_t(1) << 31);
  }
  for (const GeneratedKernel &g : generated.launches) {
    if (g.name.empty())
      continue;
    SymExpr n = symMul(g.xnumel, g.rnumel).simplify();
    smallIndex = smallIndex && n.isConstant() && n.constant() < (int64_t(1) << 31);
  }
  return smallIndex;
}

} // namespace fxkit::opencl
