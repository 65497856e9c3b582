#include "importers/inductor/CallGraphBuilder.h"

#include <cstdlib>
#include <functional>
#include <map>
#include <set>

namespace fxkit::inductor {

namespace {

using K = PyExpr::Kind;

/// What a Python name of the call body stands for.
struct Binding {
  enum class Kind : uint8_t { Tensor, Size, Stream };
  Kind kind = Kind::Tensor;
  Argument arg;       ///< Tensor: the node; Size: an integer or the node computing it
  int64_t device = 0; ///< Stream: the device index of get_raw_stream(N)
};

class CallBuilder {
public:
  CallBuilder(const InductorWrapperInfo &info, std::string_view text, const std::string &file)
      : info_(info), text_(text), file_(file) {
    for (const InductorKernel &k : info.kernels)
      kernels_[k.name] = &k;
  }

  Expected<Graph> run(const PyStmt &def);

private:
  Error error(int line, int col, std::string message) const {
    return Error(std::move(message), SourceLoc{file_, line, col},
                 std::string(sourceLine(text_, line)));
  }
  Error error(const PyExpr &e, std::string message) const {
    return error(e.line, e.col, std::move(message));
  }
  Error error(const PyStmt &s, std::string message) const {
    return error(s.line, s.col, std::move(message));
  }

  /// `base`, or `base_N` with N counting up per base (as WrapperGraph names nodes).
  std::string freshName(const std::string &base) {
    size_t &next = nextSuffix_[base];
    std::string name = next == 0 ? base : base + "_" + std::to_string(next);
    while (g_.find(name))
      name = base + "_" + std::to_string(++next);
    ++next;
    return name;
  }
  Node *add(const std::string &base, std::string_view target, std::vector<Argument> args,
            std::vector<std::pair<std::string, Argument>> kwargs = {}) {
    return g_.create(OpKind::CallFunction, freshName(base), target,
                     Argument::tuple(std::move(args)), Argument::dict(std::move(kwargs)));
  }

  Status block(const std::vector<PyStmt> &stmts);
  Status statement(const std::vector<PyStmt> &stmts, size_t i);
  Status expressionStatement(const PyStmt &s);
  Status assignment(const std::vector<PyStmt> &stmts, size_t i);
  Status deletion(const PyStmt &s);
  Status returnStatement(const PyStmt &s);
  Status withStatement(const PyStmt &s);

  Status launch(const PyExpr &call, const InductorKernel &k, const std::string &resultName);
  Expected<Node *> externCall(const PyExpr &call, const std::string &op,
                              const std::string &resultName);
  Expected<Node *> allocation(const PyExpr &call, const std::string &name);
  Expected<Node *> view(const PyExpr &call, const std::string &name, const std::string &reuseOf);
  Status assertion(const PyExpr &call);
  /// Reads provenance comments (`Topologically Sorted Source Nodes: [..]`, `[Provenance debug
  /// handles] name:N`) for the next kernel or extern call.
  void noteComments(const PyStmt &s);
  void addProvenance(std::vector<std::pair<std::string, Argument>> &kwargs,
                     const std::string &launched);

  Expected<SymExpr> symOf(const PyExpr &e);
  /// A size as an argument: a constant, a size node, or operator.* nodes computing it (each
  /// distinct expression once). The outermost new node is named `name` when given.
  Expected<Argument> size(const SymExpr &e, const std::string &name = "");
  Expected<Argument> sizeList(const PyExpr &tuple, std::vector<SymExpr> *exprs);
  /// Any argument of a call: literals, tensors, sizes, views, dtypes, tuples and lists.
  Expected<Argument> value(const PyExpr &e);
  Expected<Node *> tensor(const PyExpr &e);

  void bindTensor(const std::string &name, Node *node);
  Node *rootOf(Node *n) const {
    auto it = root_.find(n);
    return it == root_.end() ? n : it->second;
  }

