#include "exporters/wrapper/InductorFxIr.h"

#include "exporters/FxTextPrinter.h"
#include "exporters/wrapper/FxIrWriter.h"
#include "exporters/wrapper/TritonLaunchConfig.h"
#include "importers/inductor/InductorWrapper.h"
#include "ir/Node.h"
#include "ir/Try.h"
#include "ir/wrapper/WrapperDialect.h"

#include <cstring>
#include <unordered_map>

namespace fxkit {

namespace {

/// FX's name for a call_function node created without a name: `operator.mul` -> mul,
/// `torch.ops.aten.addmm.out` -> addmm_out.
std::string defaultName(std::string_view target) {
  std::string t(target);
  if (t.starts_with("torch.ops.")) {
    t = t.substr(strlen("torch.ops."));
    t = t.substr(t.find('.') + 1); // past the namespace
    for (char &c : t)
      if (c == '.')
        c = '_';
    return t;
  }
  size_t dot = t.rfind('.');
  return dot == std::string::npos ? t : t.substr(dot + 1);
}

const Argument *kwarg(const Node &n, std::string_view key) {
  for (size_t i = 0; i < n.kwargs().dictSize(); ++i)
    if (n.kwargs().dictKey(i) == key)
      return &n.kwargs().dictValue(i);
  return nullptr;
}

class Converter : FxIrConverter {
public:
  Converter(const InductorWrapperInfo &info) : info_(info) {}
  Expected<InductorFxIr> run(const Graph &wrapper);

private:
  Argument remap(const Argument &a) override;
  /// A size expression (substitute-size-args puts them into kernel calls) as operator.* nodes,
  /// in the order sympy's printer gives WrapperFxCodegen its operands.
  Expected<Argument> symToFx(const SymExpr &e, int depth = 0);
  /// ceil(numel / block) spelled as WrapperFxCodegen spells it: -((-numel) // block).
  Argument ceilDiv(const Argument &numel, int64_t block);
  Status kernel(const Node &n) override;
  Status externCall(const Node &n) override;
  /// Inputs and (through other()) get_attr nodes: the same nodes.
  Status placeholder(Node &n) override;
  /// A reuse is a view; a pool slice Inductor's _alloc_from_pool; empty_strided as it is.
  Status allocation(Node &n, wrapper::WrapperOp op) override;
  Status view(Node &n) override;
  /// Inductor's input guards dropped; other assertions as torch._C._dynamo.guards calls.
  Status assertion(Node &n) override;
  Status other(Node &n) override;

