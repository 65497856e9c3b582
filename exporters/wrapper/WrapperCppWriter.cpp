#include "exporters/wrapper/WrapperCppWriter.h"

#include "backends/opencl/codegen/OpenCLKernelGen.h"
#include "exporters/FxTextPrinter.h"
#include "exporters/wrapper/WrapperSignature.h"
#include "ir/Node.h"
#include "ir/ops/ArgumentNodes.h"
#include "ir/ops/OpRegistry.h"
#include "ir/ops/ShapeRules.h"
#include "ir/wrapper/WrapperDialect.h"
#include "transforms/CompilationState.h"

#include <map>
#include <set>

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

std::string cppString(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

const char *const kPreamble = R"CPP(namespace {

using fxkit::rt::DeviceTensor;
using fxkit::rt::ExternInput;
using fxkit::rt::ExternResult;
using fxkit::rt::KernelArg;
using fxkit::rt::Status;
using fxkit::rt::Storage;

/// Python's floor division and modulo, as the size expressions use them.
inline int64_t fx_floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
inline int64_t fx_mod(int64_t a, int64_t b) {
  int64_t r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
inline int64_t fx_ceildiv(int64_t a, int64_t b) { return -fx_floordiv(-a, b); }
inline int64_t fx_truncdiv(int64_t a, int64_t b) { return a / b; }
/// Max and Min of sizes, spelled as the OpenCL C the same printer writes for kernels.
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

class CppWriter {
public:
  CppWriter(const LoopProgram &p, const FusedProgram &f, const MemoryPlan &plan)
      : p_(p), f_(f), plan_(plan) {}
  Expected<WrapperCppFiles> run(const std::string &name, const std::string &runtimeCmake);

private:
  void line(const std::string &s) { body_ += "  " + s + "\n"; }
  Expected<std::string> expr(const SymExpr &e) {
    return opencl::printCIntExpr(e.isConstant() ? e : e.simplify());
  }
  Expected<std::string> list(const std::vector<SymExpr> &xs);
  Expected<std::string> deviceTensor(const std::string &storage, const TensorType &type,
                                     const std::vector<SymExpr> &sizes,
                                     const std::vector<SymExpr> &strides, const SymExpr &offset);
  Status allocate(int32_t b);
  Status emitKernel(size_t k);
  Status emitExtern(const Kernel &k);
  /// An extern op that binds unbacked symbols (`var`: its FX text, `inputs`: its arguments):
  /// run on the host, its symbols read from the result (Inductor's
  /// codegen_unbacked_symbol_defs), its checks made, the outputs they size uploaded.
  Status emitDefiningExtern(const LoopOp &op, const std::string &var, const std::string &inputs);
  /// A run-time check's condition as a C++ bool expression.
  Expected<std::string> condition(const SymExpr &c);

  const LoopProgram &p_;
  const FusedProgram &f_;
  const MemoryPlan &plan_;
  opencl::GeneratedProgram generated_;
  std::map<std::string, size_t> definition_; ///< kernel name -> index in kernelTable_
  std::string kernelDefs_, kernelTable_, externDefs_, body_;
  std::vector<std::string> storage_; ///< per buffer: the C++ expression of its Storage
  std::map<int32_t, int> reusers_;
  bool pool_ = false;
  int externs_ = 0;
};

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
                                              const SymExpr &offset) {
  auto s = list(sizes), st = list(strides);
  auto off = expr(offset);
  if (!s || !st || !off)
    return Error("wrapper-cpp: a view with a size expression that has no C++ form");
  return "DeviceTensor{" + storage + ", \"" + std::string(dtypeName(type.dtype)) + "\", " + *s +
         ", " + *st + ", " + *off + "}";
}

Status CppWriter::allocate(int32_t b) {
  const Buffer &buf = p_.buffers[b];
  const BufferPlacement &place = plan_.buffers[b];
  auto bytes = expr(buf.storageBytes());
  if (!bytes)
    return bytes.takeError();
  if (place.kind == BufferPlacement::Kind::Pool && pool_) {
    line("Storage " + buf.name + " = sub(pool, " + std::to_string(place.offset) + ", " + *bytes +
         ");");
  } else if (place.kind == BufferPlacement::Kind::InPlace ||
             (place.kind == BufferPlacement::Kind::Own && place.reuseOf >= 0)) {
    int32_t from = place.kind == BufferPlacement::Kind::InPlace ? place.inPlaceOf : place.reuseOf;
    if (from < 0 || storage_[from].empty())
      return Error("wrapper-cpp: " + buf.name + " reuses a buffer that was never allocated");
    line("Storage " + buf.name + " = sub(" + storage_[from] + ", 0, " + *bytes + ");  // reuse");
    if (place.kind == BufferPlacement::Kind::Own)
      --reusers_[from];
  } else {
    line("Storage " + buf.name + ";");
    line("FXKIT_TRY(rt_.allocate(" + *bytes + ", &" + buf.name + "));");
  }
  storage_[b] = buf.name;
  return Status::ok();
}

Status CppWriter::emitKernel(size_t k) {
  const opencl::GeneratedKernel &g = generated_.launches[k];
  auto found = definition_.find(g.name);
  if (found == definition_.end()) {
    std::string var = "kSource_" + g.name;
    kernelDefs_ += "const char *const " + var + " = " +
                   cppRawString(opencl::GeneratedProgram::prelude(g.usesDouble) + "\n" + g.source) +
                   ";\n\n";
    kernelTable_ += "          {" + cppString(g.name) + ", " + var + ", " +
                    (g.isReduction ? "true" : "false") + "},\n";
    found = definition_.emplace(g.name, definition_.size()).first;
  }
  std::string args;
  for (const opencl::KernelParam &param : g.params) {
    std::string a;
    switch (param.kind) {
    case opencl::KernelParam::Kind::Buffer:
      if (storage_[param.buffer].empty())
        return Error("wrapper-cpp: kernel " + g.name + " uses " + p_.buffers[param.buffer].name +
                     " before it is allocated");
      a = std::string(param.written ? "KernelArg::out(" : "KernelArg::in(") +
          storage_[param.buffer] + ")";
      break;
    case opencl::KernelParam::Kind::Size:
    case opencl::KernelParam::Kind::Numel: {
      auto e = expr(param.value);
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
  auto x = expr(g.xnumel), r = expr(g.rnumel);
  if (!x || !r)
    return Error("wrapper-cpp: kernel " + g.name + ": its iteration space has no C++ form");
  line("// " + f_.kernels[k].name);
  line("FXKIT_TRY(rt_.launch(*kernels_, " + std::to_string(found->second) + ", {" + args +
       "},\n                       " + *x + ", " + *r + "));");
  return Status::ok();
}

Status CppWriter::emitExtern(const Kernel &k) {
  const LoopOp &op = p_.ops[k.ops.front()];
  const Node *node = op.externNode;
  if (!node)
    return Error("wrapper-cpp: extern kernel " + k.name + " has no ATen node");
  const OpInfo *info = OpRegistry::instance().lookup(node->target());
  if (!info)
    return Error("wrapper-cpp: unknown extern op " + std::string(node->target()));
  auto bound = bindArgs(*node, *info);
  if (!bound)
    return bound.takeError();
  // The op alone as an FX graph: one placeholder per distinct argument node, in the order the
  // runtime passes them; the tensors are the lowered inputs, in order.
  Graph g;
  std::map<Node *, Node *> map;
  std::string inputs;
  size_t next = 0;
  for (const Node *in : argumentNodes(*bound)) {
    Node *key = const_cast<Node *>(in);
    if (map.count(key))
      continue;
    map[key] = g.create(OpKind::Placeholder, in->name(), in->name());
    std::string input;
    if (const SymExpr *s = in->value().sym()) {
      auto e = expr(*s);
      if (!e)
        return e.takeError();
      input = "ExternInput::of(int64_t(" + *e + "))";
    } else {
      if (next >= op.externInputs.size())
        return Error("wrapper-cpp: extern op '" + node->name() + "' has more inputs than lowered");
      const BufferView &v = op.externInputs[next++];
      if (storage_[v.buffer].empty())
        return Error("wrapper-cpp: extern op '" + node->name() + "' reads " +
                     p_.buffers[v.buffer].name + " before it is written");
      auto t =
          deviceTensor(storage_[v.buffer], p_.buffers[v.buffer].type, v.sizes, v.strides, v.offset);
      if (!t)
        return t.takeError();
      input = "ExternInput::of(" + *t + ")";
    }
    inputs += (inputs.empty() ? "" : ",\n                                    ") + input;
  }
  Argument args = node->args(), kwargs = node->kwargs();
  auto remap = [&map](Node *n) { return map.at(n); };
  args.mapNodes(remap);
  kwargs.mapNodes(remap);
  Node *call = g.create(OpKind::CallFunction, node->name(), node->target(), args, kwargs);
  g.create(OpKind::Output, "output", "output", Argument::tuple({Argument::node(call)}));
  std::string var = "kExtern" + std::to_string(externs_++);
  externDefs_ += "/// " + op.name + ": " + std::string(node->target()) + "\n";
  externDefs_ += "const char *const " + var + " = " + cppRawString(printFxText(g)) + ";\n\n";

  if (!op.defines.empty())
    return emitDefiningExtern(op, var, inputs);
  std::string outputs;
  for (int32_t b : op.externOutputs) {
    std::string out = "DeviceTensor{}";
    if (b >= 0) {
      const TensorType &t = p_.buffers[b].type;
      auto d = deviceTensor(storage_[b], t, t.sizes, t.strides, SymExpr(int64_t(0)));
      if (!d)
        return d.takeError();
      out = *d;
    }
    outputs += (outputs.empty() ? "" : ",\n                                    ") + out;
  }
  std::string origins;
  for (const std::string &o : op.origins)
    origins += (origins.empty() ? "" : ", ") + o;
  line("// " + op.name + ": extern " + std::string(node->target()) + " (" + origins + ")");
  line("FXKIT_TRY(rt_.callExtern(" + var + ", {" + inputs + "},\n                           {" +
       outputs + "}));");
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

Status CppWriter::emitDefiningExtern(const LoopOp &op, const std::string &var,
                                     const std::string &inputs) {
  std::string origins;
  for (const std::string &o : op.origins)
    origins += (origins.empty() ? "" : ", ") + o;
  std::string result = var + "_result";
  line("// " + op.name + ": extern " + std::string(op.externNode->target()) + " (" + origins +
       "), on the host: it defines unbacked symbols");
  line("ExternResult " + result + ";");
  line("FXKIT_TRY(rt_.callExternOnHost(" + var + ", {" + inputs +
       "},\n                           &" + result + "));");
  for (const SymbolDef &d : op.defines)
    line("const int64_t " + d.symbol + " = " +
         (d.output < 0 ? result + ".value"
                       : result + ".tensors[" + std::to_string(d.output) + "].sizes[" +
                             std::to_string(d.dim) + "]") +
         ";");
  for (const RuntimeCheck &c : op.checks) {
    auto cond = condition(c.condition);
    if (!cond)
      return cond.takeError();
    line("if (!" + *cond + ")");
    line("  return Status::error(" + cppString(c.message + " (node " + c.node + ")") + ");");
  }
  for (size_t i = 0; i < op.externOutputs.size(); ++i) {
    int32_t b = op.externOutputs[i];
    if (b < 0)
      continue;
    if (!op.definesSizeOf(i))
      return Error("wrapper-cpp: extern op '" + op.externNode->name() +
                   "' defines unbacked symbols and has an output of a size known before it runs");
    const Buffer &buf = p_.buffers[b];
    auto sizes = list(buf.type.sizes), strides = list(buf.type.strides);
    auto bytes = expr(buf.storageBytes());
    if (!sizes || !strides || !bytes)
      return Error("wrapper-cpp: " + buf.name + " has sizes with no C++ form");
    line("DeviceTensor " + buf.name + "_d;");
    line("FXKIT_TRY(rt_.upload(" + result + ".tensors[" + std::to_string(i) + "], \"" + buf.name +
         "\", \"" + std::string(dtypeName(buf.type.dtype)) + "\", " + *sizes + ", " + *strides +
         ", " + *bytes + ", &" + buf.name + "_d));");
    storage_[b] = buf.name + "_d.storage";
  }
  return Status::ok();
}

Expected<WrapperCppFiles> CppWriter::run(const std::string &rawName,
                                         const std::string &runtimeCmake) {
  if (plan_.buffers.size() != p_.buffers.size())
    return Error("wrapper-cpp: the memory plan does not match the program");
  auto gen = opencl::generateOpenCL(p_, f_);
  if (!gen)
    return gen.takeError();
  generated_ = gen.take();
  storage_.assign(p_.buffers.size(), "");
  for (const BufferPlacement &b : plan_.buffers)
    if (b.kind == BufferPlacement::Kind::Own && b.reuseOf >= 0)
      ++reusers_[b.reuseOf];

  WrapperCppFiles files;
  files.name = wrapper::isIdentifier(rawName) ? rawName : "model";

  // Signature, symbol bindings, checks and uploads.
  std::vector<WrapperParam> params = wrapperSignature(p_);
  std::string typed, docs, unpack;
  std::set<std::string> bound;
  for (size_t i = 0; i < params.size(); ++i) {
    const WrapperParam &param = params[i];
    std::string idx = std::to_string(i);
    if (param.buffer < 0) {
      typed += "int64_t " + param.name + ", ";
      docs += "  ///   " + param.name + ": the size " + p_.inputSymbols[i] + "\n";
      unpack += "  if (inputs[" + idx +
                "].kind != fxkit::rt::Value::Kind::Integer)\n"
                "    return Status::error(\"input " +
                idx + " (" + param.name + ") must be an integer\");\n";
      if (auto sym = SymExpr::parse(p_.inputSymbols[i]);
          sym && sym->kind() == SymExpr::Kind::Symbol && !bound.count(std::string(sym->name()))) {
        bound.insert(std::string(sym->name()));
        if (sym->name() != param.name)
          line("const int64_t " + std::string(sym->name()) + " = " + param.name + ";");
      }
      continue;
    }
    const TensorType &t = p_.buffers[param.buffer].type;
    typed += "const fxkit::rt::HostTensor &" + param.name + ", ";
    docs += "  ///   " + param.name + ": " + t.str() + "\n";
    unpack += "  if (inputs[" + idx +
              "].kind != fxkit::rt::Value::Kind::Tensor)\n"
              "    return Status::error(\"input " +
              idx + " (" + param.name + ") must be a tensor\");\n";
    line("if (" + param.name + ".sizes.size() != " + std::to_string(t.sizes.size()) + ")");
    line("  return Status::error(\"" + param.name + ": expected " + std::to_string(t.sizes.size()) +
         " dimensions\");");
    for (size_t d = 0; d < t.sizes.size(); ++d) {
      const SymExpr &s = t.sizes[d];
      if (s.isConstant() || s.kind() != SymExpr::Kind::Symbol || bound.count(std::string(s.name())))
        continue;
      bound.insert(std::string(s.name()));
      line("const int64_t " + std::string(s.name()) + " = " + param.name + ".sizes[" +
           std::to_string(d) + "];");
    }
  }
  for (const WrapperParam &param : params) {
    if (param.buffer < 0)
      continue;
    const Buffer &buf = p_.buffers[param.buffer];
    auto sizes = list(buf.type.sizes), strides = list(buf.type.strides);
    auto bytes = expr(buf.storageBytes());
    if (!sizes || !strides || !bytes)
      return Error("wrapper-cpp: input " + param.name + " has sizes with no C++ form");
    line("DeviceTensor " + param.name + "_d;");
    line("FXKIT_TRY(rt_.upload(" + param.name + ", \"" + param.name + "\", \"" +
         std::string(dtypeName(buf.type.dtype)) + "\", " + *sizes + ", " + *strides + ", " +
         *bytes + ", &" + param.name + "_d));");
    storage_[param.buffer] = param.name + "_d.storage";
  }
  if (!plan_.symbolic && plan_.poolBytes > 0) {
    pool_ = true;
    line("Storage pool;");
    line("FXKIT_TRY(rt_.allocate(" + std::to_string(plan_.poolBytes) + ", &pool));");
  }

  // Kernels and extern ops in schedule order, storage freed as planned.
  for (size_t ki = 0; ki < f_.kernels.size(); ++ki) {
    const Kernel &k = f_.kernels[ki];
    // An extern output sized by a symbol the call binds is uploaded from its result.
    auto [writes, sizedByCall] = launchWrites(p_, k);
    for (int32_t b : writes)
      if (storage_[b].empty() && !sizedByCall.count(b))
        if (Status s = allocate(b); !s)
          return s.takeError();
    Status s = k.isExtern ? emitExtern(k) : emitKernel(ki);
    if (!s)
      return s.takeError();
    if (ki < plan_.freedAfter.size())
      for (int32_t b : plan_.freedAfter[ki])
        if (!storage_[b].empty() && !p_.buffers[b].isInput && reusers_[b] == 0)
          line(storage_[b] + " = {};");
  }
  line("FXKIT_TRY(rt_.finish());");
  line("outputs->clear();");
  for (const LoopProgram::Output &o : p_.outputs) {
    if (o.isNone) {
      line("outputs->push_back(fxkit::rt::Value());");
      continue;
    }
    if (o.view.buffer < 0) {
      auto e = expr(o.symbol);
      if (!e)
        return e.takeError();
      line("outputs->push_back(fxkit::rt::Value::of(int64_t(" + *e + ")));");
      continue;
    }
    if (storage_[o.view.buffer].empty())
      return Error("wrapper-cpp: output buffer " + p_.buffers[o.view.buffer].name +
                   " is never written");
    auto t = deviceTensor(storage_[o.view.buffer], p_.buffers[o.view.buffer].type, o.view.sizes,
                          o.view.strides, o.view.offset);
    if (!t)
      return t.takeError();
    line("{");
    line("  fxkit::rt::HostTensor result;");
    line("  FXKIT_TRY(rt_.download(" + *t + ", &result));");
    line("  outputs->push_back(fxkit::rt::Value::of(std::move(result)));");
    line("}");
  }
  line("return Status::ok();");

  std::string call;
  for (size_t i = 0; i < params.size(); ++i)
    call += (params[i].buffer < 0 ? "inputs[" + std::to_string(i) + "].integer"
                                  : "inputs[" + std::to_string(i) + "].tensor") +
            std::string(", ");

  size_t launches = 0, externCalls = 0;
  for (const Kernel &k : f_.kernels)
    (k.isExtern ? externCalls : launches)++;
  std::string banner =
      "// Generated by fxkit (--to wrapper-cpp): " + std::to_string(launches) +
      " kernel launches, " + std::to_string(externCalls) + " extern calls" +
      (pool_ ? ", one pool of " + std::to_string(plan_.poolBytes) + " bytes" : "") + ".\n";
  const std::string &n = files.name;
  files.header = banner +
                 "#pragma once\n\n#include \"backends/opencl/rt/WrapperRuntime.h\"\n\n"
                 "#include <cstdint>\n#include <memory>\n#include <vector>\n\n"
                 "namespace fxkit_generated::" +
                 n +
                 " {\n\n"
                 "class Model final : public fxkit::rt::Model {\n"
                 "public:\n"
                 "  /// Starts building the kernels on the runtime's device; returns at once.\n"
                 "  explicit Model(fxkit::rt::Runtime &rt);\n"
                 "  const char *name() const override { return \"" +
                 n + "\"; }\n  size_t numInputs() const override { return " +
                 std::to_string(params.size()) + "; }\n  /// Runs the program. Inputs:\n" + docs +
                 "  fxkit::rt::Status run(" + typed +
                 "std::vector<fxkit::rt::Value> *outputs);\n"
                 "  fxkit::rt::Status run(const std::vector<fxkit::rt::Value> &inputs,\n"
                 "                        std::vector<fxkit::rt::Value> *outputs) override;\n\n"
                 "private:\n  fxkit::rt::Runtime &rt_;\n"
                 "  std::shared_ptr<fxkit::rt::Kernels> kernels_;\n};\n\n} // namespace "
                 "fxkit_generated::" +
                 n +
                 "\n\n/// A new Model on `rt`, for programs that load the compiled wrapper at run "
                 "time.\nextern \"C\" fxkit::rt::Model *" +
                 wrapperFactorySymbol(n) + "(fxkit::rt::Runtime *rt);\n";
  files.source =
      banner + "#include \"" + n + ".h\"\n\n#include <utility>\n\n" + kPreamble + "\n" +
      kernelDefs_ + externDefs_ + "} // namespace\n\nnamespace fxkit_generated::" + n +
      " {\n\nModel::Model(fxkit::rt::Runtime &rt)\n    : rt_(rt), kernels_(rt.loadKernels(\n"
      "          {\n" +
      kernelTable_ + "          },\n          " +
      cppString(opencl::openclBuildOptions(p_, generated_)) + ")) {}\n\nStatus Model::run(" +
      typed + "std::vector<fxkit::rt::Value> *outputs) {\n" + body_ +
      "}\n\nStatus Model::run(const std::vector<fxkit::rt::Value> &inputs,\n"
      "                  std::vector<fxkit::rt::Value> *outputs) {\n"
      "  if (inputs.size() != " +
      std::to_string(params.size()) + ")\n    return Status::error(\"expected " +
      std::to_string(params.size()) + " inputs, got \" + std::to_string(inputs.size()));\n" +
      unpack + "  return run(" + call + "outputs);\n}\n\n} // namespace fxkit_generated::" + n +
      "\n\nextern \"C\" fxkit::rt::Model *" + wrapperFactorySymbol(n) +
      "(fxkit::rt::Runtime *rt) {\n  return new fxkit_generated::" + n + "::Model(*rt);\n}\n";
  files.driver = "// Generated by fxkit: runs " + n +
                 " on a safetensors file of inputs (see backends/opencl/rt/Driver.h).\n"
                 "#include \"" +
                 n +
                 ".h\"\n\n#include \"backends/opencl/rt/Driver.h\"\n\n"
                 "int main(int argc, char **argv) {\n"
                 "  return fxkit::rt::driverMain(argc, argv, [](fxkit::rt::Runtime &rt) {\n"
                 "    return std::unique_ptr<fxkit::rt::Model>(new fxkit_generated::" +
                 n + "::Model(rt));\n  });\n}\n";
  files.cmake =
      "# Generated by fxkit: builds the " + n +
      " library and its driver against fxkit's wrapper runtime.\n"
      "cmake_minimum_required(VERSION 3.16)\nproject(" +
      n +
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
      n + " " + n + ".cpp)\ntarget_link_libraries(" + n +
      " PUBLIC fxkit::runtime)\nadd_executable(" + n +
      "_driver driver.cpp)\n"
      "target_link_libraries(" +
      n + "_driver PRIVATE " + n + ")\n";
  return files;
}

} // namespace

Expected<WrapperCppFiles> writeWrapperCpp(const LoopProgram &program, const FusedProgram &fused,
                                          const MemoryPlan &plan, const std::string &name,
                                          const std::string &runtimeCmake) {
  return CppWriter(program, fused, plan).run(name, runtimeCmake);
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
