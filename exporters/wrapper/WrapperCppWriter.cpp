#include "exporters/wrapper/WrapperCppWriter.h"

#include "backends/opencl/codegen/OpenCLKernelGen.h"
#include "exporters/FxTextPrinter.h"
#include "exporters/StringEscape.h"
#include "exporters/wrapper/WrapperSignature.h"
#include "ir/Node.h"
#include "ir/Try.h"
#include "ir/ops/ShapeRules.h"
#include "ir/wrapper/WrapperDialect.h"
#include "transforms/CompilationState.h"
#include "transforms/WrapperGraph.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace fxkit {

using namespace loop;

std::string cppRawString(std::string_view text) {
  // The delimiter ends `)DELIM"`: pick one that does not occur in the text.
  std::string delim = "FXKIT";
  for (int n = 0; text.find(")" + delim + "\"") != std::string_view::npos; ++n)
    delim = "FXKIT" + std::to_string(n);
  return "R\"" + delim + "(" + std::string(text) + ")" + delim + "\"";
}

std::string wrapperFactorySymbol(const std::string &name) { return "fxkit_wrapper_create_" + name; }

namespace {

std::string cppString(std::string_view s) { return "\"" + backslashEscape(s) + "\""; }

/// The wrapper's helpers: kPreamble, Python's integer arithmetic of sizes over int64_t (the
/// template the OpenCL prelude instantiates over fx_index_t), kPreambleAfterIndexArithmetic.
const char *const kPreamble = R"CPP(namespace {

using fxkit::rt::DeviceTensor;
using fxkit::rt::ExternInput;
using fxkit::rt::ExternResult;
using fxkit::rt::KernelArg;
using fxkit::rt::Status;
using fxkit::rt::Storage;

/// Python's floor division and modulo, as the size expressions use them.
)CPP";

const char *const kPreambleAfterIndexArithmetic =
    R"CPP(/// Max and Min of sizes, spelled as the OpenCL C the same printer writes for kernels.
using fx_index_t = int64_t;
inline int64_t max(int64_t a, int64_t b) { return a > b ? a : b; }
inline int64_t min(int64_t a, int64_t b) { return a < b ? a : b; }
/// `bytes` of `s` from `offset`.
inline Storage sub(const Storage &s, int64_t offset, int64_t bytes) {
  return {s.allocation, s.offset + static_cast<size_t>(offset), static_cast<size_t>(bytes)};
}

#define FXKIT_TRY(expr)                                                                            \
  do {                                                                                             \
    Status fxkit_status_ = (expr);                                                                 \
    if (!fxkit_status_)                                                                            \
      return fxkit_status_;                                                                        \
  } while (0)
)CPP";

/// Prints a wrapper graph (transforms/WrapperGraph.h) as the body of Model::run. The loop
/// program and its kernels give only what the graph names but does not spell: the OpenCL C of
/// the kernel a launch names (its definition and parameter list), and the ATen call of an
/// extern launch.
class CppWriter : WrapperWalk {
public:
  using WrapperWalk::WrapperWalk;
  Expected<WrapperCppFiles> run(const std::string &name, const std::string &runtimeCmake);

private:
  void line(const std::string &s) { body_ += "  " + s + "\n"; }
  Expected<std::string> expr(const SymExpr &e) const {
    return opencl::printCIntExpr(e.isConstant() ? e : e.simplify());
  }
  Expected<std::string> list(const std::vector<SymExpr> &xs);
  Expected<std::string> printSize(const SymExpr &e) const override { return expr(e); }
  Expected<std::string> deviceTensor(const std::string &storage, const TensorType &type,
                                     const std::vector<SymExpr> &sizes,
                                     const std::vector<SymExpr> &strides,
                                     const std::string &offset);
  /// A tensor argument (a buffer or a view of one) as a DeviceTensor.
  Expected<std::string> tensorOf(const Node *n);
  Status pool(int64_t bytes) override {
    line("Storage pool;");
    line("FXKIT_TRY(rt_.allocate(" + std::to_string(bytes) + ", &pool));");
    return Status::ok();
  }
  Status allocation(const Node &n) override;
  Status kernel(const Node &n, const wrapper::KernelCall &call, const Kernel &k) override;
  Status externCall(const Node &n, const wrapper::ExternCall &call, const LoopOp &op,
                    const wrapper::ExternResults &results) override;
  void release(const std::string &value) override { line(value + " = {};"); }
  Status output(const Node &n) override;
  /// A run-time check's condition as a C++ bool expression.
  Expected<std::string> condition(const SymExpr &c);
  /// The kernel fusion made the epilogue of extern op `op` (a matrix product or convolution),
  /// launched right after it, where it has a body at one point; empty otherwise.
  std::string epilogueOf(const LoopOp &op) {
    if (!epiloguesIndexed_) { // product buffer -> its epilogue kernel, once per program
      epiloguesIndexed_ = true;
      for (size_t k = 0; k < f_.kernels.size(); ++k)
        if (f_.kernels[k].gemmEpilogueOf >= 0 && !generated_.launches[k].pointFunction.empty())
          epilogueOfProduct_[f_.kernels[k].gemmEpilogueOf] = generated_.launches[k].name;
    }
    if (op.externOutputs.empty())
      return {};
    auto it = epilogueOfProduct_.find(op.externOutputs[0]);
    return it == epilogueOfProduct_.end() ? std::string() : it->second;
  }
  bool epiloguesIndexed_ = false;
  std::unordered_map<int32_t, std::string> epilogueOfProduct_;

