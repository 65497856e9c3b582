#include "importers/inductor/CallGraphBuilder.h"

#include "ir/Try.h"
#include "ir/wrapper/SizeNodes.h"
#include "ir/wrapper/WrapperDialect.h"

#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace fxkit::inductor {

namespace {

using K = PyExpr::Kind;

/// What a Python name of the call body stands for.
struct Binding {
  enum class Kind : uint8_t {
    Tensor,
    Size,   ///< an integer (sizes, unbacked `u0 = buf.item()`) or a SymBool
    Stream, ///< `stream0 = get_raw_stream(0)`
    Shape,  ///< `arg0_1_size = arg0_1.size()` (or `.stride()`): indexed by later statements
    None,   ///< `buf3 = None` (the placeholder name of an op without a tensor result)
    List,   ///< `partition0_args = [a, b, s0]`, a subgraph's results: a Python list object
  };
  Kind kind = Kind::Tensor;
  /// Tensor: the node; Size: an integer or the node computing it; Shape: the tensor's node;
  /// List: the index of the list in CallBuilder::lists_ (names share the list, as in Python).
  Argument arg;
  int64_t device = 0;   ///< Stream: the device index of get_raw_stream(N)
  bool strides = false; ///< Shape: `x.stride()` rather than `x.size()`
};

class CallBuilder {
public:
  CallBuilder(const InductorWrapperInfo &info, const ModuleFunctions &functions,
              const std::vector<std::string> &partitions, std::string_view text,
              const std::string &file)
      : info_(info), functions_(functions), partitions_(partitions), text_(text), file_(file) {
    for (const InductorKernel &k : info.kernels)
      kernels_[k.name] = &k;
    for (const InductorMultiKernel &m : info.multiKernels)
      multiKernels_[m.name] = &m;
    constants_.insert(info.constants.begin(), info.constants.end());
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
  /// `if not (u0 >= 0):` + `raise RuntimeError('...')` (AssertScalar), `assert ..., msg`
  /// (DynamicScalar's divisibility check): aten._assert_scalar(cond, msg), as in FX graphs.
  Status ifStatement(const std::vector<PyStmt> &stmts, size_t i);
  Status assertStatement(const PyStmt &s);
  Status condStatement(const PyStmt &ifs, const PyStmt &orelse);
  Status assertScalar(const PyExpr &cond, bool negate, const PyExpr &message);

  Status launch(const PyExpr &call, const InductorKernel &k, const std::string &resultName,
                const InductorMultiKernel *multi = nullptr);
  /// `x.zero_()`, `dst.copy_(src, False)`: ATen's in-place ops called as tensor methods, as
  /// extern calls of `torch.ops.aten.<method>.default` with the tensor first.
  Expected<Node *> methodExtern(const PyExpr &call, const std::string &op);
  /// `aten.view.dtype(x, torch.float16)`: the same storage read as another dtype.
  Expected<Node *> dtypeView(const PyExpr &call, const std::string &name);
  /// `alloc_from_pool(pool0, offset_bytes, dtype, sizes, strides)` (config.memory_planning):
  /// a tensor placed in a pool's storage, as fxkit's own wrapper graphs spell it.
  Expected<Node *> allocFromPool(const PyExpr &call, const std::string &name);
  Expected<Node *> externCall(const PyExpr &call, const std::string &op,
                              const std::string &resultName);
  Expected<Node *> allocation(const PyExpr &call, const std::string &name);
  Expected<Node *> view(const PyExpr &call, const std::string &name, const std::string &reuseOf);
  /// `t.as_strided(sizes, strides)` after an allocation whose storage is larger than its
  /// layout needs (make_allocation's allocation_shape).
  Expected<Node *> asStrided(Node *base, const PyExpr &call, const std::string &name);
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
  /// A (sizes, strides) pair of list arguments: each as an argument and as expressions.
  struct Layout {
    Argument sizeArg, strideArg;
    std::vector<SymExpr> sizes, strides;
  };
  /// `sizes` and `strides` read; unless `mismatch` is null, lists of different lengths are an
  /// error at `strides`, its message after `mismatch`.
  Expected<Layout> layout(const PyExpr &sizes, const PyExpr &strides, const char *mismatch);
  /// A `torch.<dtype>` argument.
  Expected<DType> dtypeOf(const PyExpr &e);
  /// A storage offset argument, as a size.
  Expected<Argument> offsetOf(const PyExpr &e);
  /// Any argument of a call: literals, tensors, sizes, views, dtypes, tuples and lists.
  Expected<Argument> value(const PyExpr &e);
  /// A tensor expression: a name, `reinterpret_tensor(..)`, `aten.view.dtype(..)`, `buf[0]`
  /// (getitem nodes, the outermost named `name` when given).
  Expected<Node *> tensor(const PyExpr &e, const std::string &name = "");
  /// True when `e` needs nodes SymExpr cannot state: `buf.item()`, `x.size(0)`, comparisons,
  /// `not`/`and`/`or`, `a if c else b`, subscripts of `x.size()`.
  bool needsNodes(const PyExpr &e);
  /// An integer or boolean scalar computed by nodes, spelled as PyTorch's FX graphs spell it:
  /// aten.item.default, aten.sym_size.int, operator.ge, torch.sym_ite, torch.sym_max; plain
  /// size arithmetic goes through size(). The outermost new node is named `name` when given.
  Expected<Argument> scalar(const PyExpr &e, const std::string &name = "");
  /// The binding of a name; a module constant becomes a get_attr node at its first use.
  Binding *lookup(const std::string &name);

  void bindTensor(const std::string &name, Node *node);
  /// Binds a name to a non-tensor (a tensor it named loses the name).
  void bind(const std::string &name, Binding b) {
    if (auto it = scope_.find(name); it != scope_.end() && it->second.kind == Binding::Kind::Tensor)
      --liveNames_[rootOf(it->second.arg.asNode())];
    scope_[name] = std::move(b);
  }
  Node *rootOf(Node *n) const {
    auto it = root_.find(n);
    return it == root_.end() ? n : it->second;
  }

  /// A new list holding `items`: the tensors in it stay alive while it holds them.
  Binding newList(std::vector<Binding> items);
  /// Drops the list's references (`args.clear()`, `del partition0_args`).
  void clearList(const Binding &list);
  /// One reference to a storage fewer; the last one frees it (with `at_return` when the
  /// function that held it returns).
  void release(Node *n, bool atReturn = false);
  /// The binding an expression of a list item or result stands for.
  Expected<Binding> bindingOf(const PyExpr &e);
  /// `(buf3,) = self.partitions[0](partition0_args)`, `buf2 = subgraph_0(subgraph_0_args)`:
  /// the function's statements join the graph here; returns its results.
  Expected<std::vector<Binding>> inlineCall(const PyExpr &call);
  bool isFunctionCall(const PyExpr &e) const;

  const InductorWrapperInfo &info_;
  const ModuleFunctions &functions_;
  const std::vector<std::string> &partitions_;
  std::string_view text_;
  const std::string &file_;
  std::map<std::string, const InductorKernel *, std::less<>> kernels_;
  std::map<std::string, const InductorMultiKernel *, std::less<>> multiKernels_;
  std::set<std::string, std::less<>> constants_;
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
  std::vector<std::vector<Binding>> lists_;
  /// While a module function runs inline: where its return statement puts its results.
  std::vector<Binding> *results_ = nullptr;
  int inlineDepth_ = 0;
  bool skipNext_ = false; ///< the statement just read consumed the next one (if/else)
};

Binding CallBuilder::newList(std::vector<Binding> items) {
  for (const Binding &b : items)
    if (b.kind == Binding::Kind::Tensor)
      ++liveNames_[rootOf(b.arg.asNode())];
  lists_.push_back(std::move(items));
  return Binding{Binding::Kind::List, Argument::integer(static_cast<int64_t>(lists_.size() - 1)),
                 0};
}

void CallBuilder::clearList(const Binding &list) {
  std::vector<Binding> items = std::move(lists_[static_cast<size_t>(list.arg.asInt())]);
  lists_[static_cast<size_t>(list.arg.asInt())].clear();
  for (const Binding &b : items)
    if (b.kind == Binding::Kind::Tensor)
      release(b.arg.asNode());
}

void CallBuilder::release(Node *n, bool atReturn) {
  int &live = liveNames_[rootOf(n)];
  --live;
  // The last name of a storage frees it; a name whose storage lives on under another name
  // (reuse, aliasing, a list holding it) goes without a node.
  if (live == 0 && rootOf(n)->op() != OpKind::GetAttr) {
    if (atReturn)
      add("free", wrapper::kFree, {Argument::node(n)}, {{"at_return", Argument::boolean(true)}});
    else
      add("free", wrapper::kFree, {Argument::node(n)});
  }
}

void CallBuilder::bindTensor(const std::string &name, Node *node) {
  if (auto it = scope_.find(name); it != scope_.end() && it->second.kind == Binding::Kind::Tensor)
    --liveNames_[rootOf(it->second.arg.asNode())];
  scope_[name] = Binding{Binding::Kind::Tensor, Argument::node(node), 0};
  ++liveNames_[rootOf(node)];
}

Binding *CallBuilder::lookup(const std::string &name) {
  if (auto it = scope_.find(name); it != scope_.end())
    return &it->second;
  if (!constants_.count(name))
    return nullptr;
  Node *n = g_.create(OpKind::GetAttr, freshName(name), name);
  bindTensor(name, n);
  return &scope_.find(name)->second;
}

Expected<Graph> CallBuilder::run(const PyStmt &def) {
  const std::vector<PyStmt> &body = def.body;
  // The first statement unpacks the inputs: `a, b, c = args` (or `a, = args`); a graph
  // without inputs has none (write_args).
  bool unpacks = !body.empty() && body[0].kind == PyStmt::Kind::Assign &&
                 body[0].targets.size() == 1 &&
                 body[0].value.isName(def.params.empty() ? "args" : def.params.back());
  if (body.empty())
    return error(def, "call() has no statements");
  std::vector<std::string> argNames;
  const PyExpr &unpack = unpacks ? body[0].targets[0] : body[0].value;
  if (unpacks && unpack.kind == K::Name)
    return error(unpack, "expected a tuple of names before '= args'");
  for (const PyExpr &t : unpacks ? unpack.items : std::vector<PyExpr>{}) {
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
  if (Status st = block(std::vector<PyStmt>(body.begin() + (unpacks ? 1 : 0), body.end())); !st)
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
    if (skipNext_) {
      skipNext_ = false;
      ++i;
    }
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
    if (s.keyword == "if")
      return ifStatement(stmts, i);
    return error(s, "unsupported '" + s.keyword + "' statement in call()");
  case PyStmt::Kind::Import: // `from torch.profiler import record_function` (profiler marks)
  case PyStmt::Kind::Pass:
    return Status::ok();
  case PyStmt::Kind::Assert:
    return assertStatement(s);
  case PyStmt::Kind::Raise:
    return error(s, "unsupported 'raise' in call() (Inductor raises only inside "
                    "'if not (condition):')");
  }
  return error(s, "unsupported statement in call()");
}

Status CallBuilder::withStatement(const PyStmt &s) {
  const PyExpr &ctx = s.value;
  // `with record_function('graph_0_inductor_wrapper_call'):` (profiler_mark_wrapper_call)
  // names a profiler range; the body runs as it is.
  if (ctx.kind == K::Call && ctx.callee().ends_with("record_function") && s.name.empty())
    return block(s.body);
  std::string guard = ctx.kind == K::Call ? ctx.callee() : std::string();
  // `torch.cuda._DeviceGuard(0)`, `torch.xpu._DeviceGuard(0)` (device_ops.device_guard)
  if (ctx.kind != K::Call || !guard.starts_with("torch.") || !guard.ends_with("._DeviceGuard") ||
      ctx.args().size() != 1 || ctx.args()[0].kind != K::Int || !s.name.empty())
    return error(ctx, "unsupported 'with' statement in call() (expected "
                      "torch.cuda._DeviceGuard(N))");
  int64_t saved = device_;
  device_ = ctx.args()[0].value;
  Status st = block(s.body);
  device_ = saved;
  return st;
}

Status CallBuilder::ifStatement(const std::vector<PyStmt> &stmts, size_t i) {
  const PyStmt &s = stmts[i];
  bool hasElse = i + 1 < stmts.size() && stmts[i + 1].kind == PyStmt::Kind::Compound &&
                 (stmts[i + 1].keyword == "else" || stmts[i + 1].keyword == "elif");
  if (hasElse && stmts[i + 1].keyword == "else") {
    skipNext_ = true; // the else block is the cond's second branch
    return condStatement(s, stmts[i + 1]);
  }
  if (hasElse || s.body.size() != 1 || s.body[0].kind != PyStmt::Kind::Raise ||
      s.body[0].value.kind != K::Call || s.body[0].value.args().size() > 1)
    return error(s, "unsupported 'if' statement in call() (Inductor writes 'if not (condition):' "
                    "followed by 'raise RuntimeError(message)', or torch.cond's if/else)");
  const PyExpr &raise = s.body[0].value;
  PyExpr message;
  message.kind = K::Const;
  message.text = "None";
  const PyExpr &msg = raise.args().empty() ? message : raise.args()[0];
  // `if not (c): raise` asserts c.
  const PyExpr &test = s.value;
  if (test.kind == K::Unary && test.text == "not")
    return assertScalar(test.items[0], false, msg);
  return assertScalar(test, true, msg);
}

Status CallBuilder::condStatement(const PyStmt &ifs, const PyStmt &orelse) {
  // codegen_conditional: each branch hands its operands to a subgraph function,
  //   if pred.item():                      else:
  //       true_graph_0_args = [a, b]           false_graph_0_args = [a, b]
  //       buf2 = true_graph_0(true_graph_0_args)   buf2 = false_graph_0(..)
  // (with the `del`s of buffers the branches no longer need): torch.ops.higher_order.cond
  // with the two functions' graphs as submodules, as FX graphs hold torch.cond.
  struct Branch {
    std::string fn, result, argsName;
    const std::vector<PyExpr> *operands = nullptr;
    std::vector<const PyStmt *> dels;
  };
  Branch branches[2];
  const PyStmt *blocks[2] = {&ifs, &orelse};
  for (int k = 0; k < 2; ++k) {
    Branch &b = branches[k];
    for (const PyStmt &st : blocks[k]->body) {
      if (st.kind == PyStmt::Kind::Pass)
        continue;
      if (st.kind == PyStmt::Kind::Del) {
        b.dels.push_back(&st);
        continue;
      }
      bool assign = st.kind == PyStmt::Kind::Assign && st.targets.size() == 1 &&
                    st.targets[0].kind == K::Name;
      if (assign && st.value.kind == K::List && b.argsName.empty()) {
        b.argsName = st.targets[0].text;
        b.operands = &st.value.items;
        continue;
      }
      if (assign && isFunctionCall(st.value) && st.value.items[0].kind == K::Name &&
          st.value.args().size() == 1 && st.value.args()[0].isName(b.argsName) && b.fn.empty()) {
        b.fn = st.value.items[0].text;
        b.result = st.targets[0].text;
        continue;
      }
      return error(st, "unsupported statement in a branch of torch.cond (expected "
                       "'<name>_args = [..]' and '<result> = <subgraph>(<name>_args)')");
    }
    if (b.fn.empty() || !b.operands)
      return error(*blocks[k], "a branch of torch.cond without its subgraph call");
  }
  if (branches[0].result != branches[1].result ||
      branches[0].operands->size() != branches[1].operands->size())
    return error(orelse, "the branches of torch.cond differ in their result or operands");
  // The predicate: the tensor of `pred.item()`, else the scalar (`s0 > 4`).
  const PyExpr &test = ifs.value;
  Argument pred;
  if (test.kind == K::Call && test.items[0].kind == K::Attribute && test.items[0].text == "item" &&
      test.args().empty()) {
    auto t = tensor(test.items[0].items[0]);
    if (!t)
      return t.takeError();
    pred = Argument::node(*t);
  } else {
    auto p = scalar(test);
    if (!p)
      return p.takeError();
    pred = p.take();
  }
  std::vector<Argument> operands;
  for (const PyExpr &x : *branches[0].operands) {
    auto v = value(x);
    if (!v)
      return v.takeError();
    operands.push_back(v.take());
  }
  if (inlineDepth_ >= 16)
    return error(ifs, "subgraphs nested too deeply (limit 16)");
  Argument graphs[2];
  size_t outputs = 0;
  for (int k = 0; k < 2; ++k) {
    const std::string &fn = branches[k].fn;
    if (!g_.submodule(fn)) {
      CallBuilder sub(info_, functions_, partitions_, text_, file_);
      sub.inlineDepth_ = inlineDepth_ + 1;
      auto body = sub.run(*functions_.at(fn));
      if (!body)
        return body.takeError();
      auto shared = std::make_shared<Graph>(body.take());
      shared->moduleName = fn;
      if (const Node *out = shared->outputNode())
        outputs = out->args().items()[0].items().size();
      g_.submodules.push_back(std::move(shared));
    } else if (const Node *out = g_.submodule(fn)->outputNode()) {
      outputs = out->args().items()[0].items().size();
    }
    graphs[k] = Argument::node(g_.create(OpKind::GetAttr, freshName(fn), fn));
  }
  Node *c = add("cond", "torch.ops.higher_order.cond",
                {pred, graphs[0], graphs[1], Argument::list(std::move(operands))});
  std::vector<Binding> results;
  for (size_t k = 0; k < outputs; ++k) {
    Node *item =
        add("getitem", wrapper::kGetItem, {Argument::node(c), Argument::integer(int64_t(k))});
    results.push_back(Binding{Binding::Kind::Tensor, Argument::node(item), 0});
  }
  bind(branches[0].result, newList(std::move(results)));
  for (const PyStmt *d : branches[0].dels)
    if (Status st = deletion(*d); !st)
      return st;
  return Status::ok();
}

Status CallBuilder::assertStatement(const PyStmt &s) {
  return assertScalar(s.value, false, s.message);
}

Status CallBuilder::assertScalar(const PyExpr &cond, bool negate, const PyExpr &message) {
  auto c = scalar(cond);
  if (!c)
    return c.takeError();
  Argument test = c.take();
  if (negate)
    test = Argument::node(add("sym_not", "torch.sym_not", {test}));
  std::string text;
  if (message.kind == K::String)
    text = message.text;
  else if (!(message.kind == K::Const && message.text == "None"))
    return error(message, "expected the assertion's message as a string");
  add("_assert_scalar", wrapper::kAssertScalar, {test, Argument::string(text)});
  return Status::ok();
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
  // `args.clear()`: call() drops the caller's list (nothing of the program); a partition or
  // subgraph drops the references of the list it was called with.
  if (callee.ends_with(".clear") && e.args().empty() && e.items[0].items[0].kind == K::Name) {
    Binding *b = lookup(e.items[0].items[0].text);
    if (b && b->kind == Binding::Kind::List) {
      clearList(*b);
      return Status::ok();
    }
    if (callee == "args.clear")
      return Status::ok();
  }
  // `() = self.partitions[0](partition0_args)` without results is an assignment; a subgraph
  // called for its effect alone is this.
  if (isFunctionCall(e)) {
    auto results = inlineCall(e);
    if (!results)
      return results.takeError();
    for (const Binding &b : *results)
      if (b.kind == Binding::Kind::Tensor)
        release(b.arg.asNode());
    return Status::ok();
  }
  if (callee == "assert_size_stride" || callee == "assert_alignment")
    return assertion(e);
  if (callee.starts_with("torch.") && callee.ends_with(".set_device")) {
    if (e.args().size() != 1 || e.args()[0].kind != K::Int || e.args()[0].value != device_)
      return error(e, callee + " must name the device of the enclosing _DeviceGuard");
    return Status::ok();
  }
  // Tensor methods Inductor calls for their effect: workspace zeroing (`ws.zero_()`), device
  // copies (`dst.copy_(src, False)`).
  if (e.items[0].kind == K::Attribute &&
      (e.items[0].text == "zero_" || e.items[0].text == "copy_")) {
    auto n = methodExtern(e, "torch.ops.aten." + e.items[0].text + ".default");
    return n ? Status::ok() : Status(n.takeError());
  }
  // Debugging and profiling calls (config.generate_intermediate_hooks,
  // triton.debug_sync_graph, profile_bandwidth, annotate_training): kept as calls with their
  // arguments, so the program says where they run.
  static const std::map<std::string, std::string, std::less<>> kEffects = {
      {"run_intermediate_hooks", "torch._inductor.hooks.run_intermediate_hooks"},
      {"torch.cuda.synchronize", "torch.cuda.synchronize"},
      {"torch.xpu.synchronize", "torch.xpu.synchronize"},
      {"start_graph", "torch._inductor.runtime.triton_heuristics.start_graph"},
      {"end_graph", "torch._inductor.runtime.triton_heuristics.end_graph"},
      {"nvtx._device_range_end", "torch.cuda.nvtx._device_range_end"}};
  if (auto it = kEffects.find(callee); it != kEffects.end()) {
    std::vector<Argument> args;
    for (const PyExpr &a : e.args()) {
      auto v = value(a);
      if (!v)
        return v.takeError();
      args.push_back(v.take());
    }
    if (!e.keywords.empty())
      return error(e.keywords[0], "unexpected keyword argument of " + callee);
    std::string base = it->second.substr(it->second.rfind('.') + 1);
    add(base, it->second, std::move(args));
    return Status::ok();
  }
  if (callee.ends_with(".run") && multiKernels_.count(callee.substr(0, callee.size() - 4))) {
    const InductorMultiKernel *m = multiKernels_[callee.substr(0, callee.size() - 4)];
    return launch(e, *kernels_[m->choices[0]], "", m);
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
    FXKIT_ASSIGN_OR_RETURN(auto lay, layout(args[1], args[2], "assert_size_stride: "));
    items.push_back(std::move(lay.sizeArg));
    items.push_back(std::move(lay.strideArg));
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
    type.sizes = std::move(lay.sizes);
    type.strides = std::move(lay.strides);
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
  add(callee, std::string(wrapper::kFxkitPrefix) + callee, std::move(items));
  return Status::ok();
}

Status CallBuilder::launch(const PyExpr &call, const InductorKernel &k,
                           const std::string &resultName, const InductorMultiKernel *multi) {
  if (!resultName.empty())
    return error(call, "a kernel launch returns nothing; it cannot be assigned");
  auto args = call.args();
  // What the launch binds, in order (InductorKernel::launchArgs says why); wrappers of older
  // Triton versions pass the signature's runtime parameters, or all of them.
  std::vector<std::string> params;
  if (k.kind == InductorKernel::Kind::Triton)
    params = k.launchArgs;
  else
    for (const KernelParam &p : k.params)
      params.push_back(p.name);
  if (multi) {
    // A multi-kernel passes its first kernel's arguments (MultiKernel.call_kernel); with an
    // `arg_index` its kernels take slices of a longer list: the arguments keep their places.
    if (args.size() != params.size()) {
      params.clear();
      for (size_t i = 0; i < args.size(); ++i)
        params.push_back("arg" + std::to_string(i));
    }
  } else if (args.size() != params.size()) {
    std::vector<std::string> runtime, all;
    for (const KernelParam &p : k.params) {
      all.push_back(p.name);
      if (!p.isConstexpr())
        runtime.push_back(p.name);
    }
    if (args.size() == runtime.size())
      params = std::move(runtime);
    else if (args.size() == all.size())
      params = std::move(all);
    else
      return error(call, "kernel '" + k.name + "' takes " + std::to_string(params.size()) +
                             " arguments, the launch passes " + std::to_string(args.size()));
  }
  std::vector<std::pair<std::string, Argument>> bound;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].kind == K::Starred)
      return error(args[i], "starred arguments of a kernel launch are not supported");
    auto v = value(args[i]);
    if (!v)
      return v.takeError();
    bound.push_back({params[i], v.take()});
  }
  std::vector<std::pair<std::string, Argument>> kwargs{
      {"name", Argument::string(multi ? multi->name : k.name)},
      {"args", Argument::dict(std::move(bound))}};
  if (multi) {
    std::vector<Argument> choices;
    for (const std::string &c : multi->choices)
      choices.push_back(Argument::string(c));
    kwargs.push_back({"choices", Argument::list(std::move(choices))});
  }
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
  addProvenance(kwargs, multi ? multi->name : k.name);
  add(multi ? multi->name : k.name, wrapper::kKernel, {}, std::move(kwargs));
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
  return add(base, wrapper::kExtern, {}, std::move(kwargs));
}

