#include "exporters/wrapper/FxIrWriter.h"

#include "exporters/FxTextPrinter.h"
#include "exporters/ReadablePyPrinter.h"
#include "exporters/wrapper/WrapperSignature.h"
#include "ir/Node.h"
#include "ir/Try.h"
#include "ir/ops/OpRegistry.h"
#include "ir/ops/ShapeRules.h"
#include "ir/wrapper/WrapperDialect.h"
#include "transforms/CompilationState.h"
#include "transforms/WrapperGraph.h"

#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <unordered_map>

namespace fxkit {

using namespace loop;

namespace {

/// Builds PyTorch's form of the wrapper graph from fxkit's (transforms/WrapperGraph.h), node by
/// node: allocations and size arithmetic carry over; pool slices, reuses and views become
/// `torch.as_strided` with absolute storage offsets (as_strided's offset is from the storage's
/// start, not from the viewed tensor's); launches and extern calls take PyTorch's call forms;
/// frees go (FX's generated code frees after last use by itself).
class FxIrBuilder : FxIrConverter {
public:
  FxIrBuilder(const LoopProgram &p, const FusedProgram &f)
      : p_(p), f_(f), externs_(externLaunches(f)) {}
  Expected<Graph> run(const Graph &wrapper);

private:
  Argument remap(const Argument &a) override;
  /// A size as an argument: a constant, the node binding a plain symbol, or an expression.
  Argument sizeArg(const SymExpr &e);
  /// `base` (a buffer's node) viewed as `sizes`/`strides` at `offset` elements from its start.
  Expected<Node *> view(Node *base, const std::string &name, Argument sizes, Argument strides,
                        const Argument &offset);
  Expected<Node *> bufferView(const BufferView &v);
  Status kernel(const Node &n) override;
  /// `wrapper`: the fxkit.extern node.
  Status externCall(const Node &wrapper) override;
  Status placeholder(Node &n) override;
  /// Every allocation becomes torch.empty_strided or torch.as_strided (pool slices, reuses).
  Status allocation(Node &n, wrapper::WrapperOp) override { return alloc(n); }
  /// A view the wrapper graph makes (not one an extern call reads).
  Status view(Node &n) override;
  Status other(Node &n) override;
  Status alloc(const Node &n);