  opencl::GeneratedProgram generated_;
  std::map<std::string, size_t> definition_; ///< kernel name -> index in kernelTable_
  std::string kernelDefs_, kernelTable_, variantTable_, externDefs_, body_;
  /// Unbacked symbols bound so far (by the extern calls printed before).
  std::set<std::string> boundUnbacked_;
  /// After an extern call binds `symbols`: a run-time check of each buffer their values size
  /// whose symbols are all bound now (Runtime::checkBound), before any byte count of it is
  /// computed (a product that would wrap for a `.item()` of 2^62).
  void checkBoundBuffers(const std::vector<std::string> &symbols);
};

void CppWriter::checkBoundBuffers(const std::vector<std::string> &symbols) {
  const std::vector<std::string> unbacked = p_.unbackedSymbols();
  boundUnbacked_.insert(symbols.begin(), symbols.end());
  for (const Buffer &b : p_.buffers) {
    std::set<std::string> names;
    for (const auto *list : {&b.type.sizes, &b.type.strides})
      for (const SymExpr &e : *list)
        for (const std::string &n : e.symbols())
          names.insert(n);
    bool sizedNow = false, ready = true;
    for (const std::string &n : names) {
      bool isUnbacked = std::binary_search(unbacked.begin(), unbacked.end(), n);
      sizedNow = sizedNow || std::find(symbols.begin(), symbols.end(), n) != symbols.end();
      ready = ready && (!isUnbacked || boundUnbacked_.count(n));
    }
    if (!sizedNow || !ready)
      continue;
    std::string values;
    for (const std::string &n : names)
      values += (values.empty() ? "{" : ", {") + cppString(n) + ", " + n + "}";
    line("FXKIT_TRY(rt_.checkBound(" + cppString(b.name) + ", " + cppString(b.type.str()) + ", {" +
         values + "}));");
  }
}

Expected<std::string> CppWriter::list(const std::vector<SymExpr> &xs) {
  std::string out = "{";
  for (size_t i = 0; i < xs.size(); ++i) {
    auto e = expr(xs[i]);
    if (!e)
      return e;
    out += (i ? ", " : "") + *e;
  }
  return out + "}";
}

Expected<std::string> CppWriter::deviceTensor(const std::string &storage, const TensorType &type,
                                              const std::vector<SymExpr> &sizes,
                                              const std::vector<SymExpr> &strides,
                                              const std::string &offset) {
  auto s = list(sizes), st = list(strides);
  if (!s || !st)
    return Error("wrapper-cpp: a view with a size expression that has no C++ form");
  return "DeviceTensor{" + storage + ", \"" + std::string(dtypeName(type.dtype)) + "\", " + *s +
         ", " + *st + ", " + offset + "}";
}

Expected<std::string> CppWriter::tensorOf(const Node *n) {
  const TensorType *t = n->value().tensor();
  if (!t)
    return Error("wrapper-cpp: '" + n->name() + "' is not a tensor");
  const Node *base = n;
  std::string offset = "0";
  if (wrapper::wrapperOpOf(*n) == wrapper::WrapperOp::View) {
    const auto &args = n->args().items();
    if (args.size() < 4 || !args[0].isNode())
      return Error("wrapper-cpp: view '" + n->name() + "' has no base");
    base = args[0].asNode();
    auto off = sizeText(args[3]);
    if (!off)
      return Error("wrapper-cpp: a view with a size expression that has no C++ form");
    offset = off.take();
  }
  auto storage = valueOf(base);
  if (!storage)
    return storage.takeError();
  return deviceTensor(*storage, *t, t->sizes, t->strides, offset);
}