Expected<Node *> CallBuilder::allocation(const PyExpr &call, const std::string &name) {
  std::string callee = call.callee();
  auto args = call.args();
  // The spellings of make_allocation and CommBufferAllocateLine:
  //   empty_strided_cuda(sizes, strides, dtype)    (also _cpu, _xpu, _mtia, _cpu_pinned)
  //   empty_strided(sizes, strides, device='mps', dtype=torch.float32)
  //   tracked_empty_strided(sizes, strides, dtype=.., device='cuda', name='buf0')
  //   empty_strided_p2p(sizes, strides, dtype, torch.device("cuda:0"), group_name=.., alloc_id=..)
  const PyExpr *dtypeExpr = nullptr;
  std::string deviceText;
  const PyExpr *deviceAt = &call;
  std::vector<std::pair<std::string, Argument>> extra;
  bool p2p = callee == "empty_strided_p2p";
  if (callee == "empty_strided" || callee == "tracked_empty_strided") {
    const PyExpr *d = call.keyword("device");
    dtypeExpr = call.keyword("dtype");
    if (args.size() != 2 || !d || d->kind != K::String || !dtypeExpr)
      return error(call, "expected " + callee + "(sizes, strides, device='..', dtype=..)");
    deviceText = d->text;
    deviceAt = d;
    for (const PyExpr &kw : call.keywords)
      if (kw.key != "device" && kw.key != "dtype" && !(kw.key == "name" && kw.kind == K::String))
        return error(kw, "unexpected argument '" + kw.key + "' of " + callee);
  } else if (p2p) {
    if (args.size() != 4 || args[3].kind != K::Call || args[3].callee() != "torch.device" ||
        args[3].args().size() != 1 || args[3].args()[0].kind != K::String)
      return error(call, "expected empty_strided_p2p(sizes, strides, dtype, "
                         "torch.device(\"cuda:N\"), group_name=.., alloc_id=..)");
    dtypeExpr = &args[2];
    deviceText = args[3].args()[0].text;
    deviceAt = &args[3];
    for (const PyExpr &kw : call.keywords) {
      auto v = value(kw);
      if (!v)
        return v.takeError();
      extra.push_back({kw.key, v.take()});
    }
    extra.push_back({"comm_buffer", Argument::string("symm_mem")});
  } else {
    if (args.size() != 3 || !call.keywords.empty())
      return error(call, "expected " + callee + "(sizes, strides, dtype)");
    dtypeExpr = &args[2];
    deviceText = callee.substr(std::string("empty_strided_").size());
    if (deviceText == "cpu_pinned") {
      deviceText = "cpu";
      extra.push_back({"pin_memory", Argument::boolean(true)});
    }
  }
  FXKIT_ASSIGN_OR_RETURN(auto lay, layout(args[0], args[1], ""));
  FXKIT_ASSIGN_OR_RETURN(auto dtype, dtypeOf(*dtypeExpr));
  auto device = Device::parse(deviceText);
  if (!device)
    return error(*deviceAt, "unknown device '" + deviceText + "'");
  std::vector<std::pair<std::string, Argument>> kwargs{{"dtype", Argument::dtype(dtype)},
                                                       {"device", Argument::device(*device)}};
  for (auto &e : extra)
    kwargs.push_back(std::move(e));
  Node *n = add(name, wrapper::kEmptyStrided, {std::move(lay.sizeArg), std::move(lay.strideArg)},
                std::move(kwargs));
  TensorType type;
  type.dtype = dtype;
  type.sizes = std::move(lay.sizes);
  type.strides = std::move(lay.strides);
  type.device = *device;
  if (device->type != "cpu" && device_ >= 0 && !p2p)
    type.device.index = static_cast<int>(device_);
  n->value() = NodeValue{std::move(type)};
  return n;
}