  const InductorWrapperInfo &info_;
  std::string_view text_;
  const std::string &file_;
  std::map<std::string, const InductorKernel *, std::less<>> kernels_;
  Graph g_;
  std::map<std::string, Binding, std::less<>> scope_;
  std::map<Node *, Node *> root_;   ///< a view or reuse -> the storage it lives in
  std::map<Node *, int> liveNames_; ///< storage -> how many names refer to it
  std::map<std::string, Argument, std::less<>> sizes_; ///< expression text -> computed
  std::map<std::string, size_t, std::less<>> nextSuffix_;
  int64_t device_ = -1; ///< index of the enclosing DeviceGuard
  std::vector<std::string> origins_;
  std::string provenanceName_;
  int64_t provenance_ = -1;
  bool returned_ = false;
};

void CallBuilder::bindTensor(const std::string &name, Node *node) {
  if (auto it = scope_.find(name); it != scope_.end() && it->second.kind == Binding::Kind::Tensor)
    --liveNames_[rootOf(it->second.arg.asNode())];
  scope_[name] = Binding{Binding::Kind::Tensor, Argument::node(node), 0};
  ++liveNames_[rootOf(node)];
}

Expected<Graph> CallBuilder::run(const PyStmt &def) {
  const std::vector<PyStmt> &body = def.body;
  // The first statement unpacks the inputs: `a, b, c = args` (or `a, = args`).
  if (body.empty() || body[0].kind != PyStmt::Kind::Assign || body[0].targets.size() != 1 ||
      !body[0].value.isName(def.params.empty() ? "args" : def.params.back()))
    return error(body.empty() ? def : body[0], "call() must start by unpacking its inputs: "
                                               "'a, b, ... = args'");
  std::vector<std::string> argNames;
  const PyExpr &unpack = body[0].targets[0];
  if (unpack.kind == K::Name)
    return error(unpack, "expected a tuple of names before '= args'");
  for (const PyExpr &t : unpack.items) {
    if (t.kind != K::Name)
      return error(t, "expected a name in the unpacking of args");
    argNames.push_back(t.text);
  }
  // Size symbols bound directly to inputs (`s77 = arg0_1`) name their placeholder.
  std::map<std::string, std::string> symbolOf;
  std::set<std::string> inputs(argNames.begin(), argNames.end());
  std::function<void(const std::vector<PyStmt> &)> scan = [&](const std::vector<PyStmt> &stmts) {
    for (const PyStmt &s : stmts) {
      if (s.kind == PyStmt::Kind::Assign && s.targets.size() == 1 && s.targets[0].kind == K::Name &&
          s.value.kind == K::Name && inputs.count(s.value.text) &&
          !s.targets[0].text.starts_with("buf") && !symbolOf.count(s.value.text))
        symbolOf[s.value.text] = s.targets[0].text;
      scan(s.body);
    }
  };
  scan(body);
  std::map<std::string, const InductorExampleInput *> examples;
  for (const InductorExampleInput &e : info_.exampleInputs)
    examples[e.name] = &e;
  for (const std::string &a : argNames) {
    auto sym = symbolOf.find(a);
    const InductorExampleInput *example = examples.count(a) ? examples[a] : nullptr;
    std::string name = sym != symbolOf.end() ? sym->second : a;
    if (g_.find(name))
      return error(unpack, "input '" + name + "' is bound twice");
    Node *n = g_.create(OpKind::Placeholder, name, name);
    if (sym != symbolOf.end() || (example && example->integer)) {
      n->value() = NodeValue{SymExpr::symbol(name)};
      scope_[a] = Binding{Binding::Kind::Size, Argument::node(n), 0};
      scope_[name] = scope_[a];
    } else {
      if (example && example->tensor)
        n->value() = NodeValue{*example->tensor};
      bindTensor(a, n);
    }
  }
  if (Status st = block(std::vector<PyStmt>(body.begin() + 1, body.end())); !st)
    return st.takeError();
  if (!returned_)
    return error(def, "call() has no return statement");
  return std::move(g_);
}

Status CallBuilder::block(const std::vector<PyStmt> &stmts) {
  for (size_t i = 0; i < stmts.size(); ++i) {
    if (returned_)
      return error(stmts[i], "statement after the return of call()");
    noteComments(stmts[i]);
    if (Status st = statement(stmts, i); !st)
      return st;
  }
  return Status::ok();
}

void CallBuilder::noteComments(const PyStmt &s) {
  for (const std::string &c : s.comments) {
    if (auto nodes = bracketListAfter(c, "Topologically Sorted Source Nodes: ");
        c.starts_with("Topologically Sorted Source Nodes: ")) {
      origins_ = std::move(nodes);
      provenanceName_.clear();
      provenance_ = -1;
    }
    static constexpr std::string_view kHandles = "[Provenance debug handles] ";
    if (c.starts_with(kHandles)) {
      std::string rest = c.substr(kHandles.size());
      size_t colon = rest.rfind(':');
      if (colon != std::string::npos) {
        provenanceName_ = rest.substr(0, colon);
        provenance_ = std::strtoll(rest.c_str() + colon + 1, nullptr, 10);
      }
    }
  }
}

void CallBuilder::addProvenance(std::vector<std::pair<std::string, Argument>> &kwargs,
                                const std::string &launched) {
  if (!origins_.empty()) {
    std::vector<Argument> items;
    for (const std::string &o : origins_)
      items.push_back(Argument::string(o));
    kwargs.push_back({"origins", Argument::list(std::move(items))});
  }
  if (provenance_ >= 0 && provenanceName_ == launched)
    kwargs.push_back({"provenance", Argument::integer(provenance_)});
  origins_.clear();
  provenanceName_.clear();
  provenance_ = -1;
}

Status CallBuilder::statement(const std::vector<PyStmt> &stmts, size_t i) {
  const PyStmt &s = stmts[i];
  switch (s.kind) {
  case PyStmt::Kind::Expr:
    return expressionStatement(s);
  case PyStmt::Kind::Assign:
    return assignment(stmts, i);
  case PyStmt::Kind::Del:
    return deletion(s);
  case PyStmt::Kind::Return:
    return returnStatement(s);
  case PyStmt::Kind::Compound:
    if (s.keyword == "with")
      return withStatement(s);
    return error(s, "unsupported '" + s.keyword + "' statement in call()");
  case PyStmt::Kind::Import:
    return error(s, "unsupported import in call()");
  case PyStmt::Kind::Pass:
    return Status::ok();
  }
  return error(s, "unsupported statement in call()");
}

Status CallBuilder::withStatement(const PyStmt &s) {
  const PyExpr &ctx = s.value;
  if (ctx.kind != K::Call || ctx.callee() != "torch.cuda._DeviceGuard" || ctx.args().size() != 1 ||
      ctx.args()[0].kind != K::Int || !s.name.empty())
    return error(ctx, "unsupported 'with' statement in call() (expected "
                      "torch.cuda._DeviceGuard(N))");
  int64_t saved = device_;
  device_ = ctx.args()[0].value;
  Status st = block(s.body);
  device_ = saved;
  return st;
}

/// `extern_kernels.mm`, `torch.ops.aten.x.default`, `aten.x.default` (an alias the module
/// defines) -> the op's full name; "" for other callees.
std::string externOp(const std::string &callee) {
  if (callee.starts_with("extern_kernels.") || callee.starts_with("torch.ops."))
    return callee;
  for (std::string_view alias : {"aten.", "inductor_ops.", "_quantized."})
    if (callee.starts_with(alias)) {
      std::string_view ns = alias == "inductor_ops." ? "inductor." : alias;
      return "torch.ops." + std::string(ns) + callee.substr(alias.size());
    }
  return {};
}

Status CallBuilder::expressionStatement(const PyStmt &s) {
  const PyExpr &e = s.value;
  if (e.kind != K::Call)
    return error(e, "unsupported expression statement in call()");
  std::string callee = e.callee();
  if (callee == "args.clear" && e.args().empty())
    return Status::ok();
  if (callee == "assert_size_stride" || callee == "assert_alignment")
    return assertion(e);
  if (callee == "torch.cuda.set_device") {
    if (e.args().size() != 1 || e.args()[0].kind != K::Int || e.args()[0].value != device_)
      return error(e, "torch.cuda.set_device must name the device of the enclosing "
                      "torch.cuda._DeviceGuard");
    return Status::ok();
  }
  if (std::string op = externOp(callee); !op.empty()) {
    auto n = externCall(e, op, "");
    return n ? Status::ok() : Status(n.takeError());
  }
  if (callee.ends_with(".run") && kernels_.count(callee.substr(0, callee.size() - 4)))
    return launch(e, *kernels_[callee.substr(0, callee.size() - 4)], "");
  if (auto it = kernels_.find(callee);
      it != kernels_.end() && it->second->kind == InductorKernel::Kind::Cpp)
    return launch(e, *it->second, "");
  if (callee.ends_with(".run"))
    return error(e, "launch of unknown kernel '" + callee.substr(0, callee.size() - 4) +
                        "' (no async_compile definition in this file)");
  return error(e,
               "unsupported call '" + (callee.empty() ? std::string("?") : callee) + "' in call()");
}

Status CallBuilder::assertion(const PyExpr &call) {
  std::string callee = call.callee();
  auto args = call.args();
  bool sizeStride = callee == "assert_size_stride";
  size_t fixed = sizeStride ? 3 : 2;
  if (args.size() < fixed || args.size() > fixed + 1 || !call.keywords.empty())
    return error(call, sizeStride ? "expected assert_size_stride(tensor, sizes, strides[, op])"
                                  : "expected assert_alignment(tensor, alignment[, op])");
  auto t = tensor(args[0]);
  if (!t)
    return t.takeError();
  std::vector<Argument> items{Argument::node(*t)};
  if (sizeStride) {
    std::vector<SymExpr> sizes, strides;
    auto sz = sizeList(args[1], &sizes);
    if (!sz)
      return sz.takeError();
    auto st = sizeList(args[2], &strides);
    if (!st)
      return st.takeError();
    items.push_back(sz.take());
    items.push_back(st.take());
    if (sizes.size() != strides.size())
      return error(args[2], "assert_size_stride: " + std::to_string(sizes.size()) + " sizes but " +
                                std::to_string(strides.size()) + " strides");
    // The assertion states the tensor's layout: it gives inputs and extern results their types
    // (symbolic sizes, where get_args only had example numbers).
    Node *n = *t;
    TensorType type;
    if (const TensorType *known = n->value().tensor())
      type = *known;
    else {
      bool found = false;
      for (Node *in : n->inputs())
        if (const TensorType *it = in->value().tensor(); it && !found) {
          type.dtype = it->dtype;
          type.device = it->device;
          found = true;
        }
      if (!found)
        type.hasDevice = false;
    }
    type.sizes = sizes;
    type.strides = strides;
    if (n->op() == OpKind::Placeholder || !n->value().tensor())
      n->value() = NodeValue{type};
  } else {
    if (args[1].kind != K::Int)
      return error(args[1], "assert_alignment: expected an integer alignment");
    items.push_back(Argument::integer(args[1].value));
  }
  if (args.size() == fixed + 1) {
    if (args[fixed].kind != K::String)
      return error(args[fixed], "expected the op's name as a string");
    items.push_back(Argument::string(args[fixed].text));
  }
  add(callee, "fxkit." + callee, std::move(items));
  return Status::ok();
}

Status CallBuilder::launch(const PyExpr &call, const InductorKernel &k,
                           const std::string &resultName) {
  if (!resultName.empty())
    return error(call, "a kernel launch returns nothing; it cannot be assigned");
  auto args = call.args();
  std::vector<const KernelParam *> params;
  for (const KernelParam &p : k.params)
    if (!p.isConstexpr())
      params.push_back(&p);
  if (args.size() != params.size()) {
    if (args.size() != k.params.size())
      return error(call, "kernel '" + k.name + "' takes " + std::to_string(params.size()) +
                             " arguments, the launch passes " + std::to_string(args.size()));
    params.clear();
    for (const KernelParam &p : k.params)
      params.push_back(&p);
  }
  std::vector<std::pair<std::string, Argument>> bound;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].kind == K::Starred)
      return error(args[i], "starred arguments of a kernel launch are not supported");
    auto v = value(args[i]);
    if (!v)
      return v.takeError();
    bound.push_back({params[i]->name, v.take()});
  }
  std::vector<std::pair<std::string, Argument>> kwargs{{"name", Argument::string(k.name)},
                                                       {"args", Argument::dict(std::move(bound))}};
  for (const PyExpr &kw : call.keywords) {
    if (kw.key == "stream") {
      auto it = kw.kind == K::Name ? scope_.find(kw.text) : scope_.end();
      if (it == scope_.end() || it->second.kind != Binding::Kind::Stream)
        return error(kw, "stream= must name a stream from get_raw_stream(N)");
      kwargs.push_back({"stream", Argument::integer(it->second.device)});
    } else if (kw.key == "grid") {
      // Older wrappers pass the launch grid: grid(xnumel), grid(x, y, z), or a tuple.
      if (kw.kind == K::Call) {
        kwargs.push_back({"grid_fn", Argument::string(kw.callee())});
        std::vector<Argument> dims;
        for (const PyExpr &d : kw.args()) {
          auto v = value(d);
          if (!v)
            return v.takeError();
          dims.push_back(v.take());
        }
        kwargs.push_back({"grid", Argument::list(std::move(dims))});
      } else {
        auto v = value(kw);
        if (!v)
          return v.takeError();
        kwargs.push_back({"grid", v.take()});
      }
    } else {
      return error(kw, "unknown argument '" + kw.key + "' of a kernel launch");
    }
  }
  addProvenance(kwargs, k.name);
  add(k.name, "fxkit.kernel", {}, std::move(kwargs));
  return Status::ok();
}