Status CppWriter::allocation(const Node &n) {
  const TensorType *t = n.value().tensor();
  if (!t)
    return Error("wrapper-cpp: allocation '" + n.name() + "' has no type");
  auto bytes = expr(Buffer{n.name(), *t}.storageBytes());
  if (!bytes)
    return bytes.takeError();
  const auto &args = n.args().items();
  switch (wrapper::wrapperOpOf(n)) {
  case wrapper::WrapperOp::AllocFromPool:
    if (args.size() < 2 || args[1].kind() != Argument::Kind::Int)
      return Error("wrapper-cpp: pool buffer '" + n.name() + "' has no offset");
    line("Storage " + n.name() + " = sub(pool, " + std::to_string(args[1].asInt()) + ", " + *bytes +
         ");");
    break;
  case wrapper::WrapperOp::Reuse: {
    auto r = wrapper::asReuse(n);
    auto donor = valueOf(r->donor);
    if (!donor)
      return Error("wrapper-cpp: " + n.name() + " reuses a buffer that was never allocated");
    line("Storage " + n.name() + " = sub(" + *donor + ", 0, " + *bytes + ");  // reuse");
    break;
  }
  default:
    line("Storage " + n.name() + ";");
    line("FXKIT_TRY(rt_.allocate(" + *bytes + ", &" + n.name() + "));");
  }
  values_[&n] = n.name();
  return Status::ok();
}