Expected<Node *> CallBuilder::asStrided(Node *base, const PyExpr &call, const std::string &name) {
  auto args = call.args();
  if (args.size() != 2 || !call.keywords.empty())
    return error(call, "expected .as_strided(sizes, strides)");
  FXKIT_ASSIGN_OR_RETURN(auto lay, layout(args[0], args[1], ""));
  Node *n = add(name, wrapper::kAsStrided,
                {Argument::node(base), std::move(lay.sizeArg), std::move(lay.strideArg),
                 Argument::integer(0)});
  if (const TensorType *t = base->value().tensor()) {
    TensorType vt = *t;
    vt.sizes = std::move(lay.sizes);
    vt.strides = std::move(lay.strides);
    n->value() = NodeValue{std::move(vt)};
  }
  root_[n] = rootOf(base);
  return n;
}

Expected<Node *> CallBuilder::dtypeView(const PyExpr &call, const std::string &name) {
  auto args = call.args();
  if (args.size() != 2 || !call.keywords.empty())
    return error(call, "expected aten.view.dtype(tensor, dtype)");
  auto base = tensor(args[0]);
  if (!base)
    return base.takeError();
  FXKIT_ASSIGN_OR_RETURN(auto dtype, dtypeOf(args[1]));
  Node *n = add(name.empty() ? (*base)->name() + "_view" : name, "torch.ops.aten.view.dtype",
                {Argument::node(*base), Argument::dtype(dtype)});
  if (const TensorType *t = (*base)->value().tensor()) {
    // Elements of another size: the last dimension (stride 1) scales, the other strides too.
    TensorType vt = *t;
    int64_t from = dtypeItemSize(t->dtype), to = dtypeItemSize(dtype);
    vt.dtype = dtype;
    if (from != to && !vt.sizes.empty()) {
      auto scale = [&](const SymExpr &x) {
        return from > to ? SymExpr::binary(SymExpr::Kind::Mul, x, SymExpr(from / to))
                         : SymExpr::binary(SymExpr::Kind::FloorDiv, x, SymExpr(to / from));
      };
      vt.sizes.back() = scale(vt.sizes.back()).simplify();
      for (size_t d = 0; d + 1 < vt.strides.size(); ++d)
        vt.strides[d] = scale(vt.strides[d]).simplify();
    }
    n->value() = NodeValue{std::move(vt)};
  }
  root_[n] = rootOf(*base);
  return n;
}