  const InductorWrapperInfo &info_;
  InductorFxIr out_;
  std::map<std::string, int64_t, std::less<>> kernelIdx_;
};

Expected<Argument> Converter::symToFx(const SymExpr &e, int depth) {
  using SK = SymExpr::Kind;
  if (depth > 64)
    return Error("fxir: size expression nested too deeply");
  if (e.isConstant())
    return Argument::integer(e.constant());
  auto operand = [&](size_t i) { return symToFx(e.operands()[i], depth + 1); };
  switch (e.kind()) {
  case SK::Symbol:
    if (Node *n = graph_.find(e.name()))
      return Argument::node(n);
    return Error("fxir: size symbol " + std::string(e.name()) + " is not an input of the graph");
  case SK::Paren:
    return operand(0);
  case SK::Neg: {
    auto x = operand(0);
    if (!x)
      return x;
    return Argument::node(call(fresh("mul"), wrapper::sizeArithOp(SymExpr::Kind::Mul)->target,
                               {Argument::integer(-1), *x}));
  }
  case SK::Add:
  case SK::Sub:
  case SK::Mul:
  case SK::FloorDiv:
  case SK::Mod: {
    auto l = operand(0);
    if (!l)
      return l;
    auto r = operand(1);
    if (!r)
      return r;
    const wrapper::SizeArithOp *op = wrapper::sizeArithOp(e.kind());
    return Argument::node(call(fresh(std::string(op->base)), op->target, {*l, *r}));
  }
  case SK::Call: {
    // PythonPrinter's functions of sizes: max/min (sympy Max/Min) and the rounded quotient
    // math.ceil(a / b), math.floor(a / b) (CeilToInt / FloorToInt of an IntTrueDiv).
    std::string_view fn = e.name();
    auto operands = e.operands();
    if ((fn == "max" || fn == "Max" || fn == "min" || fn == "Min") && operands.size() >= 2) {
      std::string op = fn == "max" || fn == "Max" ? "sym_max" : "sym_min";
      auto acc = operand(0);
      for (size_t i = 1; acc && i < operands.size(); ++i) {
        auto x = operand(i);
        if (!x)
          return x;
        acc = Argument::node(call(fresh(op), "torch." + op, {*acc, *x}));
      }
      return acc;
    }
    SymExpr q = operands.size() == 1 ? operands[0] : SymExpr();
    while (q.kind() == SK::Paren)
      q = q.operands()[0];
    if ((fn == "math.ceil" || fn == "math.floor") && q.kind() == SK::TrueDiv) {
      auto a = symToFx(q.operands()[0], depth + 1);
      if (!a)
        return a;
      auto b = symToFx(q.operands()[1], depth + 1);
      if (!b)
        return b;
      if (fn == "math.floor")
        return Argument::node(call(
            fresh("floordiv"), wrapper::sizeArithOp(SymExpr::Kind::FloorDiv)->target, {*a, *b}));
      // -((-a) // b)
      Node *neg = call(fresh("neg"), wrapper::sizeArithOp(SymExpr::Kind::Neg)->target, {*a});
      Node *div = call(fresh("floordiv"), wrapper::sizeArithOp(SymExpr::Kind::FloorDiv)->target,
                       {Argument::node(neg), *b});
      return Argument::node(call(fresh("neg"), wrapper::sizeArithOp(SymExpr::Kind::Neg)->target,
                                 {Argument::node(div)}));
    }
    return Error("fxir: no FX form for the size expression " + e.str());
  }
  default:
    return Error("fxir: no FX form for the size expression " + e.str());
  }
}

Argument Converter::remap(const Argument &a) {
  return wrapper::mapArgumentLeaves(a, [this](const Argument &leaf) {
    if (leaf.isNode()) {
      auto it = map_.find(leaf.asNode());
      return it == map_.end() ? Argument::none() : Argument::node(it->second);
    }
    switch (leaf.kind()) {
    case Argument::Kind::Device: // WrapperFxCodegen passes the device type as a string
      return Argument::string(leaf.asDevice().type);
    case Argument::Kind::Sym: {
      auto n = symToFx(leaf.asSym());
      if (!n) {
        if (error_.empty())
          error_ = n.error().message;
        return Argument::none();
      }
      return *n;
    }
    default:
      return leaf;
    }
  });
}

Argument Converter::ceilDiv(const Argument &numel, int64_t block) {
  if (numel.kind() == Argument::Kind::Int)
    return Argument::integer((numel.asInt() + block - 1) / block);
  if (block == 1 || !numel.isNode())
    return numel;
  // sympy's Mul(-1, a, b) folds left: (-1 * a) * b.
  std::vector<Argument> factors;
  std::vector<Argument> work{numel};
  while (!work.empty()) { // flatten a mul chain, left to right (no recursion over nodes)
    Argument f = work.back();
    work.pop_back();
    if (f.isNode() && f.asNode()->target() == wrapper::sizeArithOp(SymExpr::Kind::Mul)->target) {
      const auto &args = f.asNode()->args().items();
      for (size_t i = args.size(); i-- > 0;)
        work.push_back(args[i]);
      continue;
    }
    factors.push_back(f);
  }
  // sympy multiplies the numeric factors into one leading coefficient: -(8*s77) is -8*s77.
  int64_t coefficient = -1;
  std::vector<Argument> symbolic;
  for (const Argument &f : factors) {
    if (f.kind() == Argument::Kind::Int)
      coefficient *= f.asInt();
    else
      symbolic.push_back(f);
  }
  Argument neg = Argument::integer(coefficient);
  for (const Argument &f : symbolic)
    neg = Argument::node(
        call(fresh("mul"), wrapper::sizeArithOp(SymExpr::Kind::Mul)->target, {neg, f}));
  Node *div = call(fresh("floordiv"), wrapper::sizeArithOp(SymExpr::Kind::FloorDiv)->target,
                   {neg, Argument::integer(block)});
  return Argument::node(call(fresh("mul"), wrapper::sizeArithOp(SymExpr::Kind::Mul)->target,
                             {Argument::integer(-1), Argument::node(div)}));
}

Status Converter::kernel(const Node &n) {
  const Argument *name = kwarg(n, "name");
  const Argument *args = kwarg(n, "args");
  if (!name || !args)
    return Error("fxir: kernel launch " + n.name() + " has no name or arguments");
  const inductor::InductorKernel *k = nullptr;
  // A multi-kernel launch runs one of its choices, which take the same arguments: the first.
  const Argument *choices = kwarg(n, "choices");
  std::string_view launched =
      choices && !choices->items().empty() ? choices->items()[0].asString() : name->asString();
  for (const auto &def : info_.kernels)
    if (def.name == launched)
      k = &def;
  if (!k)
    return Error("fxir: kernel '" + std::string(name->asString()) +
                 "' is launched but not defined");
  if (k->kind != inductor::InductorKernel::Kind::Triton)
    return Error("fxir: '" + k->name +
                 "' is a C++ kernel; PyTorch's FX IR has launches of Triton kernels only");
  auto config = firstTritonConfig(*k);
  if (!config)
    return Error("fxir: " + config.error().message);
  std::vector<std::pair<std::string, Argument>> kwargs;
  Argument numel[3] = {Argument::integer(1), Argument::integer(1), Argument::integer(1)};
  for (size_t i = 0; i < args->dictSize(); ++i) {
    std::string key(args->dictKey(i));
    Argument value = remap(args->dictValue(i));
    for (int d = 0; d < 3; ++d)
      if (key == std::string(1, "xyz"[d]) + "numel")
        numel[d] = value;
    kwargs.push_back({key, value});
  }
  for (const auto &[block, size] : config->blocks)
    kwargs.push_back({block, Argument::integer(size)});
  // Grid1D/2D/3D: one program per block of each of x, y, z.
  Argument grid[3] = {Argument::integer(1), Argument::integer(1), Argument::integer(1)};
  for (int d = 0; d < 3; ++d)
    if (int64_t b = config->block(std::string(1, "XYZ"[d]) + "BLOCK"))
      grid[d] = ceilDiv(numel[d], b);
  auto [idx, first] = kernelIdx_.try_emplace(k->name, static_cast<int64_t>(kernelIdx_.size()));
  if (first)
    out_.kernelNames.push_back(k->name);
  else // deep_mlp: PyTorch's converter fails on the second launch of one kernel
    ++out_.addedKinds["repeated launch of one kernel (same kernel_idx)"];
  call(fresh("triton_kernel_wrapper_mutation"),
       "torch.ops.higher_order.triton_kernel_wrapper_mutation", {},
       {{"kernel_idx", Argument::integer(idx->second)},
        {"constant_args_idx", Argument::integer(out_.launches++)},
        {"grid", Argument::list({Argument::tuple({grid[0], grid[1], grid[2]})})},
        {"tma_descriptor_metadata", Argument::dict({})},
        {"kwargs", Argument::dict(std::move(kwargs))}});
  return Status::ok();
}

Status Converter::externCall(const Node &n) {
  const Argument *op = kwarg(n, "op");
  const Argument *inputs = kwarg(n, "inputs");
  const Argument *options = kwarg(n, "options");
  const Argument *outs = kwarg(n, "out");
  if (!op || !inputs)
    return Error("fxir: extern call " + n.name() + " has no op or inputs");
  std::string target(op->asString());
  std::vector<Argument> args;
  for (const Argument &a : inputs->items())
    args.push_back(remap(a));
  std::vector<std::pair<std::string, Argument>> kwargs;
  if (options)
    for (size_t i = 0; i < options->dictSize(); ++i)
      kwargs.push_back({std::string(options->dictKey(i)), remap(options->dictValue(i))});
  bool externKernel = target.starts_with("extern_kernels.");
  std::string aten =
      externKernel ? "torch.ops.aten." + target.substr(strlen("extern_kernels.")) : target;
  if (outs && outs->items().size() == 1) {
    // ExternKernelOut: the `.out` overload writes the planned buffer.
    if (externKernel)
      aten += ".out";
    kwargs.push_back({"out", remap(outs->items()[0])});
    map_[&n] = call(fresh(defaultName(aten)), aten, std::move(args), std::move(kwargs));
    return Status::ok();
  }
  if (outs)
    return Error("fxir: extern call " + n.name() + " writes several out= buffers");
  // ExternKernelAlloc / fallback: the call returns its result, named after the buffer.
  if (externKernel) {
    aten += ".default";
    ++out_.addedKinds["extern call that allocates its result (" + target + ")"];
  } else {
    ++out_.addedKinds["ATen fallback call (" + target + ")"];
  }
  map_[&n] = call(fresh(n.name()), aten, std::move(args), std::move(kwargs));
  return Status::ok();
}

Status Converter::view(Node &n) {
  const auto &a = n.args().items();
  if (a.size() != 4 || !a[0].isNode())
    return Error("fxir: view " + n.name() + " is not as_strided(base, sizes, strides, offset)");
  const Node *base = a[0].asNode();
  if (!map_.count(base))
    return Error("fxir: view " + n.name() + " of " + base->name() + ", which has no FX IR node");
  bool reuse = kwarg(n, "reuse") != nullptr;
  if (reuse) {
    // `b1 = b0; del b0  # reuse` with the same layout is the same tensor.
    const TensorType *mine = n.value().tensor();
    const TensorType *theirs = base->value().tensor();
    if (mine && theirs && *mine == *theirs && a[3].kind() == Argument::Kind::Int &&
        a[3].asInt() == 0) {
      map_[&n] = map_.at(base);
      return Status::ok();
    }
  }
  // Every torch.as_strided takes the next as_strided name; inline views are then renamed
  // `<buffer>_view` (PyTorch renames them and FX never gives a name back).
  std::string name = fresh("as_strided");
  std::string baseName = base->name();
  bool inlineView = !reuse && n.name().starts_with(baseName + "_view");
  if (inlineView)
    name = fresh(baseName + "_view");
  map_[&n] = call(name, wrapper::kAsStrided, {remap(a[0]), remap(a[1]), remap(a[2]), remap(a[3])});
  return Status::ok();
}

Expected<InductorFxIr> Converter::run(const Graph &wrapper) {
  FXKIT_TRY(convert(wrapper));
  out_.graph = std::move(graph_);
  return std::move(out_);
}

Status Converter::placeholder(Node &n) {
  map_[&n] = graph_.create(n.op(), n.name(), n.target());
  return Status::ok();
}

Status Converter::allocation(Node &n, wrapper::WrapperOp op) {
  if (op == wrapper::WrapperOp::Reuse)
    return view(n);
  if (op == wrapper::WrapperOp::AllocFromPool) { // the header's alias of the op
    ++out_.addedKinds["allocation from a memory pool"];
    map_[&n] = call(fresh(n.name()), "torch.ops.inductor._alloc_from_pool.default",
                    remap(n.args()).items());
    return Status::ok();
  }
  map_[&n] = graph_.create(OpKind::CallFunction, fresh(n.name()), n.target(), remap(n.args()),
                           remap(n.kwargs()));
  return Status::ok();
}

Status Converter::assertion(Node &n) {
  const auto &a = n.args().items();
  if (!a.empty() && a[0].isNode() && a[0].asNode()->op() == OpKind::Placeholder)
    return Status::ok(); // input guards
  std::string kind(n.target().substr(wrapper::kFxkitPrefix.size()));
  std::vector<Argument> args;
  for (size_t i = 0; i < a.size(); ++i) {
    Argument v = remap(a[i]);
    if (v.kind() == Argument::Kind::List) // Inductor passes size and stride tuples
      v = Argument::tuple(std::vector<Argument>(v.items().begin(), v.items().end()));
    if (v.kind() == Argument::Kind::Opaque)
      v = Argument::string(a[i].asString());
    args.push_back(v);
  }
  ++out_.addedKinds[kind];
  call(fresh(kind), "torch._C._dynamo.guards." + kind, std::move(args));
  return Status::ok();
}

Status Converter::other(Node &n) {
  if (n.op() == OpKind::GetAttr)
    return placeholder(n);
  std::string_view t = n.target();
  if (t == wrapper::kGetItem) { // a result of a multi-output call, named by its buffer
    ++out_.addedKinds["getitem of a multi-output call"];
    map_[&n] = call(fresh(n.name()), t, {remap(n.args().items()[0]), n.args().items()[1]});
    return Status::ok();
  }
  if (t == "torch.ops.higher_order.cond")
    return Error("fxir: torch.cond " + n.name() +
                 ": its branches (wrapper-IR subgraphs) are not converted to FX IR");
  // Debugging and profiling calls have no FX IR form (WrapperFxCodegen sees no such lines).
  if (t == "torch._inductor.hooks.run_intermediate_hooks" || t == "torch.cuda.synchronize" ||
      t == "torch.xpu.synchronize" || t.starts_with("torch._inductor.runtime.triton_heuristics.") ||
      t.starts_with("torch.cuda.nvtx."))
    return Status::ok();
  // Scalars (item, sym_size, comparisons, sym_ite), runtime asserts, dtype views, TMA
  // descriptors: the same calls in FX IR.
  if (t.starts_with(wrapper::kOperatorPrefix) || t.starts_with("torch.ops.") ||
      t.starts_with("torch.sym_") ||
      t == "triton.tools.tensor_descriptor.TensorDescriptor.from_tensor") {
    map_[&n] = graph_.create(OpKind::CallFunction, fresh(defaultName(t)), t, remap(n.args()),
                             remap(n.kwargs()));
    return Status::ok();
  }
  return Error("fxir: no FX IR form for wrapper node " + n.name() + " (" + std::string(t) + ")");
}

} // namespace

Expected<InductorFxIr> buildInductorFxIr(const Graph &wrapper) {
  const InductorWrapperInfo *info = inductorWrapperInfo(wrapper);
  if (!info)
    return Error("fxir of a graph that was not read from Inductor's wrapper code");
  return Converter(*info).run(wrapper);
}

Expected<std::string> writeInductorFxIr(const Graph &wrapper, bool code, std::string &added) {
  auto fx = buildInductorFxIr(wrapper);
  if (!fx)
    return fx.takeError();
  added = describeAddedKinds(fx->addedKinds);
  return code ? printFxIrCode(fx->graph) : printFxText(fx->graph);
}

std::string describeAddedKinds(const std::map<std::string, size_t> &kinds) {
  std::string s;
  for (const auto &[kind, count] : kinds)
    s += (s.empty() ? "" : ", ") + kind + " x" + std::to_string(count);
  return s;
}

} // namespace fxkit