Status CppWriter::kernel(const Node &n, const wrapper::KernelCall &call, const Kernel &k) {
  const opencl::GeneratedKernel &g = generated_.launches[call.launch];
  auto found = definition_.find(g.name);
  if (found == definition_.end()) {
    std::string var = "kSource_" + g.name;
    kernelDefs_ += "const char *const " + var + " = " +
                   cppRawString(opencl::GeneratedProgram::prelude(g.usesDouble) + "\n" + g.source) +
                   ";\n\n";
    std::string entry = "          {" + cppString(g.name) + ", " + var + ", " +
                        (g.isReduction ? "true" : "false") + ", nullptr, 0";
    if (!g.pointFunction.empty()) {
      // Its body at one point, for the GEMM template to run as the product's epilogue
      // (rt::KernelSource::pointFunction; Runtime::callExtern).
      std::string point = "kPoint_" + g.name;
      kernelDefs_ += "const char *const " + point + " = " + cppRawString(g.pointFunction) + ";\n\n";
      entry += ", " + std::to_string(std::max(1, g.isReduction ? 1 : g.vectorWidth)) + ", " +
               point + ", " + cppString(g.pointParams) + ", " + cppString(g.pointArgs) + ", " +
               (g.usesDouble ? "true" : "false");
    } else if (!g.isReduction && g.vectorWidth > 1) {
      entry += ", " + std::to_string(g.vectorWidth);
    }
    kernelTable_ += entry + "},\n";
    found = definition_.emplace(g.name, definition_.size()).first;
    // Multi-kernel variants after every kernel (a launch names its kernel by its index): the
    // runtime times them against it where it uses them (rt::KernelSource::variantOf).
    for (const opencl::KernelVariant &v : g.variants) {
      std::string vvar = "kSource_" + v.name;
      kernelDefs_ +=
          "const char *const " + vvar + " = " +
          cppRawString(opencl::GeneratedProgram::prelude(g.usesDouble) + "\n" + v.source) + ";\n\n";
      variantTable_ += "          {" + cppString(v.name) + ", " + vvar + ", " +
                       (g.isReduction ? "true" : "false") + ", " + cppString(g.name) + ", " +
                       std::to_string(v.persistentPoints) + "},\n";
    }
  }
  // The launch's arguments by name, as the OpenCL kernel names its parameters (in_ptr0,
  // out_ptr0, ks0, s77, xnumel).
  std::map<std::string_view, const Argument *> byName;
  for (size_t i = 0; i < call.args->dictSize(); ++i)
    byName[call.args->dictKey(i)] = &call.args->dictValue(i);
  std::string args;
  std::vector<std::string> nanChecks; ///< Inductor's nan_asserts: after the launch, when on
  for (const opencl::KernelParam &param : g.params) {
    std::string a;
    switch (param.kind) {
    case opencl::KernelParam::Kind::Buffer: {
      auto it = byName.find(param.name);
      auto storage = it != byName.end() && it->second->isNode() ? valueOf(it->second->asNode())
                                                                : Expected<std::string>(Error(""));
      if (!storage)
        return Error("wrapper-cpp: kernel " + g.name + " uses " + p_.buffers[param.buffer].name +
                     " before it is allocated");
      a = std::string(param.written ? "KernelArg::out(" : "KernelArg::in(") + *storage + ")";
      const TensorType *t = it->second->asNode()->value().tensor();
      if (param.written && t && dtypeIsFloating(t->dtype)) {
        auto tensor = tensorOf(it->second->asNode());
        if (!tensor)
          return tensor.takeError();
        nanChecks.push_back("if (rt_.nanAsserts()) FXKIT_TRY(rt_.checkFinite(" + *tensor + ", " +
                            cppString(it->second->asNode()->name()) + ", " + cppString(g.name) +
                            "));");
      }
      break;
    }
    case opencl::KernelParam::Kind::Size:
    case opencl::KernelParam::Kind::Numel: {
      auto it = byName.find(param.name);
      auto e = it != byName.end() ? sizeText(*it->second) : expr(param.value);
      if (!e)
        return e.takeError();
      a = "KernelArg::size(" + *e + ")";
      break;
    }
    case opencl::KernelParam::Kind::Lanes:
      a = param.name == "fx_L" ? "KernelArg::lanes()" : "KernelArg::rows()";
      break;
    case opencl::KernelParam::Kind::Scratch:
      a = "KernelArg::scratch(" + std::to_string(g.scratchBytesPerItem) + ")";
      break;
    }
    args += (args.empty() ? "" : ",\n                                 ") + a;
  }
  // The iteration space the launch passes (a pointwise launch passes no rnumel: one point).
  auto numel = [&](std::string_view key) {
    auto it = byName.find(key);
    return it == byName.end() ? expr(SymExpr(int64_t(1))) : sizeText(*it->second);
  };
  auto x = numel("xnumel"), r = numel("rnumel");
  if (!x || !r)
    return Error("wrapper-cpp: kernel " + g.name + ": its iteration space has no C++ form");
  line("// " + k.name);
  line("FXKIT_TRY(rt_.launch(*kernels_, " + std::to_string(found->second) + ", {" + args +
       "},\n                       " + *x + ", " + *r + "));");
  for (const std::string &check : nanChecks)
    line(check);
  return Status::ok();
}