Expected<Node *> CallBuilder::allocFromPool(const PyExpr &call, const std::string &name) {
  auto args = call.args();
  if (args.size() != 5 || !call.keywords.empty())
    return error(call, "expected alloc_from_pool(pool, offset, dtype, sizes, strides)");
  auto pool = tensor(args[0]);
  if (!pool)
    return pool.takeError();
  FXKIT_ASSIGN_OR_RETURN(auto offset, offsetOf(args[1]));
  FXKIT_ASSIGN_OR_RETURN(auto dtype, dtypeOf(args[2]));
  FXKIT_ASSIGN_OR_RETURN(auto lay, layout(args[3], args[4], ""));
  Node *n = add(name.empty() ? (*pool)->name() + "_alloc" : name, wrapper::kAllocFromPool,
                {Argument::node(*pool), std::move(offset), Argument::dtype(dtype),
                 std::move(lay.sizeArg), std::move(lay.strideArg)});
  TensorType type;
  type.dtype = dtype;
  type.sizes = std::move(lay.sizes);
  type.strides = std::move(lay.strides);
  if (const TensorType *p = (*pool)->value().tensor())
    type.device = p->device;
  else
    type.hasDevice = false;
  n->value() = NodeValue{std::move(type)};
  root_[n] = rootOf(*pool);
  return n;
}

Expected<Node *> CallBuilder::methodExtern(const PyExpr &call, const std::string &op) {
  auto self = tensor(call.items[0].items[0]);
  if (!self)
    return self.takeError();
  std::vector<Argument> inputs{Argument::node(*self)};
  for (const PyExpr &a : call.args()) {
    auto v = value(a);
    if (!v)
      return v.takeError();
    inputs.push_back(v.take());
  }
  std::vector<std::pair<std::string, Argument>> options;
  for (const PyExpr &kw : call.keywords) {
    auto v = value(kw);
    if (!v)
      return v.takeError();
    options.push_back({kw.key, v.take()});
  }
  std::vector<std::pair<std::string, Argument>> kwargs{
      {"op", Argument::string(op)}, {"inputs", Argument::tuple(std::move(inputs))}};
  if (!options.empty())
    kwargs.push_back({"options", Argument::dict(std::move(options))});
  addProvenance(kwargs, op);
  std::string base = call.items[0].text;
  return add(base, wrapper::kExtern, {}, std::move(kwargs));
}