Expected<Node *> CallBuilder::externCall(const PyExpr &call, const std::string &op,
                                         const std::string &resultName) {
  std::vector<Argument> inputs;
  for (const PyExpr &a : call.args()) {
    if (a.kind == K::Starred)
      return error(a, "starred arguments of an extern call are not supported");
    auto v = value(a);
    if (!v)
      return v.takeError();
    inputs.push_back(v.take());
  }
  std::vector<std::pair<std::string, Argument>> options;
  std::vector<Argument> outs;
  for (const PyExpr &kw : call.keywords) {
    auto v = value(kw);
    if (!v)
      return v.takeError();
    if (kw.key == "out") {
      if (v->kind() == Argument::Kind::Tuple || v->kind() == Argument::Kind::List)
        outs = v->items();
      else
        outs.push_back(v.take());
    } else {
      options.push_back({kw.key, v.take()});
    }
  }
  if (!resultName.empty() && !outs.empty())
    return error(call, "an extern call with out= returns nothing to assign");
  std::vector<std::pair<std::string, Argument>> kwargs{
      {"op", Argument::string(op)}, {"inputs", Argument::tuple(std::move(inputs))}};
  if (!options.empty())
    kwargs.push_back({"options", Argument::dict(std::move(options))});
  if (!outs.empty())
    kwargs.push_back({"out", Argument::list(std::move(outs))});
  addProvenance(kwargs, op);
  // Named after the assigned buffer, or after the op (`mm`, `_scaled_dot_product_...`).
  std::string base = resultName;
  if (base.empty()) {
    std::string_view rest = op;
    for (std::string_view prefix : {"extern_kernels.", "torch.ops."})
      if (rest.starts_with(prefix))
        rest.remove_prefix(prefix.size());
    size_t dot = rest.find('.');
    if (op.starts_with("torch.ops.") && dot != std::string_view::npos) // namespace.op.overload
      rest = rest.substr(dot + 1);
    base = std::string(rest.substr(0, rest.find('.')));
  }
  return add(base, "fxkit.extern", {}, std::move(kwargs));
}