Status CppWriter::externCall(const Node &n, const wrapper::ExternCall &call, const LoopOp &op,
                             const wrapper::ExternResults &results) {
  const Node *node = op.externNode;
  FXKIT_ASSIGN_OR_RETURN(auto operands, externOperands(call, op, "wrapper-cpp"));
  // The op alone as an FX graph: one placeholder per distinct argument node, in the order the
  // runtime passes them; the tensors are the call's inputs, in order.
  Graph g;
  std::map<Node *, Node *> map;
  std::string inputs;
  for (const ExternOperand &o : operands) {
    const Node *in = o.node;
    map[const_cast<Node *>(in)] = g.create(OpKind::Placeholder, in->name(), in->name());
    std::string input;
    if (!o.input) {
      auto e = expr(*in->value().sym());
      if (!e)
        return e.takeError();
      input = "ExternInput::of(int64_t(" + *e + "))";
    } else {
      const Argument &v = *o.input;
      if (!v.isNode())
        return Error("wrapper-cpp: extern op '" + node->name() + "' reads no tensor");
      auto t = tensorOf(v.asNode());
      if (!t)
        return Error("wrapper-cpp: extern op '" + node->name() + "' reads " + v.asNode()->name() +
                     " before it is written");
      input = "ExternInput::of(" + *t + ")";
    }
    inputs += (inputs.empty() ? "" : ",\n                                    ") + input;
  }
  Argument args = node->args(), kwargs = node->kwargs();
  auto remap = [&map](Node *n) { return map.at(n); };
  args.mapNodes(remap);
  kwargs.mapNodes(remap);
  Node *c = g.create(OpKind::CallFunction, node->name(), node->target(), args, kwargs);
  g.create(OpKind::Output, "output", "output", Argument::tuple({Argument::node(c)}));
  std::string var = "kExtern" + std::to_string(externs_ - 1);
  externDefs_ += "/// " + op.name + ": " + std::string(node->target()) + "\n";
  externDefs_ += "const char *const " + var + " = " + cppRawString(printFxText(g)) + ";\n\n";
  std::string origins;
  for (const std::string &o : op.origins)
    origins += (origins.empty() ? "" : ", ") + o;
  const auto &outs = call.out->items();

  if (results.empty()) {
    std::string outputs;
    for (const Argument &o : outs) {
      std::string out = "DeviceTensor{}";
      if (o.isNode()) {
        auto d = tensorOf(o.asNode());
        if (!d)
          return d.takeError();
        out = *d;
      }
      outputs += (outputs.empty() ? "" : ",\n                                    ") + out;
    }
    line("// " + op.name + ": extern " + std::string(node->target()) + " (" + origins + ")");
    const std::string epilogue = epilogueOf(op);
    line("FXKIT_TRY(rt_.callExtern(" + var + ", {" + inputs + "},\n                           {" +
         outputs + "}" + (epilogue.empty() ? "" : ", " + cppString(epilogue)) + "));");
    return Status::ok();
  }

  // It defines unbacked symbols: run on the host, its symbols read from the result (Inductor's
  // codegen_unbacked_symbol_defs), its checks made, the outputs they size uploaded.
  std::string result = var + "_result";
  line("// " + op.name + ": extern " + std::string(node->target()) + " (" + origins +
       "), on the host: it defines unbacked symbols");
  line("ExternResult " + result + ";");
  line("FXKIT_TRY(rt_.callExternOnHost(" + var + ", {" + inputs +
       "},\n                           &" + result + "));");
  for (const wrapper::ExternResults::Symbol &s : results.symbols)
    line("const int64_t " + std::string(s.name) + " = " + result +
         (s.output < 0
              ? ".value"
              : ".tensors[" + std::to_string(s.output) + "].sizes[" + std::to_string(s.dim) + "]") +
         ";");
  for (const Node *c : results.checks) {
    auto cond = condition(c->args().items()[0].asSym());
    if (!cond)
      return cond.takeError();
    line("if (!" + *cond + ")");
    line("  return Status::error(" + cppString(c->args().items()[1].asString()) + ");");
  }
  std::vector<std::string> symbols;
  for (const wrapper::ExternResults::Symbol &s : results.symbols)
    symbols.emplace_back(s.name);
  checkBoundBuffers(symbols);
  for (size_t i = 0; i < outs.size(); ++i) {
    if (outs[i].isNode())
      return Error("wrapper-cpp: extern op '" + node->name() +
                   "' defines unbacked symbols and has an output of a size known before it runs");
    auto it = results.sized.find(static_cast<int64_t>(i));
    if (it == results.sized.end())
      continue;
    const TensorType *t = it->second->value().tensor();
    if (!t || i >= op.externOutputs.size() || op.externOutputs[i] < 0)
      return Error("wrapper-cpp: extern result '" + it->second->name() + "' has no buffer");
    // Named as the loop program names the buffer.
    const std::string &name = p_.buffers[op.externOutputs[i]].name;
    auto sizes = list(t->sizes), strides = list(t->strides);
    auto bytes = expr(Buffer{name, *t}.storageBytes());
    if (!sizes || !strides || !bytes)
      return Error("wrapper-cpp: " + name + " has sizes with no C++ form");
    line("DeviceTensor " + name + "_d;");
    line("FXKIT_TRY(rt_.upload(" + result + ".tensors[" + std::to_string(i) + "], \"" + name +
         "\", \"" + std::string(dtypeName(t->dtype)) + "\", " + *sizes + ", " + *strides + ", " +
         *bytes + ", &" + name + "_d));");
    values_[it->second] = name + "_d.storage";
  }
  return Status::ok();
}