Expected<Node *> CallBuilder::view(const PyExpr &call, const std::string &name,
                                   const std::string &reuseOf) {
  auto args = call.args();
  if (args.size() != 4 || !call.keywords.empty())
    return error(call, "expected reinterpret_tensor(tensor, sizes, strides, offset)");
  auto base = tensor(args[0]);
  if (!base)
    return base.takeError();
  FXKIT_ASSIGN_OR_RETURN(auto lay, layout(args[1], args[2], nullptr));
  FXKIT_ASSIGN_OR_RETURN(auto offset, offsetOf(args[3]));
  std::vector<std::pair<std::string, Argument>> kwargs;
  if (!reuseOf.empty())
    kwargs.push_back({"reuse", Argument::string(reuseOf)});
  Node *n = add(
      name.empty() ? (*base)->name() + "_view" : name, wrapper::kAsStrided,
      {Argument::node(*base), std::move(lay.sizeArg), std::move(lay.strideArg), std::move(offset)},
      std::move(kwargs));
  if (const TensorType *t = (*base)->value().tensor()) {
    TensorType vt = *t;
    vt.sizes = std::move(lay.sizes);
    vt.strides = std::move(lay.strides);
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

/// Functions PyTorch's PythonPrinter writes in size expressions (Max -> max, floor ->
/// math.floor, ToFloat -> float, ...).
bool isSizeFunction(std::string_view callee) {
  static const std::set<std::string_view> kNames = {"max", "min", "abs", "int", "float", "round"};
  return kNames.count(callee) || callee.starts_with("math.");
}

/// The allocation functions of make_allocation / CommBufferAllocateLine.
bool isAllocator(std::string_view callee) {
  return callee.starts_with("empty_strided_") || callee == "empty_strided" ||
         callee == "tracked_empty_strided";
}

Status CallBuilder::assignment(const std::vector<PyStmt> &stmts, size_t i) {
  const PyStmt &s = stmts[i];
  const PyExpr &v = s.value;
  // `(buf3, buf4) = self.partitions[0](partition0_args)`, `a, b, s0 = args` in a partition:
  // unpacking a list or a function's results.
  if (s.targets.size() == 1 && (s.targets[0].kind == K::Tuple || s.targets[0].kind == K::List)) {
    std::vector<Binding> values;
    bool inFlight = false;
    if (isFunctionCall(v)) {
      auto r = inlineCall(v);
      if (!r)
        return r.takeError();
      values = r.take();
      inFlight = true;
    } else if (v.kind == K::Name) {
      Binding *b = lookup(v.text);
      if (!b)
        return error(v, "name '" + v.text + "' is not defined");
      if (b->kind != Binding::Kind::List)
        return error(v, "'" + v.text + "' is not a list to unpack");
      values = lists_[static_cast<size_t>(b->arg.asInt())];
    } else {
      return error(v, "unsupported value to unpack in call()");
    }
    const std::vector<PyExpr> &names = s.targets[0].items;
    if (names.size() != values.size())
      return error(s.targets[0], "unpacking " + std::to_string(values.size()) + " values into " +
                                     std::to_string(names.size()) + " names");
    for (const PyExpr &t : names)
      if (t.kind != K::Name)
        return error(t, "expected a name in the unpacking");
    for (size_t k = 0; k < names.size(); ++k) {
      if (values[k].kind == Binding::Kind::Tensor)
        bindTensor(names[k].text, values[k].arg.asNode());
      else
        bind(names[k].text, values[k]);
    }
    if (inFlight)
      for (const Binding &b : values)
        if (b.kind == Binding::Kind::Tensor)
          release(b.arg.asNode());
    return Status::ok();
  }
  if (s.targets.size() != 1 || s.targets[0].kind != K::Name)
    return error(s, "unsupported assignment in call() (expected one name on the left)");
  const std::string &name = s.targets[0].text;
  // `partition0_args = [arg2_1, buf1, s27]`; `buf2 = [None] * 2` (invoke_subgraph's results)
  if (v.kind == K::List || (v.kind == K::Binary && v.text == "*" && v.items[0].kind == K::List &&
                            v.items[1].kind == K::Int)) {
    std::vector<Binding> items;
    const PyExpr &list = v.kind == K::List ? v : v.items[0];
    for (const PyExpr &x : list.items) {
      auto b = bindingOf(x);
      if (!b)
        return b.takeError();
      items.push_back(b.take());
    }
    if (v.kind == K::Binary) {
      if (v.items[1].value < 0 || v.items[1].value > 100000)
        return error(v.items[1], "list repeated too often");
      std::vector<Binding> repeated;
      for (int64_t r = 0; r < v.items[1].value; ++r)
        repeated.insert(repeated.end(), items.begin(), items.end());
      items = std::move(repeated);
    }
    bind(name, newList(std::move(items)));
    return Status::ok();
  }
  // `buf2 = subgraph_0(subgraph_0_args)`: the results as a list
  if (isFunctionCall(v)) {
    auto r = inlineCall(v);
    if (!r)
      return r.takeError();
    Binding list = newList(*r);
    for (const Binding &b : *r)
      if (b.kind == Binding::Kind::Tensor)
        release(b.arg.asNode());
    bind(name, list);
    return Status::ok();
  }
  // `buf3 = buf2[0]` of such a list
  if (v.kind == K::Subscript && v.items[0].kind == K::Name && v.items[1].kind == K::Int)
    if (Binding *b = lookup(v.items[0].text); b && b->kind == Binding::Kind::List) {
      const auto &items = lists_[static_cast<size_t>(b->arg.asInt())];
      int64_t at = v.items[1].value;
      if (at < 0 || at >= static_cast<int64_t>(items.size()))
        return error(v.items[1], "index " + std::to_string(at) + " of a list of " +
                                     std::to_string(items.size()));
      Binding item = items[static_cast<size_t>(at)];
      if (item.kind == Binding::Kind::Tensor)
        bindTensor(name, item.arg.asNode());
      else
        bind(name, item);
      return Status::ok();
    }
  // `buf3 = None`: DynamicScalar and AssertScalar name their (tensorless) buffer.
  if (v.kind == K::Const && v.text == "None") {
    bind(name, Binding{Binding::Kind::None, Argument::none(), 0});
    return Status::ok();
  }
  if (v.kind == K::Call) {
    std::string callee = v.callee();
    if (isAllocator(callee)) {
      auto n = allocation(v, name);
      if (!n)
        return n.takeError();
      bindTensor(name, *n);
      return Status::ok();
    }
    const PyExpr &fn = v.items[0];
    // `buf0 = empty_strided_cuda(alloc_sizes, strides, dt).as_strided(sizes, strides)`
    if (fn.kind == K::Attribute && fn.text == "as_strided" && fn.items[0].kind == K::Call &&
        isAllocator(fn.items[0].callee())) {
      auto storage = allocation(fn.items[0], name + "_storage");
      if (!storage)
        return storage.takeError();
      auto n = asStrided(*storage, v, name);
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
    if (callee == "aten.view.dtype" || callee == "torch.ops.aten.view.dtype") {
      auto n = dtypeView(v, name);
      if (!n)
        return n.takeError();
      bindTensor(name, *n);
      return Status::ok();
    }
    if (callee == "alloc_from_pool") {
      auto n = allocFromPool(v, name);
      if (!n)
        return n.takeError();
      bindTensor(name, *n);
      return Status::ok();
    }
    if (callee == "get_raw_stream") {
      if (v.args().size() != 1 || v.args()[0].kind != K::Int)
        return error(v, "expected get_raw_stream(N)");
      bind(name, Binding{Binding::Kind::Stream, Argument(), v.args()[0].value});
      return Status::ok();
    }
    if (std::string op = externOp(callee); !op.empty()) {
      auto n = externCall(v, op, name);
      if (!n)
        return n.takeError();
      bindTensor(name, *n);
      return Status::ok();
    }
    // `arg0_1_size = arg0_1.size()`: the sizes (strides) that `s0 = arg0_1_size[0]` indexes.
    if (fn.kind == K::Attribute && (fn.text == "size" || fn.text == "stride") && v.args().empty() &&
        v.keywords.empty()) {
      auto t = tensor(fn.items[0]);
      if (!t)
        return t.takeError();
      Binding b{Binding::Kind::Shape, Argument::node(*t), 0};
      b.strides = fn.text == "stride";
      bind(name, b);
      return Status::ok();
    }
    // A host-side TMA descriptor of a tensor, passed to a kernel in its place.
    if (callee == "triton.tools.tensor_descriptor.TensorDescriptor.from_tensor") {
      if (v.args().size() != 2 || !v.keywords.empty())
        return error(v, "expected TensorDescriptor.from_tensor(tensor, block_shape)");
      auto t = tensor(v.args()[0]);
      if (!t)
        return t.takeError();
      auto block = value(v.args()[1]);
      if (!block)
        return block.takeError();
      Node *n = add(name, callee, {Argument::node(*t), block.take()});
      root_[n] = rootOf(*t);
      bindTensor(name, n);
      return Status::ok();
    }
    // `training_annotation = nvtx._device_range_start('forward')` (annotate_training)
    if (callee == "nvtx._device_range_start") {
      auto label = v.args().size() == 1 ? value(v.args()[0]) : Expected<Argument>(Argument());
      if (!label || v.args().size() != 1 || label->kind() != Argument::Kind::String)
        return error(v, "expected nvtx._device_range_start('label')");
      Node *n = add(name, "torch.cuda.nvtx._device_range_start", {label.take()});
      bind(name, Binding{Binding::Kind::Size, Argument::node(n), 0});
      return Status::ok();
    }
    if (kernels_.count(callee) || multiKernels_.count(callee) ||
        (callee.ends_with(".run") && (kernels_.count(callee.substr(0, callee.size() - 4)) ||
                                      multiKernels_.count(callee.substr(0, callee.size() - 4)))))
      return error(v, "a kernel launch returns nothing; it cannot be assigned");
    if (!needsNodes(v) && !isSizeFunction(callee))
      return error(v, "unsupported call '" + (callee.empty() ? std::string("?") : callee) +
                          "' in call()");
  }
  // `buf7 = buf6[0]` (MultiOutput; also `buf6[0][1]`, `buf6['key']`); `s0 = arg0_1_size[0]`.
  if (v.kind == K::Subscript) {
    Binding *b = v.items[0].kind == K::Name ? lookup(v.items[0].text) : nullptr;
    if (!b || b->kind != Binding::Kind::Shape) {
      auto t = tensor(v, name);
      if (!t)
        return t.takeError();
      bindTensor(name, *t);
      return Status::ok();
    }
  }
  if (v.kind == K::Name) {
    Binding *b = lookup(v.text);
    if (!b)
      return error(v, "name '" + v.text + "' is not defined");
    if (b->kind == Binding::Kind::Tensor) {
      Node *from = b->arg.asNode();
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
        Node *n = add(name, wrapper::kAsStrided,
                      {Argument::node(from), Argument::list(std::move(sz)),
                       Argument::list(std::move(st)), Argument::integer(0)},
                      {{"reuse", Argument::string(v.text)}});
        n->value() = NodeValue{*t};
        root_[n] = rootOf(from);
        bindTensor(name, n);
        return Status::ok();
      }
      // A second name for the same tensor (`buf1 = buf0` before an assertion, `buf1 = buf0;
      // # reuse` of an output): no new node.
      bindTensor(name, from);
      return Status::ok();
    }
    Binding copy = *b;
    bind(name, copy); // a size, stream, shape or None under another name (`s77 = arg0_1`)
    return Status::ok();
  }
  // Size arithmetic: `ks0 = s17*s77`, `kernel_xnumel = 1024*s0`; scalars that need nodes:
  // `u0 = buf2.item()`, `u1 = 1 if buf3.item() else 0`, `u2 = buf4[0].size(0)`,
  // `u3_start = max(0, min(s0, u1)) if u1 >= 0 else ...`, `u3 = max(0, u3_end - u3_start)`.
  if (v.kind == K::Int || v.kind == K::Binary || v.kind == K::Unary || v.kind == K::IfExp ||
      v.kind == K::Call || v.kind == K::Subscript) {
    auto a = scalar(v, name);
    if (!a)
      return a.takeError();
    Argument arg = a.take();
    // The name stands for the value from here on (an unbacked symbol such as u0 is not an
    // expression of others); a node computed for this name carries it as its value.
    if (arg.isNode() && arg.asNode()->name() == name && !arg.asNode()->value().sym())
      arg.asNode()->value() = NodeValue{SymExpr::symbol(name)};
    bind(name, Binding{Binding::Kind::Size, std::move(arg), 0});
    return Status::ok();
  }
  return error(v, "unsupported value assigned to '" + name + "' in call()");
}

Expected<Binding> CallBuilder::bindingOf(const PyExpr &e) {
  if (e.kind == K::Name) {
    Binding *b = lookup(e.text);
    if (!b)
      return error(e, "name '" + e.text + "' is not defined");
    if (b->kind == Binding::Kind::Stream)
      return error(e, "a stream can only be passed as stream=");
    return *b;
  }
  if (e.kind == K::Const && e.text == "None")
    return Binding{Binding::Kind::None, Argument::none(), 0};
  auto v = value(e);
  if (!v)
    return v.takeError();
  if (!v->isNode())
    return Binding{Binding::Kind::Size, v.take(), 0};
  // Scalars are computed by operator.*, torch.sym_* and the aten scalar ops; any other node
  // (a view, a getitem of a multi-output call) is a tensor.
  const Node *n = v->asNode();
  std::string_view t = n->target();
  bool scalarNode = n->value().sym() || t.starts_with("torch.sym_") ||
                    (t.starts_with(wrapper::kOperatorPrefix) && t != wrapper::kGetItem) ||
                    t == "torch.ops.aten.item.default" || t.starts_with("torch.ops.aten.sym_");
  return Binding{scalarNode ? Binding::Kind::Size : Binding::Kind::Tensor, v.take(), 0};
}

bool CallBuilder::isFunctionCall(const PyExpr &e) const {
  if (e.kind != K::Call)
    return false;
  const PyExpr &fn = e.items[0];
  if (fn.kind == K::Subscript && fn.items[0].dotted() == "self.partitions")
    return true;
  return fn.kind == K::Name && functions_.count(fn.text) && !kernels_.count(fn.text);
}

Expected<std::vector<Binding>> CallBuilder::inlineCall(const PyExpr &call) {
  const PyExpr &fn = call.items[0];
  std::string name;
  if (fn.kind == K::Subscript) {
    if (fn.items[1].kind != K::Int || fn.items[1].value < 0 ||
        fn.items[1].value >= static_cast<int64_t>(partitions_.size()))
      return error(fn, "self.partitions has " + std::to_string(partitions_.size()) +
                           " partitions (the module's Runner(partitions=[...]))");
    name = partitions_[static_cast<size_t>(fn.items[1].value)];
  } else {
    name = fn.text;
  }
  auto f = functions_.find(name);
  if (f == functions_.end())
    return error(fn, "'" + name + "' is not a function of the module");
  const PyExpr *arg = call.args().size() == 1 ? &call.args()[0] : nullptr;
  Binding *list = arg && arg->kind == K::Name ? lookup(arg->text) : nullptr;
  if (!list || list->kind != Binding::Kind::List || !call.keywords.empty())
    return error(call, "expected " + name + "(<list of its arguments>)");
  if (inlineDepth_ >= 16)
    return error(call, "calls of module functions nested too deeply (limit 16)");
  const PyStmt &def = *f->second;
  // The function runs in its own namespace, with `args` naming the caller's list.
  std::map<std::string, Binding, std::less<>> caller = std::move(scope_);
  scope_.clear();
  scope_[def.params[0]] = *list;
  std::vector<Binding> results;
  std::vector<Binding> *callerResults = results_;
  results_ = &results;
  ++inlineDepth_;
  Status st = block(def.body);
  --inlineDepth_;
  bool returned = returned_;
  returned_ = false;
  results_ = callerResults;
  if (st && !returned) { // falls off its end: its locals die, it returns None
    std::vector<Binding> locals;
    for (const auto &entry : scope_)
      locals.push_back(entry.second);
    for (const Binding &b : locals)
      if (b.kind == Binding::Kind::Tensor)
        release(b.arg.asNode(), true);
  }
  scope_ = std::move(caller);
  if (!st)
    return st.takeError();
  return results;
}

Status CallBuilder::deletion(const PyStmt &s) {
  for (const PyExpr &t : s.targets) {
    if (t.kind != K::Name)
      return error(t, "expected a name after 'del'");
    auto it = scope_.find(t.text);
    if (it == scope_.end())
      return error(t, "del of '" + t.text + "', which is not defined");
    Binding b = it->second;
    scope_.erase(it);
    if (b.kind == Binding::Kind::Tensor)
      release(b.arg.asNode());
    else if (b.kind == Binding::Kind::List) {
      bool shared = false; // another name of the same list keeps it
      for (const auto &[other, ob] : scope_)
        shared = shared || (ob.kind == Binding::Kind::List && ob.arg.asInt() == b.arg.asInt());
      if (!shared)
        clearList(b);
    }
  }
  return Status::ok();
}

Status CallBuilder::returnStatement(const PyStmt &s) {
  if (results_) {
    // A module function run inline: its results go to the caller's targets; its other
    // locals die here. A returned tensor is held while in flight (the caller drops that).
    std::vector<const PyExpr *> items;
    if (s.value.kind == K::Tuple)
      for (const PyExpr &e : s.value.items)
        items.push_back(&e);
    else if (!(s.value.kind == K::Const && s.value.text == "None"))
      items.push_back(&s.value);
    for (const PyExpr *e : items) {
      auto b = bindingOf(*e);
      if (!b)
        return b.takeError();
      if (b->kind == Binding::Kind::Tensor)
        ++liveNames_[rootOf(b->arg.asNode())];
      results_->push_back(b.take());
    }
    std::vector<Binding> locals;
    for (const auto &entry : scope_)
      locals.push_back(entry.second);
    scope_.clear();
    for (const Binding &b : locals)
      if (b.kind == Binding::Kind::Tensor)
        release(b.arg.asNode(), true);
    returned_ = true;
    return Status::ok();
  }
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
    if (root->op() == OpKind::Placeholder || root->op() == OpKind::GetAttr ||
        !kept.insert(root).second)
      continue;
    add("free", wrapper::kFree, {Argument::node(n)}, {{"at_return", Argument::boolean(true)}});
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
    Binding *b = lookup(e.text);
    if (!b)
      return error(e, "name '" + e.text + "' is not defined");
    if (b->kind != Binding::Kind::Size)
      return error(e, "'" + e.text + "' is not a size");
    if (b->arg.kind() == Argument::Kind::Int)
      out = SymExpr(b->arg.asInt());
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
  wrapper::SizeNodeHooks hooks;
  hooks.symbol = [&](std::string_view symbol) -> Expected<Argument> {
    auto it = scope_.find(symbol);
    if (it == scope_.end() || it->second.kind != Binding::Kind::Size)
      return Error("size symbol '" + std::string(symbol) + "' is not bound");
    return it->second.arg;
  };
  hooks.operand = [&](const SymExpr &o, std::string_view n) { return size(o, std::string(n)); };
  hooks.emit = [&](const SymExpr &x, wrapper::Call call, std::string_view n) {
    Node *node = add(std::string(n), call.target, std::move(call.args));
    node->value() = NodeValue{x};
    return node;
  };
  return wrapper::sizeArgument(e, name, sizes_, hooks);
}

Expected<CallBuilder::Layout> CallBuilder::layout(const PyExpr &sizes, const PyExpr &strides,
                                                  const char *mismatch) {
  Layout l;
  FXKIT_ASSIGN_OR_RETURN(l.sizeArg, sizeList(sizes, &l.sizes));
  FXKIT_ASSIGN_OR_RETURN(l.strideArg, sizeList(strides, &l.strides));
  if (mismatch && l.sizes.size() != l.strides.size())
    return error(strides, mismatch + std::to_string(l.sizes.size()) + " sizes but " +
                              std::to_string(l.strides.size()) + " strides");
  return l;
}

Expected<DType> CallBuilder::dtypeOf(const PyExpr &e) {
  std::string dt = e.dotted();
  auto dtype = dt.starts_with("torch.") ? parseDType(dt) : std::nullopt;
  if (!dtype)
    return error(e, "expected a dtype such as torch.float32");
  return *dtype;
}

Expected<Argument> CallBuilder::offsetOf(const PyExpr &e) {
  FXKIT_ASSIGN_OR_RETURN(auto offsetExpr, symOf(e));
  auto offset = size(offsetExpr);
  if (!offset)
    return error(e, offset.error().message);
  return offset;
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

Expected<Node *> CallBuilder::tensor(const PyExpr &e, const std::string &name) {
  if (e.kind == K::Call && e.callee() == "reinterpret_tensor")
    return view(e, name, "");
  if (e.kind == K::Call &&
      (e.callee() == "aten.view.dtype" || e.callee() == "torch.ops.aten.view.dtype"))
    return dtypeView(e, name);
  if (e.kind == K::Call && e.callee() == "alloc_from_pool")
    return allocFromPool(e, name);
  if (e.kind == K::Subscript) {
    // An element of a multi-output call's result: list and tuple indices, dict keys.
    const PyExpr &index = e.items[1];
    if (index.kind != K::Int && index.kind != K::String)
      return error(index, "expected an integer index or a string key");
    // An item of a list (a subgraph's results)
    if (Binding *l = e.items[0].kind == K::Name ? lookup(e.items[0].text) : nullptr;
        l && l->kind == Binding::Kind::List && index.kind == K::Int) {
      const auto &items = lists_[static_cast<size_t>(l->arg.asInt())];
      if (index.value < 0 || index.value >= static_cast<int64_t>(items.size()) ||
          items[static_cast<size_t>(index.value)].kind != Binding::Kind::Tensor)
        return error(index, "item " + std::to_string(index.value) + " of '" + e.items[0].text +
                                "' is not a tensor");
      return items[static_cast<size_t>(index.value)].arg.asNode();
    }
    auto base = tensor(e.items[0]);
    if (!base)
      return base;
    Node *n = add(name.empty() ? "getitem" : name, wrapper::kGetItem,
                  {Argument::node(*base), index.kind == K::Int ? Argument::integer(index.value)
                                                               : Argument::string(index.text)});
    return n;
  }
  if (e.kind != K::Name)
    return error(e, "expected a tensor name");
  Binding *b = lookup(e.text);
  if (!b)
    return error(e, "name '" + e.text + "' is not defined");
  if (b->kind != Binding::Kind::Tensor)
    return error(e, "'" + e.text + "' is not a tensor");
  return b->arg.asNode();
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
    Binding *b = lookup(e.text);
    if (!b) {
      // `from math import inf, nan`: repr() of float arguments writes them bare.
      if (e.text == "inf" || e.text == "nan")
        return Argument::floating(e.text == "inf" ? HUGE_VAL : NAN);
      return error(e, "name '" + e.text + "' is not defined");
    }
    switch (b->kind) {
    case Binding::Kind::Stream:
      return error(e, "a stream can only be passed as stream=");
    case Binding::Kind::Shape:
      return error(e, "'" + e.text + "' holds sizes; only its elements can be passed");
    case Binding::Kind::None:
      return Argument::none();
    case Binding::Kind::Tensor:
    case Binding::Kind::Size:
    case Binding::Kind::List: // the list's index: calls that take lists read it (subgraphs)
      return b->arg;
    }
    return b->arg;
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
  case K::Dict: {
    std::vector<std::pair<std::string, Argument>> entries;
    for (size_t i = 0; i + 1 < e.items.size(); i += 2) {
      if (e.items[i].kind != K::String)
        return error(e.items[i], "expected a string key");
      auto a = value(e.items[i + 1]);
      if (!a)
        return a;
      entries.push_back({e.items[i].text, a.take()});
    }
    return Argument::dict(std::move(entries));
  }
  case K::Unary:
    if (e.text == "-" && e.items[0].kind == K::Float)
      return Argument::floating(-std::strtod(e.items[0].text.c_str(), nullptr));
    if (e.text == "-" && e.items[0].isName("inf") && !lookup("inf"))
      return Argument::floating(-HUGE_VAL);
    [[fallthrough]];
  case K::Binary:
  case K::IfExp:
    return scalar(e);
  case K::Subscript: {
    Binding *b = e.items[0].kind == K::Name ? lookup(e.items[0].text) : nullptr;
    if (b && b->kind == Binding::Kind::Shape)
      return scalar(e);
    auto n = tensor(e);
    if (!n)
      return n.takeError();
    return Argument::node(*n);
  }
  case K::Call: {
    std::string callee = e.callee();
    if (callee == "reinterpret_tensor" || callee == "aten.view.dtype" ||
        callee == "torch.ops.aten.view.dtype" || callee == "alloc_from_pool") {
      auto n = tensor(e);
      if (!n)
        return n.takeError();
      return Argument::node(*n);
    }
    if (callee == "torch.device" && e.args().size() == 1 && e.args()[0].kind == K::String) {
      auto d = Device::parse(e.args()[0].text);
      if (!d)
        return error(e.args()[0], "unknown device '" + e.args()[0].text + "'");
      return Argument::device(*d);
    }
    // `arg3_1.item()` (a 0-d tensor passed where a kernel takes a scalar), `max(s0, 1)`
    if (needsNodes(e) || isSizeFunction(callee))
      return scalar(e);
    return error(e, "unsupported call '" + callee + "' as an argument");
  }
  default:
    return error(e, "unsupported argument");
  }
}

bool CallBuilder::needsNodes(const PyExpr &e) {
  static const std::set<std::string, std::less<>> kLogical = {"==", "!=",  "<",  "<=", ">",
                                                              ">=", "and", "or", "in", "is"};
  switch (e.kind) {
  case K::IfExp:
  case K::Subscript:
    return true;
  case K::Unary:
    return e.text == "not" || needsNodes(e.items[0]);
  case K::Binary:
    return kLogical.count(e.text) || needsNodes(e.items[0]) || needsNodes(e.items[1]);
  case K::Call: {
    // A method of a value of call() (`buf.item()`, `x.size(0)`); `math.floor(..)` and
    // `max(..)` are functions of sizes.
    const PyExpr &fn = e.items[0];
    if (fn.isName("max") || fn.isName("min")) // torch.sym_max / sym_min, as FX graphs spell it
      return true;
    if (fn.kind == K::Attribute) {
      const PyExpr *root = &fn;
      while (root->kind == K::Attribute)
        root = &root->items[0];
      if (root->kind != K::Name || scope_.count(root->text) || constants_.count(root->text))
        return true;
    }
    for (const PyExpr &a : e.args())
      if (needsNodes(a))
        return true;
    return false;
  }
  default:
    return false;
  }
}

Expected<Argument> CallBuilder::scalar(const PyExpr &e, const std::string &name) {
  if (!needsNodes(e)) {
    if (e.kind == K::Float)
      return Argument::floating(std::strtod(e.text.c_str(), nullptr));
    if (e.kind == K::Const && (e.text == "True" || e.text == "False"))
      return Argument::boolean(e.text == "True");
    auto s = symOf(e);
    if (!s)
      return s.takeError();
    auto a = size(*s, name);
    if (!a)
      return error(e, a.error().message);
    return a;
  }
  auto node = [&](const std::string &base, std::string_view target, std::vector<Argument> args,
                  std::optional<SymExpr> value = std::nullopt) {
    Node *n = add(name.empty() ? base : name, target, std::move(args));
    if (value)
      n->value() = NodeValue{*value};
    return Argument::node(n);
  };
  switch (e.kind) {
  case K::IfExp: {
    auto body = scalar(e.items[0]);
    if (!body)
      return body;
    auto test = scalar(e.items[1]);
    if (!test)
      return test;
    auto orelse = scalar(e.items[2]);
    if (!orelse)
      return orelse;
    return node("sym_ite", "torch.sym_ite", {test.take(), body.take(), orelse.take()});
  }
  case K::Unary: {
    auto x = scalar(e.items[0]);
    if (!x)
      return x;
    if (e.text == "not")
      return node("sym_not", "torch.sym_not", {x.take()});
    if (e.text == "-")
      return node("neg", wrapper::sizeArithOp(SymExpr::Kind::Neg)->target, {x.take()});
    if (e.text == "+")
      return x;
    return error(e, "unsupported operator '" + e.text + "' in a scalar");
  }
  case K::Binary: {
    static const std::map<std::string, std::string, std::less<>> kOps = {
        {"+", "add"}, {"-", "sub"},  {"*", "mul"}, {"/", "truediv"}, {"//", "floordiv"},
        {"%", "mod"}, {"**", "pow"}, {"==", "eq"}, {"!=", "ne"},     {"<", "lt"},
        {"<=", "le"}, {">", "gt"},   {">=", "ge"}, {"and", "and_"},  {"or", "or_"}};
    auto op = kOps.find(e.text);
    if (op == kOps.end())
      return error(e, "unsupported operator '" + e.text + "' in a scalar");
    auto a = scalar(e.items[0]);
    if (!a)
      return a;
    auto b = scalar(e.items[1]);
    if (!b)
      return b;
    std::string base = op->second;
    if (base.ends_with('_'))
      base.pop_back();
    return node(base, std::string(wrapper::kOperatorPrefix) + op->second, {a.take(), b.take()});
  }
  case K::Subscript: {
    // `arg0_1_size[0]` of `arg0_1_size = arg0_1.size()`
    Binding *b = e.items[0].kind == K::Name ? lookup(e.items[0].text) : nullptr;
    if (!b || b->kind != Binding::Kind::Shape || e.items[1].kind != K::Int)
      return error(e, "expected a scalar, not a subscript");
    return node(b->strides ? "sym_stride_int" : "sym_size_int",
                b->strides ? wrapper::kSymStride : wrapper::kSymSize,
                {b->arg, Argument::integer(e.items[1].value)});
  }
  case K::Call: {
    const PyExpr &fn = e.items[0];
    auto args = e.args();
    if (!e.keywords.empty())
      return error(e.keywords[0], "unexpected keyword argument in a scalar");
    std::string callee = e.callee();
    if (callee == "max" || callee == "min") {
      if (args.size() < 2)
        return error(e, "expected " + callee + "(a, b, ...)");
      auto acc = scalar(args[0]);
      if (!acc)
        return acc;
      for (size_t i = 1; i < args.size(); ++i) {
        auto x = scalar(args[i]);
        if (!x)
          return x;
        std::string base = "sym_" + callee;
        Node *n = add(i + 1 == args.size() && !name.empty() ? name : base, "torch." + base,
                      {acc.take(), x.take()});
        acc = Argument::node(n);
      }
      return acc;
    }
    if (fn.kind != K::Attribute)
      return error(e, "unsupported call '" + callee + "' in a scalar");
    const std::string &method = fn.text;
    // Unbacked symbols of an op's outputs (codegen_unbacked_symbol_defs_for_outputs):
    // `u0 = buf1[0].size(0)`, `.stride(1)`, `.storage_offset()`, `.item()`, `.__floordiv__(2)`.
    if (method == "__floordiv__" && args.size() == 1) {
      auto a = scalar(fn.items[0]);
      if (!a)
        return a;
      auto b = scalar(args[0]);
      if (!b)
        return b;
      return node("floordiv", wrapper::sizeArithOp(SymExpr::Kind::FloorDiv)->target,
                  {a.take(), b.take()});
    }
    auto t = tensor(fn.items[0]);
    if (!t)
      return t.takeError();
    if (method == "item" && args.empty())
      return node("item", "torch.ops.aten.item.default", {Argument::node(*t)});
    if ((method == "size" || method == "stride") && args.size() == 1 && args[0].kind == K::Int)
      return node(method == "size" ? "sym_size_int" : "sym_stride_int",
                  method == "size" ? wrapper::kSymSize : wrapper::kSymStride,
                  {Argument::node(*t), Argument::integer(args[0].value)});
    if (method == "storage_offset" && args.empty())
      return node("sym_storage_offset", "torch.ops.aten.sym_storage_offset.default",
                  {Argument::node(*t)});
    return error(e, "unsupported method '" + method + "' in a scalar");
  }
  default:
    return error(e, "expected a scalar expression");
  }
}

} // namespace

Expected<Graph> buildCallGraph(const PyStmt &callDef, const InductorWrapperInfo &info,
                               const ModuleFunctions &functions,
                               const std::vector<std::string> &partitions, std::string_view text,
                               const std::string &fileName) {
  return CallBuilder(info, functions, partitions, text, fileName).run(callDef);
}

} // namespace fxkit::inductor