Expected<Node *> CallBuilder::allocation(const PyExpr &call, const std::string &name) {
  std::string callee = call.callee();
  std::string deviceType = callee.substr(std::string("empty_strided_").size());
  auto args = call.args();
  if (args.size() != 3 || !call.keywords.empty())
    return error(call, "expected " + callee + "(sizes, strides, dtype)");
  std::vector<SymExpr> sizes, strides;
  auto sz = sizeList(args[0], &sizes);
  if (!sz)
    return sz.takeError();
  auto st = sizeList(args[1], &strides);
  if (!st)
    return st.takeError();
  if (sizes.size() != strides.size())
    return error(args[1], std::to_string(sizes.size()) + " sizes but " +
                              std::to_string(strides.size()) + " strides");
  std::string dt = args[2].dotted();
  auto dtype = dt.starts_with("torch.") ? parseDType(dt) : std::nullopt;
  if (!dtype)
    return error(args[2], "expected a dtype such as torch.float32");
  auto device = Device::parse(deviceType);
  if (!device)
    return error(call, "unknown device '" + deviceType + "'");
  Node *n = add(name, "torch.empty_strided", {sz.take(), st.take()},
                {{"dtype", Argument::dtype(*dtype)}, {"device", Argument::device(*device)}});
  TensorType type;
  type.dtype = *dtype;
  type.sizes = std::move(sizes);
  type.strides = std::move(strides);
  type.device = *device;
  if (deviceType != "cpu" && device_ >= 0)
    type.device.index = static_cast<int>(device_);
  n->value() = NodeValue{std::move(type)};
  return n;
}