Expected<std::string> CppWriter::condition(const SymExpr &c) {
  using K = SymExpr::Kind;
  if (c.isConstant())
    return std::string(c.constant() != 0 ? "true" : "false");
  auto ops = c.operands();
  // Comparisons take integer operands, logical operators conditions.
  auto integer = [&](const SymExpr &e) -> Expected<std::string> {
    auto v = expr(e);
    if (!v)
      return v;
    return "int64_t(" + *v + ")";
  };
  auto binary = [&](const char *op, bool logical) -> Expected<std::string> {
    if (ops.size() != 2)
      return Error("wrapper-cpp: a check with no C++ form: " + c.str());
    auto a = logical ? condition(ops[0]) : integer(ops[0]);
    auto b = logical ? condition(ops[1]) : integer(ops[1]);
    if (!a || !b)
      return Error("wrapper-cpp: a check with no C++ form: " + c.str());
    return "(" + *a + " " + op + " " + *b + ")";
  };
  switch (c.kind()) {
  case K::Lt:
    return binary("<", false);
  case K::Le:
    return binary("<=", false);
  case K::Gt:
    return binary(">", false);
  case K::Ge:
    return binary(">=", false);
  case K::Eq:
    return binary("==", false);
  case K::Ne:
    return binary("!=", false);
  case K::BitAnd:
  case K::And:
    return binary("&&", true);
  case K::BitOr:
  case K::Or:
    return binary("||", true);
  case K::Not:
  case K::Invert: {
    auto a = condition(ops[0]);
    if (!a)
      return a;
    return "!" + *a;
  }
  case K::Paren:
    return condition(ops[0]);
  case K::Named:
    if (c.name() == "True" || c.name() == "False")
      return std::string(c.name() == "True" ? "true" : "false");
    break;
  case K::Int:
  case K::Symbol:
  case K::Add:
  case K::Sub:
  case K::Mul:
  case K::TrueDiv:
  case K::FloorDiv:
  case K::Mod:
  case K::Pow:
  case K::Neg:
  case K::Call:
  case K::Float:
  case K::Tuple:
  case K::BitXor:
    break;
  }
  auto e = integer(c); // an integer as a condition: nonzero
  if (!e)
    return Error("wrapper-cpp: a check with no C++ form: " + c.str());
  return "(" + *e + " != 0)";
}

Status CppWriter::output(const Node &n) {
  line("FXKIT_TRY(rt_.finish());");
  line("outputs->clear();");
  for (const Argument &o : n.args().items().at(0).items()) {
    if (o.isNone()) {
      line("outputs->push_back(fxkit::rt::Value());");
      continue;
    }
    if (!o.isNode() || !o.asNode()->value().tensor()) {
      auto e = sizeText(o);
      if (!e)
        return e.takeError();
      line("outputs->push_back(fxkit::rt::Value::of(int64_t(" + *e + ")));");
      continue;
    }
    auto t = tensorOf(o.asNode());
    if (!t)
      return t.takeError();
    line("{");
    line("  fxkit::rt::HostTensor result;");
    line("  FXKIT_TRY(rt_.download(" + *t + ", &result));");
    line("  outputs->push_back(fxkit::rt::Value::of(std::move(result)));");
    line("}");
  }
  return Status::ok();
}