  const LoopProgram &p_;
  const FusedProgram &f_;
  std::vector<size_t> externs_;                        ///< the extern launches, in order
  std::unordered_map<const Node *, int64_t> offsets_;  ///< new node -> storage offset (elements)
  std::map<std::string, Node *, std::less<>> buffers_; ///< buffer name -> its node
  std::map<DType, Node *> typedPools_;
  Node *pool_ = nullptr;
  std::string device_ = "cpu";
  size_t launch_ = 0, nextExtern_ = 0;
};

Argument FxIrBuilder::remap(const Argument &a) {
  return wrapper::mapArgumentLeaves(a, [this](const Argument &leaf) {
    if (!leaf.isNode())
      return leaf;
    auto it = map_.find(leaf.asNode());
    return it == map_.end() ? Argument::none() : Argument::node(it->second);
  });
}

Argument FxIrBuilder::sizeArg(const SymExpr &raw) {
  SymExpr e = raw.isConstant() ? raw : raw.simplify();
  if (e.isConstant())
    return Argument::integer(e.constant());
  if (e.kind() == SymExpr::Kind::Symbol)
    if (Node *n = graph_.find(e.name()))
      return Argument::node(n);
  return Argument::sym(e);
}

Expected<Node *> FxIrBuilder::view(Node *base, const std::string &name, Argument sizes,
                                   Argument strides, const Argument &offset) {
  int64_t baseOffset = offsets_.count(base) ? offsets_[base] : 0;
  Argument absolute = offset;
  if (offset.kind() == Argument::Kind::Int)
    absolute = Argument::integer(offset.asInt() + baseOffset);
  else if (baseOffset != 0)
    return Error("fxir: a symbolic view offset into a pool buffer");
  Node *n = call(fresh(name), wrapper::kAsStrided,
                 {Argument::node(base), std::move(sizes), std::move(strides), absolute});
  if (absolute.kind() == Argument::Kind::Int)
    offsets_[n] = absolute.asInt();
  return n;
}

Expected<Node *> FxIrBuilder::bufferView(const BufferView &v) {
  auto it = buffers_.find(p_.buffers[v.buffer].name);
  if (it == buffers_.end())
    return Error("fxir: " + p_.buffers[v.buffer].name + " is used before it is written");
  const TensorType &t = p_.buffers[v.buffer].type;
  bool whole = symIs(v.offset, 0) && v.sizes.size() == t.sizes.size();
  for (size_t i = 0; whole && i < v.sizes.size(); ++i)
    whole = symEq(v.sizes[i], t.sizes[i]) && symEq(v.strides[i], t.strides[i]);
  if (whole)
    return it->second;
  std::vector<Argument> sizes, strides;
  for (const SymExpr &s : v.sizes)
    sizes.push_back(sizeArg(s));
  for (const SymExpr &s : v.strides)
    strides.push_back(sizeArg(s));
  return view(it->second, it->second->name() + "_view", Argument::list(std::move(sizes)),
              Argument::list(std::move(strides)), sizeArg(v.offset));
}

Status FxIrBuilder::alloc(const Node &n) {
  const auto &args = n.args().items();
  std::string_view target = n.target();
  Node *out = nullptr;
  if (target == wrapper::kAllocFromPool) {
    // (pool, byte offset, dtype, sizes, strides): a typed view of the pool per dtype, then
    // the buffer at its element offset.
    DType dt = args[2].asDType();
    int64_t item = dtypeItemSize(dt);
    if (!pool_ || args[1].asInt() % item != 0)
      return Error("fxir: pool buffer " + n.name() + " is not aligned to its dtype");
    Node *&typed = typedPools_[dt];
    if (!typed)
      typed = call(fresh("pool_" + std::string(dtypeName(dt))), "torch.ops.aten.view.dtype",
                   {Argument::node(pool_), Argument::dtype(dt)});
    out = call(fresh(n.name()), wrapper::kAsStrided,
               {Argument::node(typed), remap(args[3]), remap(args[4]),
                Argument::integer(args[1].asInt() / item)});
    offsets_[out] = args[1].asInt() / item;
  } else if (target == wrapper::kEmptyStrided) {
    bool isPool = n.name().starts_with("pool") && !pool_;
    std::vector<std::pair<std::string, Argument>> kwargs;
    for (size_t i = 0; i < n.kwargs().dictSize(); ++i)
      if (n.kwargs().dictKey(i) != "device")
        kwargs.push_back({std::string(n.kwargs().dictKey(i)), remap(n.kwargs().dictValue(i))});
    // PyTorch's WrapperFxCodegen passes the device type as a string.
    kwargs.push_back({"device", Argument::string(device_)});
    out = call(fresh(n.name()), wrapper::kEmptyStrided, {remap(args[0]), remap(args[1])},
               std::move(kwargs));
    if (isPool)
      pool_ = out;
  } else { // torch.as_strided(donor, sizes, strides, 0, reuse=name): the donor's storage
    Node *donor = map_.at(args[0].asNode());
    const TensorType *mine = n.value().tensor();
    const TensorType *theirs = args[0].asNode()->value().tensor();
    int64_t offset = offsets_.count(donor) ? offsets_[donor] : 0;
    if (mine && theirs && mine->dtype != theirs->dtype) {
      // Another dtype: the donor's bytes as a flat tensor, retyped, then laid out.
      int64_t from = dtypeItemSize(theirs->dtype), to = dtypeItemSize(mine->dtype);
      Buffer donorBuffer{"", *theirs};
      SymExpr numel = donorBuffer.storageNumel();
      if (!numel.isConstant() || (numel.constant() * from) % to || (offset * from) % to)
        return Error("fxir: " + n.name() + " reuses storage of another dtype it cannot retype");
      Node *flat =
          call(fresh(donor->name() + "_flat"), wrapper::kAsStrided,
               {Argument::node(donor), Argument::list({Argument::integer(numel.constant())}),
                Argument::list({Argument::integer(1)}), Argument::integer(offset)});
      donor =
          call(fresh(donor->name() + "_" + std::string(dtypeName(mine->dtype))),
               "torch.ops.aten.view.dtype", {Argument::node(flat), Argument::dtype(mine->dtype)});
      offset = offset * from / to;
    }
    out = call(fresh(n.name()), wrapper::kAsStrided,
               {Argument::node(donor), remap(args[1]), remap(args[2]), Argument::integer(offset)});
    offsets_[out] = offset;
  }
  map_[&n] = out;
  if (n.value().tensor())
    buffers_[n.name()] = out;
  return Status::ok();
}

Status FxIrBuilder::kernel(const Node &n) {
  const Argument *args = nullptr;
  int64_t launch = -1;
  for (size_t i = 0; i < n.kwargs().dictSize(); ++i) {
    if (n.kwargs().dictKey(i) == "args")
      args = &n.kwargs().dictValue(i);
    if (n.kwargs().dictKey(i) == "launch")
      launch = n.kwargs().dictValue(i).asInt();
  }
  if (!args || launch < 0 || launch >= static_cast<int64_t>(f_.kernels.size()))
    return Error("fxir: kernel node " + n.name() + " has no launch or arguments");
  const Kernel &k = f_.kernels[launch];
  bool reduction = !k.reductionRanges.empty();
  std::vector<std::pair<std::string, Argument>> kwargs;
  Argument xnumel = Argument::integer(1);
  for (size_t i = 0; i < args->dictSize(); ++i) {
    std::string key(args->dictKey(i));
    Argument value = remap(args->dictValue(i));
    if (key == "xnumel")
      xnumel = value;
    kwargs.push_back({key == "rnumel" ? "r0_numel" : key, value});
  }
  // Triton's launch grid: a row per program for reductions, XBLOCK elements otherwise.
  int64_t block = 1;
  Argument programs = xnumel;
  if (!reduction) {
    block = 1024;
    if (xnumel.kind() == Argument::Kind::Int) {
      int64_t x = xnumel.asInt();
      while (block > 1 && block / 2 >= x)
        block /= 2;
      programs = Argument::integer((x + block - 1) / block);
    } else {
      // -((-xnumel) // XBLOCK), spelled as WrapperFxCodegen spells a ceiling division.
      Node *neg = call(fresh("mul"), wrapper::sizeArithOp(SymExpr::Kind::Mul)->target,
                       {Argument::integer(-1), xnumel});
      Node *div = call(fresh("floordiv"), wrapper::sizeArithOp(SymExpr::Kind::FloorDiv)->target,
                       {Argument::node(neg), Argument::integer(block)});
      programs = Argument::node(call(fresh("mul"), wrapper::sizeArithOp(SymExpr::Kind::Mul)->target,
                                     {Argument::integer(-1), Argument::node(div)}));
    }
  }
  kwargs.push_back({"XBLOCK", Argument::integer(block)});
  int64_t idx = static_cast<int64_t>(launch_++);
  call(fresh("triton_kernel_wrapper_mutation"),
       "torch.ops.higher_order.triton_kernel_wrapper_mutation", {},
       {{"kernel_idx", Argument::integer(idx)},
        {"constant_args_idx", Argument::integer(idx)},
        {"grid",
         Argument::list({Argument::tuple({programs, Argument::integer(1), Argument::integer(1)})})},
        {"tma_descriptor_metadata", Argument::dict({})},
        {"kwargs", Argument::dict(std::move(kwargs))}});
  return Status::ok();
}

Status FxIrBuilder::externCall(const Node &wrapper) {
  // Extern nodes of the wrapper come in kernel order.
  if (nextExtern_ >= externs_.size())
    return Error("fxir: more extern calls than extern kernels");
  const Kernel *k = &f_.kernels[externs_[nextExtern_++]];
  const LoopOp &op = p_.ops[k->ops.front()];
  const Node *node = op.externNode;
  if (!node)
    return Error("fxir: extern kernel " + k->name + " has no ATen node");
  // Tensor arguments are the lowered views, in schema order (OpRegistry's bound order matches
  // the node's spelled order for positional arguments, and tensor kwargs come after them).
  size_t next = 0;
  std::string error;
  std::function<Argument(const Argument &)> arg = [&](const Argument &a) -> Argument {
    using K = Argument::Kind;
    if (a.isNode()) {
      const Node *in = a.asNode();
      if (const SymExpr *s = in->value().sym())
        return sizeArg(*s);
      if (next >= op.externInputs.size()) {
        error = "fxir: extern op '" + node->name() + "' has more inputs than lowered";
        return Argument::none();
      }
      auto v = bufferView(op.externInputs[next++]);
      if (!v) {
        error = v.error().message;
        return Argument::none();
      }
      return Argument::node(*v);
    }
    if (a.kind() == K::Device)
      return Argument::string(device_);
    if (a.kind() == K::List || a.kind() == K::Tuple) {
      std::vector<Argument> items;
      for (const Argument &i : a.items())
        items.push_back(arg(i));
      return a.kind() == K::List ? Argument::list(std::move(items))
                                 : Argument::tuple(std::move(items));
    }
    return a;
  };
  std::vector<Argument> args;
  for (const Argument &a : node->args().items())
    args.push_back(arg(a));
  std::vector<std::pair<std::string, Argument>> kwargs;
  for (size_t i = 0; i < node->kwargs().dictSize(); ++i)
    kwargs.push_back({std::string(node->kwargs().dictKey(i)), arg(node->kwargs().dictValue(i))});
  if (!error.empty())
    return Error(error);
  std::string target(node->target());
  std::string opName = target;
  if (size_t dot = opName.rfind('.'); dot != std::string::npos) {
    opName = opName.substr(0, dot);
    opName = opName.substr(opName.rfind('.') + 1);
  }
  std::vector<Node *> outs;
  for (int32_t b : op.externOutputs) {
    Node *o = b >= 0 && buffers_.count(p_.buffers[b].name) ? buffers_[p_.buffers[b].name] : nullptr;
    outs.push_back(o);
  }
  // `.out` overloads write the planned buffer directly, as Inductor's extern kernels do.
  std::string outTarget = target.ends_with(".default")
                              ? target.substr(0, target.size() - strlen(".default")) + ".out"
                              : "";
  const OpInfo *outOp = outTarget.empty() ? nullptr : OpRegistry::instance().lookup(outTarget);
  // Matrix products have `out=` overloads in every PyTorch, registered here or not.
  bool knownOut = opName == "mm" || opName == "bmm" || opName == "addmm" || opName == "baddbmm";
  if (!outTarget.empty() && outs.size() == 1 && outs[0] &&
      (knownOut || (outOp && outOp->schema.indexOf("out") >= 0))) {
    kwargs.push_back({"out", Argument::node(outs[0])});
    call(fresh(opName + "_out"), outTarget, std::move(args), std::move(kwargs));
    return Status::ok();
  }
  Node *result = call(fresh(opName), target, std::move(args), std::move(kwargs));
  map_[&wrapper] = result;
  bool single = outs.size() == 1 && node->value().tensor();
  for (size_t i = 0; i < outs.size(); ++i) {
    if (!outs[i])
      continue;
    Node *value = result;
    if (!single)
      value = call(fresh("getitem"), wrapper::kGetItem,
                   {Argument::node(result), Argument::integer(static_cast<int64_t>(i))});
    call(fresh("copy_"), "torch.ops.aten.copy_.default",
         {Argument::node(outs[i]), Argument::node(value)});
  }
  return Status::ok();
}

Expected<Graph> FxIrBuilder::run(const Graph &wrapper) {
  for (const Buffer &b : p_.buffers)
    if (!b.isInput) {
      device_ = std::string(b.type.device.type);
      break;
    }
  FXKIT_TRY(convert(wrapper));
  return std::move(graph_);
}

Status FxIrBuilder::placeholder(Node &n) {
  Node *p = graph_.create(OpKind::Placeholder, n.name(), n.target());
  map_[&n] = p;
  if (n.value().tensor())
    buffers_[n.name()] = p;
  return Status::ok();
}

Status FxIrBuilder::view(Node &n) {
  // Extern calls make their own views, from the ATen node's arguments.
  bool externOnly = !n.users().empty();
  for (const Node *u : n.users())
    externOnly = externOnly && u->target() == wrapper::kExtern;
  if (externOnly)
    return Status::ok();
  const auto &a = n.args().items();
  Node *base = map_.at(a[0].asNode());
  FXKIT_ASSIGN_OR_RETURN(map_[&n],
                         view(base, base->name() + "_view", remap(a[1]), remap(a[2]), remap(a[3])));
  return Status::ok();
}

Status FxIrBuilder::other(Node &n) {
  // Size arithmetic (operator.*, sym_size) carries over as it is.
  map_[&n] = graph_.create(n.op(), fresh(n.name()), n.target(), remap(n.args()), remap(n.kwargs()));
  return Status::ok();
}

} // namespace

std::string FxIrConverter::fresh(const std::string &base) {
  size_t &next = suffix_[base];
  std::string name = next == 0 ? base : base + "_" + std::to_string(next);
  while (graph_.find(name))
    name = base + "_" + std::to_string(++next);
  ++next;
  return name;
}

Status FxIrConverter::convert(const Graph &wrapper) {
  for (Node *n : wrapper) {
    if (!error_.empty()) // a size expression of the previous node had no FX form
      return Error(error_);
    Status s = Status::ok();
    switch (const wrapper::WrapperOp op = wrapper::wrapperOpOf(*n)) {
    case wrapper::WrapperOp::Placeholder:
      s = placeholder(*n);
      break;
    case wrapper::WrapperOp::Output:
      graph_.create(OpKind::Output, "output", "output",
                    Argument::tuple({fxIrResult(*n, [&](const Argument &a) { return remap(a); })}));
      break;
    case wrapper::WrapperOp::EmptyStrided:
    case wrapper::WrapperOp::AllocFromPool:
    case wrapper::WrapperOp::Reuse:
      s = allocation(*n, op);
      break;
    case wrapper::WrapperOp::View:
      s = view(*n);
      break;
    case wrapper::WrapperOp::Kernel:
      s = kernel(*n);
      break;
    case wrapper::WrapperOp::Extern:
      s = externCall(*n);
      break;
    case wrapper::WrapperOp::Free:
      break;
    case wrapper::WrapperOp::AssertSizeStride:
    case wrapper::WrapperOp::AssertAlignment:
      s = assertion(*n);
      break;
    case wrapper::WrapperOp::SizeArith:
    case wrapper::WrapperOp::SymSize:
    case wrapper::WrapperOp::Other:
      s = other(*n);
      break;
    }
    FXKIT_TRY(s);
  }
  if (!error_.empty())
    return Error(error_);
  return Status::ok();
}

Argument fxIrResult(const Node &output, const std::function<Argument(const Argument &)> &remap) {
  std::vector<Argument> items;
  for (const Argument &o : output.args().items().at(0).items())
    items.push_back(remap(o));
  return items.size() == 1 ? items[0] : Argument::list(std::move(items));
}

Expected<Graph> buildFxIr(Graph &graph) {
  CompilationState *state = compilationState(graph);
  if (!state || !state->program || !state->fused)
    return Error("fxir needs the compiled program: run the passes lower and fuse "
                 "(--passes lower,fuse,plan,wrapper)");
  const MemoryPlan *plan = state->plan ? &*state->plan : nullptr;
  auto wrapper = buildWrapperGraph(*state->program, *state->fused, plan);
  if (!wrapper)
    return wrapper.takeError();
  return FxIrBuilder(*state->program, *state->fused).run(*wrapper);
}

Expected<std::string> writeFxIr(Graph &graph) {
  auto g = buildFxIr(graph);
  if (!g)
    return g.takeError();
  return printFxText(*g);
}

Expected<std::string> writeFxIrCode(Graph &graph) {
  auto g = buildFxIr(graph);
  if (!g)
    return g.takeError();
  return printFxIrCode(*g);
}

std::string printFxIrCode(const Graph &fxIr) {
  // gm.code is print_readable()'s body without the class (no annotations: the nodes carry no
  // values), dedented one level, after three newlines and ending in an indented blank line.
  std::string readable = printReadablePy(fxIr);
  std::string out = "\n\n\n";
  size_t pos = readable.find('\n') + 1; // past "class ...:"
  while (pos < readable.size()) {
    size_t end = readable.find('\n', pos);
    std::string_view l(readable.data() + pos,
                       (end == std::string::npos ? readable.size() : end) - pos);
    out += l.starts_with("    ") ? l.substr(4) : l;
    out += '\n';
    pos = end == std::string::npos ? readable.size() : end + 1;
  }
  return out + "    ";
}

} // namespace fxkit