Expected<Node *> CallBuilder::view(const PyExpr &call, const std::string &name,
                                   const std::string &reuseOf) {
  auto args = call.args();
  if (args.size() != 4 || !call.keywords.empty())
    return error(call, "expected reinterpret_tensor(tensor, sizes, strides, offset)");
  auto base = tensor(args[0]);
  if (!base)
    return base.takeError();
  std::vector<SymExpr> sizes, strides;
  auto sz = sizeList(args[1], &sizes);
  if (!sz)
    return sz.takeError();
  auto st = sizeList(args[2], &strides);
  if (!st)
    return st.takeError();
  auto offsetExpr = symOf(args[3]);
  if (!offsetExpr)
    return offsetExpr.takeError();
  auto offset = size(*offsetExpr);
  if (!offset)
    return error(args[3], offset.error().message);
  std::vector<std::pair<std::string, Argument>> kwargs;
  if (!reuseOf.empty())
    kwargs.push_back({"reuse", Argument::string(reuseOf)});
  Node *n = add(name.empty() ? (*base)->name() + "_view" : name, "torch.as_strided",
                {Argument::node(*base), sz.take(), st.take(), offset.take()}, std::move(kwargs));
  if (const TensorType *t = (*base)->value().tensor()) {
    TensorType vt = *t;
    vt.sizes = std::move(sizes);
    vt.strides = std::move(strides);
    n->value() = NodeValue{std::move(vt)};
  }
  root_[n] = rootOf(*base);
  return n;
}

/// True when the statement after `stmts[i]` on the same line is `del <name>` with a `# reuse`
/// comment: Inductor's spelling of handing a buffer's storage to a new name.
bool reuseFollows(const std::vector<PyStmt> &stmts, size_t i, const std::string &name) {
  if (i + 1 >= stmts.size())
    return false;
  const PyStmt &next = stmts[i + 1];
  return next.kind == PyStmt::Kind::Del && next.line == stmts[i].line &&
         next.indexInLine > stmts[i].indexInLine && next.targets.size() == 1 &&
         next.targets[0].isName(name) && next.trailingComment.find("reuse") != std::string::npos;
}