Expected<WrapperCppFiles> CppWriter::run(const std::string &rawName,
                                         const std::string &runtimeCmake) {
  // With every multi-kernel variant: the runtime decides on its device whether to time them.
  opencl::GenerateOptions options;
  options.variants = true;
  auto gen = opencl::generateOpenCL(p_, f_, options);
  if (!gen)
    return gen.takeError();
  generated_ = gen.take();
  WrapperCppFiles files;
  files.name = wrapper::isIdentifier(rawName) ? rawName : "model";

  // Signature, symbol bindings, checks and uploads.
  WrapperEntry entry = wrapperEntry(w_);
  const std::vector<WrapperParam> &params = entry.params;
  std::string typed, docs, unpack;
  std::set<std::string> bound;
  for (size_t i = 0; i < params.size(); ++i) {
    const WrapperParam &param = params[i];
    std::string idx = std::to_string(i);
    const TensorType *t = param.node->value().tensor();
    if (!t) {
      const SymExpr *sym = param.node->value().sym();
      typed += "int64_t " + param.name + ", ";
      docs +=
          "  ///   " + param.name + ": the size " + (sym ? sym->str() : param.node->name()) + "\n";
      unpack += "  if (inputs[" + idx +
                "].kind != fxkit::rt::Value::Kind::Integer)\n"
                "    return Status::error(\"input " +
                idx + " (" + param.name + ") must be an integer\");\n";
      if (sym && sym->kind() == SymExpr::Kind::Symbol && !bound.count(std::string(sym->name()))) {
        bound.insert(std::string(sym->name()));
        if (sym->name() != param.name)
          line("const int64_t " + std::string(sym->name()) + " = " + param.name + ";");
      }
      continue;
    }
    typed += "const fxkit::rt::HostTensor &" + param.name + ", ";
    docs += "  ///   " + param.name + ": " + t->str() + "\n";
    unpack += "  if (inputs[" + idx +
              "].kind != fxkit::rt::Value::Kind::Tensor)\n"
              "    return Status::error(\"input " +
              idx + " (" + param.name + ") must be a tensor\");\n";
    line("if (" + param.name + ".sizes.size() != " + std::to_string(t->sizes.size()) + ")");
    line("  return Status::error(\"" + param.name + ": expected " +
         std::to_string(t->sizes.size()) + " dimensions\");");
    for (const Node *s : entry.inputSizes)
      if (s->args().items()[0].asNode() == param.node)
        line("const int64_t " + std::string(s->value().sym()->name()) + " = " + param.name +
             ".sizes[" + std::to_string(s->args().items()[1].asInt()) + "];");
  }
  for (const WrapperParam &param : params) {
    const TensorType *t = param.node->value().tensor();
    if (!t)
      continue;
    auto sizes = list(t->sizes), strides = list(t->strides);
    auto bytes = expr(Buffer{param.name, *t}.storageBytes());
    if (!sizes || !strides || !bytes)
      return Error("wrapper-cpp: input " + param.name + " has sizes with no C++ form");
    line("DeviceTensor " + param.name + "_d;");
    line("FXKIT_TRY(rt_.upload(" + param.name + ", \"" + param.name + "\", \"" +
         std::string(dtypeName(t->dtype)) + "\", " + *sizes + ", " + *strides + ", " + *bytes +
         ", &" + param.name + "_d));");
    values_[param.node] = param.name + "_d.storage";
  }

  // The program: allocations, launches and extern calls, frees, outputs.
  if (Status s = walk(entry.body); !s)
    return s.takeError();
  line("return Status::ok();");

  std::string call;
  for (size_t i = 0; i < params.size(); ++i)
    call += (params[i].node->value().tensor() ? "inputs[" + std::to_string(i) + "].tensor"
                                              : "inputs[" + std::to_string(i) + "].integer") +
            std::string(", ");

  std::string banner =
      "// Generated by fxkit (--to wrapper-cpp): " + std::to_string(launches_) +
      " kernel launches, " + std::to_string(externs_) + " extern calls" +
      (poolBytes_ >= 0 ? ", one pool of " + std::to_string(poolBytes_) + " bytes" : "") + ".\n";
  const std::string &name = files.name;
  files.header = banner +
                 "#pragma once\n\n#include \"backends/opencl/rt/WrapperRuntime.h\"\n\n"
                 "#include <cstdint>\n#include <memory>\n#include <vector>\n\n"
                 "namespace fxkit_generated::" +
                 name +
                 " {\n\n"
                 "class Model final : public fxkit::rt::Model {\n"
                 "public:\n"
                 "  /// Starts building the kernels on the runtime's device; returns at once.\n"
                 "  explicit Model(fxkit::rt::Runtime &rt);\n"
                 "  const char *name() const override { return \"" +
                 name + "\"; }\n  size_t numInputs() const override { return " +
                 std::to_string(params.size()) + "; }\n  /// Runs the program. Inputs:\n" + docs +
                 "  fxkit::rt::Status run(" + typed +
                 "std::vector<fxkit::rt::Value> *outputs);\n"
                 "  fxkit::rt::Status run(const std::vector<fxkit::rt::Value> &inputs,\n"
                 "                        std::vector<fxkit::rt::Value> *outputs) override;\n\n"
                 "private:\n  fxkit::rt::Runtime &rt_;\n"
                 "  std::shared_ptr<fxkit::rt::Kernels> kernels_;\n};\n\n} // namespace "
                 "fxkit_generated::" +
                 name +
                 "\n\n/// A new Model on `rt`, for programs that load the compiled wrapper at run "
                 "time.\nextern \"C\" fxkit::rt::Model *" +
                 wrapperFactorySymbol(name) + "(fxkit::rt::Runtime *rt);\n";
  files.source =
      banner + "#include \"" + name + ".h\"\n\n#include <utility>\n\n" + kPreamble +
      opencl::pyIndexArithmetic("int64_t") + kPreambleAfterIndexArithmetic + "\n" + kernelDefs_ +
      externDefs_ + "} // namespace\n\nnamespace fxkit_generated::" + name +
      " {\n\nModel::Model(fxkit::rt::Runtime &rt)\n    : rt_(rt), kernels_(rt.loadKernels(\n"
      "          {\n" +
      kernelTable_ + variantTable_ + "          },\n          " +
      cppString(opencl::openclBuildOptions(p_, generated_)) + ")) {}\n\nStatus Model::run(" +
      typed + "std::vector<fxkit::rt::Value> *outputs) {\n" + body_ +
      "}\n\nStatus Model::run(const std::vector<fxkit::rt::Value> &inputs,\n"
      "                  std::vector<fxkit::rt::Value> *outputs) {\n"
      "  if (inputs.size() != " +
      std::to_string(params.size()) + ")\n    return Status::error(\"expected " +
      std::to_string(params.size()) + " inputs, got \" + std::to_string(inputs.size()));\n" +
      unpack + "  return run(" + call + "outputs);\n}\n\n} // namespace fxkit_generated::" + name +
      "\n\nextern \"C\" fxkit::rt::Model *" + wrapperFactorySymbol(name) +
      "(fxkit::rt::Runtime *rt) {\n  return new fxkit_generated::" + name + "::Model(*rt);\n}\n";
  files.driver = "// Generated by fxkit: runs " + name +
                 " on a safetensors file of inputs (see backends/opencl/rt/Driver.h).\n"
                 "#include \"" +
                 name +
                 ".h\"\n\n#include \"backends/opencl/rt/Driver.h\"\n\n"
                 "int main(int argc, char **argv) {\n"
                 "  return fxkit::rt::driverMain(argc, argv, [](fxkit::rt::Runtime &rt) {\n"
                 "    return std::unique_ptr<fxkit::rt::Model>(new fxkit_generated::" +
                 name + "::Model(rt));\n  });\n}\n";
  files.cmake =
      "# Generated by fxkit: builds the " + name +
      " library and its driver against fxkit's wrapper runtime.\n"
      "cmake_minimum_required(VERSION 3.16)\nproject(" +
      name +
      " CXX)\nset(CMAKE_CXX_STANDARD 17)\nset(CMAKE_CXX_STANDARD_REQUIRED ON)\n"
      "set(FXKIT_RUNTIME_CMAKE \"" +
      runtimeCmake +
      "\"\n    CACHE FILEPATH \"fxkit's runtime package (fxkit-runtime.cmake in fxkit's build "
      "folder)\")\n"
      "if(NOT EXISTS \"${FXKIT_RUNTIME_CMAKE}\")\n"
      "  message(FATAL_ERROR \"fxkit runtime package not found at "
      "'${FXKIT_RUNTIME_CMAKE}': pass -DFXKIT_RUNTIME_CMAKE=<fxkit build>/fxkit-runtime.cmake\")\n"
      "endif()\ninclude(\"${FXKIT_RUNTIME_CMAKE}\")\n"
      "add_library(" +
      name + " " + name + ".cpp)\ntarget_link_libraries(" + name +
      " PUBLIC fxkit::runtime)\nadd_executable(" + name +
      "_driver driver.cpp)\n"
      "target_link_libraries(" +
      name + "_driver PRIVATE " + name + ")\n";
  return files;
}

} // namespace

Expected<WrapperCppFiles> writeWrapperCpp(const LoopProgram &program, const FusedProgram &fused,
                                          const MemoryPlan &plan, const std::string &name,
                                          const std::string &runtimeCmake) {
  if (plan.buffers.size() != program.buffers.size())
    return Error("wrapper-cpp: the memory plan does not match the program");
  auto wrapper = buildWrapperGraph(program, fused, &plan);
  if (!wrapper)
    return wrapper.takeError();
  return CppWriter(program, fused, *wrapper, "wrapper-cpp").run(name, runtimeCmake);
}

Expected<WrapperCppFiles> writeWrapperCpp(Graph &graph, const std::string &name,
                                          const std::string &runtimeCmake) {
  CompilationState *state = compilationState(graph);
  if (!state || !state->program || !state->fused || !state->plan)
    return Error("wrapper-cpp needs the planned program: run the passes lower, fuse and plan "
                 "(--passes lower,fuse,plan,wrapper)");
  return writeWrapperCpp(*state->program, *state->fused, *state->plan, name, runtimeCmake);
}

} // namespace fxkit