Status CallBuilder::assignment(const std::vector<PyStmt> &stmts, size_t i) {
  const PyStmt &s = stmts[i];
  if (s.targets.size() != 1 || s.targets[0].kind != K::Name)
    return error(s, "unsupported assignment in call() (expected one name on the left)");
  const std::string &name = s.targets[0].text;
  const PyExpr &v = s.value;
  if (v.kind == K::Call) {
    std::string callee = v.callee();
    if (callee.starts_with("empty_strided_")) {
      auto n = allocation(v, name);
      if (!n)
        return n.takeError();
      bindTensor(name, *n);
      return Status::ok();
    }
    if (callee == "reinterpret_tensor") {
      std::string base = v.args().empty() ? std::string() : v.args()[0].dotted();
      auto n = view(v, name, reuseFollows(stmts, i, base) ? base : std::string());
      if (!n)
        return n.takeError();
      bindTensor(name, *n);
      return Status::ok();
    }
    if (callee == "get_raw_stream") {
      if (v.args().size() != 1 || v.args()[0].kind != K::Int)
        return error(v, "expected get_raw_stream(N)");
      scope_[name] = Binding{Binding::Kind::Stream, Argument(), v.args()[0].value};
      return Status::ok();
    }
    if (std::string op = externOp(callee); !op.empty()) {
      auto n = externCall(v, op, name);
      if (!n)
        return n.takeError();
      bindTensor(name, *n);
      return Status::ok();
    }
    // `s77 = arg0_1.size(0)` / `.stride(0)`: a size read from an input tensor.
    const PyExpr &fn = v.items[0];
    if (fn.kind == K::Attribute && (fn.text == "size" || fn.text == "stride") &&
        v.args().size() == 1 && v.args()[0].kind == K::Int && v.keywords.empty()) {
      auto t = tensor(fn.items[0]);
      if (!t)
        return t.takeError();
      Node *n = add(
          name, fn.text == "size" ? "torch.ops.aten.sym_size.int" : "torch.ops.aten.sym_stride.int",
          {Argument::node(*t), Argument::integer(v.args()[0].value)});
      n->value() = NodeValue{SymExpr::symbol(name)};
      scope_[name] = Binding{Binding::Kind::Size, Argument::node(n), 0};
      return Status::ok();
    }
    if (kernels_.count(callee) ||
        (callee.ends_with(".run") && kernels_.count(callee.substr(0, callee.size() - 4))))
      return error(v, "a kernel launch returns nothing; it cannot be assigned");
    return error(v, "unsupported call '" + (callee.empty() ? std::string("?") : callee) +
                        "' in call()");
  }
  if (v.kind == K::Subscript && v.items[1].kind == K::Int) {
    auto t = tensor(v.items[0]);
    if (!t)
      return t.takeError();
    Node *n =
        add(name, "operator.getitem", {Argument::node(*t), Argument::integer(v.items[1].value)});
    bindTensor(name, n);
    return Status::ok();
  }
  if (v.kind == K::Name) {
    auto it = scope_.find(v.text);
    if (it == scope_.end())
      return error(v, "name '" + v.text + "' is not defined");
    if (it->second.kind == Binding::Kind::Tensor) {
      Node *from = it->second.arg.asNode();
      const TensorType *t = from->value().tensor();
      if (reuseFollows(stmts, i, v.text) && t) {
        std::vector<Argument> sz, st;
        for (const SymExpr &x : t->sizes) {
          auto a = size(x);
          if (!a)
            return error(v, a.error().message);
          sz.push_back(a.take());
        }
        for (const SymExpr &x : t->strides) {
          auto a = size(x);
          if (!a)
            return error(v, a.error().message);
          st.push_back(a.take());
        }
        Node *n = add(name, "torch.as_strided",
                      {Argument::node(from), Argument::list(std::move(sz)),
                       Argument::list(std::move(st)), Argument::integer(0)},
                      {{"reuse", Argument::string(v.text)}});
        n->value() = NodeValue{*t};
        root_[n] = rootOf(from);
        bindTensor(name, n);
        return Status::ok();
      }
      // A second name for the same tensor (`buf1 = buf0` before an assertion): no new node.
      bindTensor(name, from);
      return Status::ok();
    }
    scope_[name] = it->second; // a size or stream under another name (`s77 = arg0_1`)
    return Status::ok();
  }
  // Size arithmetic: `ks0 = s17*s77`, `kernel_xnumel = 1024*s0`, `s77 = arg0_1`.
  if (v.kind == K::Int || v.kind == K::Binary || v.kind == K::Unary) {
    auto e = symOf(v);
    if (!e)
      return e.takeError();
    auto a = size(*e, name);
    if (!a)
      return error(v, a.error().message);
    scope_[name] = Binding{Binding::Kind::Size, a.take(), 0};
    return Status::ok();
  }
  return error(v, "unsupported value assigned to '" + name + "' in call()");
}

Status CallBuilder::deletion(const PyStmt &s) {
  for (const PyExpr &t : s.targets) {
    if (t.kind != K::Name)
      return error(t, "expected a name after 'del'");
    auto it = scope_.find(t.text);
    if (it == scope_.end())
      return error(t, "del of '" + t.text + "', which is not defined");
    if (it->second.kind == Binding::Kind::Tensor) {
      Node *n = it->second.arg.asNode();
      int &live = liveNames_[rootOf(n)];
      --live;
      // The last name of a storage frees it; a name whose storage lives on under another name
      // (reuse, aliasing) goes without a node.
      if (live == 0)
        add("free", "fxkit.free", {Argument::node(n)});
    }
    scope_.erase(it);
  }
  return Status::ok();
}

Status CallBuilder::returnStatement(const PyStmt &s) {
  std::vector<Argument> outs;
  auto one = [&](const PyExpr &e) -> Status {
    auto v = value(e);
    if (!v)
      return v.takeError();
    outs.push_back(v.take());
    return Status::ok();
  };
  if (s.value.kind == K::Tuple) {
    for (const PyExpr &e : s.value.items)
      if (Status st = one(e); !st)
        return st;
  } else if (Status st = one(s.value); !st) {
    return st;
  }
  // Python drops the remaining locals when call() returns: storage allocated here that is
  // neither returned nor deleted is freed there, which the graph says explicitly.
  std::set<Node *> kept;
  for (const Argument &a : outs)
    a.forEachNode([&](Node *n) { kept.insert(rootOf(n)); });
  for (const auto &[name, b] : scope_) {
    if (b.kind != Binding::Kind::Tensor)
      continue;
    Node *n = b.arg.asNode();
    Node *root = rootOf(n);
    if (root->op() == OpKind::Placeholder || !kept.insert(root).second)
      continue;
    add("free", "fxkit.free", {Argument::node(n)}, {{"at_return", Argument::boolean(true)}});
  }
  g_.create(OpKind::Output, freshName("output"), "output",
            Argument::tuple({Argument::tuple(std::move(outs))}));
  returned_ = true;
  return Status::ok();
}

Expected<SymExpr> CallBuilder::symOf(const PyExpr &e) {
  SymExpr out;
  switch (e.kind) {
  case K::Int:
    out = SymExpr(e.value);
    break;
  case K::Name: {
    auto it = scope_.find(e.text);
    if (it == scope_.end())
      return error(e, "name '" + e.text + "' is not defined");
    if (it->second.kind != Binding::Kind::Size)
      return error(e, "'" + e.text + "' is not a size");
    if (it->second.arg.kind() == Argument::Kind::Int)
      out = SymExpr(it->second.arg.asInt());
    else
      out = SymExpr::symbol(e.text);
    break;
  }
  case K::Unary: {
    auto a = symOf(e.items[0]);
    if (!a)
      return a;
    if (e.text == "-")
      out = a->isConstant() ? SymExpr(-a->constant()) : SymExpr::neg(*a);
    else if (e.text == "+")
      out = *a;
    else
      return error(e, "unsupported operator '" + e.text + "' in a size");
    break;
  }
  case K::Binary: {
    static const std::map<std::string, SymExpr::Kind, std::less<>> kinds = {
        {"+", SymExpr::Kind::Add},     {"-", SymExpr::Kind::Sub},       {"*", SymExpr::Kind::Mul},
        {"/", SymExpr::Kind::TrueDiv}, {"//", SymExpr::Kind::FloorDiv}, {"%", SymExpr::Kind::Mod},
        {"**", SymExpr::Kind::Pow}};
    auto k = kinds.find(e.text);
    if (k == kinds.end())
      return error(e, "unsupported operator '" + e.text + "' in a size");
    auto a = symOf(e.items[0]);
    if (!a)
      return a;
    auto b = symOf(e.items[1]);
    if (!b)
      return b;
    out = SymExpr::binary(k->second, *a, *b);
    break;
  }
  case K::Call: {
    std::string fn = e.callee();
    if (fn.empty() || !e.keywords.empty())
      return error(e, "unsupported call in a size");
    std::vector<SymExpr> operands;
    for (const PyExpr &a : e.args()) {
      auto x = symOf(a);
      if (!x)
        return x;
      operands.push_back(*x);
    }
    out = SymExpr::call(fn, operands);
    break;
  }
  default:
    return error(e, "expected a size expression");
  }
  return e.parenthesized && !out.isConstant() ? SymExpr::paren(out) : out;
}

Expected<Argument> CallBuilder::size(const SymExpr &e, const std::string &name) {
  if (e.isConstant())
    return Argument::integer(e.constant());
  std::string key = e.str();
  if (auto it = sizes_.find(key); it != sizes_.end())
    return it->second;
  auto ops = e.operands();
  Argument out;
  switch (e.kind()) {
  case SymExpr::Kind::Symbol: {
    auto it = scope_.find(e.name());
    if (it == scope_.end() || it->second.kind != Binding::Kind::Size)
      return Error("size symbol '" + std::string(e.name()) + "' is not bound");
    return it->second.arg;
  }
  case SymExpr::Kind::Paren:
    return size(ops[0], name);
  case SymExpr::Kind::Neg:
  case SymExpr::Kind::Add:
  case SymExpr::Kind::Sub:
  case SymExpr::Kind::Mul:
  case SymExpr::Kind::FloorDiv:
  case SymExpr::Kind::Mod: {
    static const std::map<SymExpr::Kind, std::pair<const char *, const char *>> names = {
        {SymExpr::Kind::Neg, {"neg", "operator.neg"}},
        {SymExpr::Kind::Add, {"add", "operator.add"}},
        {SymExpr::Kind::Sub, {"sub", "operator.sub"}},
        {SymExpr::Kind::Mul, {"mul", "operator.mul"}},
        {SymExpr::Kind::FloorDiv, {"floordiv", "operator.floordiv"}},
        {SymExpr::Kind::Mod, {"mod", "operator.mod"}}};
    std::vector<Argument> operands;
    for (const SymExpr &o : ops) {
      auto a = size(o);
      if (!a)
        return a.takeError();
      operands.push_back(a.take());
    }
    const auto &[base, target] = names.at(e.kind());
    Node *n = add(name.empty() ? base : name, target, std::move(operands));
    n->value() = NodeValue{e};
    out = Argument::node(n);
    break;
  }
  default:
    // Max(...), a/b, a**b: kept as an expression its consumer evaluates (as WrapperGraph does).
    out = Argument::sym(e);
  }
  sizes_[key] = out;
  return out;
}

Expected<Argument> CallBuilder::sizeList(const PyExpr &tuple, std::vector<SymExpr> *exprs) {
  if (tuple.kind != K::Tuple && tuple.kind != K::List)
    return error(tuple, "expected a tuple of sizes");
  std::vector<Argument> items;
  for (const PyExpr &x : tuple.items) {
    auto e = symOf(x);
    if (!e)
      return e.takeError();
    auto a = size(*e);
    if (!a)
      return error(x, a.error().message);
    items.push_back(a.take());
    if (exprs)
      exprs->push_back(*e);
  }
  return Argument::list(std::move(items));
}

Expected<Node *> CallBuilder::tensor(const PyExpr &e) {
  if (e.kind == K::Call && e.callee() == "reinterpret_tensor")
    return view(e, "", "");
  if (e.kind != K::Name)
    return error(e, "expected a tensor name");
  auto it = scope_.find(e.text);
  if (it == scope_.end())
    return error(e, "name '" + e.text + "' is not defined");
  if (it->second.kind != Binding::Kind::Tensor)
    return error(e, "'" + e.text + "' is not a tensor");
  return it->second.arg.asNode();
}

Expected<Argument> CallBuilder::value(const PyExpr &e) {
  switch (e.kind) {
  case K::Const:
    if (e.text == "None")
      return Argument::none();
    if (e.text == "True" || e.text == "False")
      return Argument::boolean(e.text == "True");
    return error(e, "unsupported constant '" + e.text + "'");
  case K::Int:
    return Argument::integer(e.value);
  case K::Float:
    return Argument::floating(std::strtod(e.text.c_str(), nullptr));
  case K::String:
    return Argument::string(e.text);
  case K::Name: {
    auto it = scope_.find(e.text);
    if (it == scope_.end())
      return error(e, "name '" + e.text + "' is not defined");
    if (it->second.kind == Binding::Kind::Stream)
      return error(e, "a stream can only be passed as stream=");
    return it->second.arg;
  }
  case K::Attribute: {
    std::string d = e.dotted();
    if (d.starts_with("torch."))
      if (auto dt = parseDType(d))
        return Argument::dtype(*dt);
    for (std::string_view f : {"contiguous_format", "channels_last", "preserve_format"})
      if (d == "torch." + std::string(f))
        return Argument::memoryFormat(f);
    return error(e, "unsupported value '" + d + "'");
  }
  case K::Tuple:
  case K::List: {
    std::vector<Argument> items;
    for (const PyExpr &x : e.items) {
      auto a = value(x);
      if (!a)
        return a;
      items.push_back(a.take());
    }
    return e.kind == K::Tuple ? Argument::tuple(std::move(items))
                              : Argument::list(std::move(items));
  }
  case K::Unary:
    if (e.text == "-" && e.items[0].kind == K::Float)
      return Argument::floating(-std::strtod(e.items[0].text.c_str(), nullptr));
    [[fallthrough]];
  case K::Binary: {
    auto s = symOf(e);
    if (!s)
      return s.takeError();
    auto a = size(*s);
    if (!a)
      return error(e, a.error().message);
    return a;
  }
  case K::Call:
    if (e.callee() == "reinterpret_tensor") {
      auto n = view(e, "", "");
      if (!n)
        return n.takeError();
      return Argument::node(*n);
    }
    return error(e, "unsupported call '" + e.callee() + "' as an argument");
  default:
    return error(e, "unsupported argument");
  }
}

} // namespace

Expected<Graph> buildCallGraph(const PyStmt &callDef, const InductorWrapperInfo &info,
                               std::string_view text, const std::string &fileName) {
  return CallBuilder(info, text, fileName).run(callDef);
}

} // namespace fxkit::inductor
