#include "backends/interp/Interpreter.h"
#include "backends/interp/OpFamilyKernels.h"

#include "backends/interp/CreationKernels.h"
#include "backends/interp/ExternKernels.h"
#include "backends/interp/KernelContext.h"
#include "backends/interp/KernelSupport.h"
#include "backends/interp/PointwiseKernels.h"
#include "backends/interp/ReductionKernels.h"
#include "backends/interp/SymbolicKernels.h"
#include "backends/interp/ViewKernels.h"
#include "ir/OutputValues.h"
#include "ir/Try.h"
#include "ir/ops/OpRegistry.h"
#include "transforms/Decompose.h"
#include "transforms/ShapeInference.h"

#include <cmath>
#include <mutex>

namespace fxkit {

void registerReferenceKernels() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerPointwiseKernels();
    registerCreationKernels();
    registerReductionKernels();
    registerViewKernels();
    registerSymbolicKernels();
    registerExternKernels();
    registerIndexingKernels();
    registerReductionFamilyKernels();
    registerNnKernels();
    registerTensorKernels();
    registerRandomKernels();
    registerFftKernels();
  });
}

namespace {

using kernels::sizesStr;

std::vector<Node *> placeholdersOf(const Graph &graph) {
  std::vector<Node *> out;
  for (Node *n : graph)
    if (n->op() == OpKind::Placeholder)
      out.push_back(n);
  return out;
}

/// Evaluates a list of symbolic sizes or strides.
Expected<std::vector<int64_t>> evaluateAll(const std::vector<SymExpr> &exprs,
                                           const SymExpr::Bindings &bindings) {
  std::vector<int64_t> out;
  out.reserve(exprs.size());
  for (const SymExpr &e : exprs) {
    FXKIT_ASSIGN_OR_RETURN(auto v, e.evaluate(bindings));
    out.push_back(v);
  }
  return out;
}

/// Binds `expr` to `value` when it is a still unbound symbol; otherwise does nothing (the
/// caller checks the value once every symbol is bound).
void bindIfSymbol(const SymExpr &expr, int64_t value, SymExpr::Bindings &bindings) {
  if (!expr.isConstant() && expr.kind() == SymExpr::Kind::Symbol)
    bindings.emplace(std::string(expr.name()), value);
}

/// The element-wise copy of `t` into a fresh tensor with `strides` (the layout the graph
/// declares for an input, e.g. a transposed weight, when the caller passed another layout).
Expected<Tensor> restride(const Tensor &t, const std::vector<int64_t> &strides) {
  if (!dtypeIsComputable(t.dtype()))
    return Error("cannot change the layout of a " + std::string(dtypeName(t.dtype())) + " tensor");
  TensorType type = t.typeOf();
  for (size_t i = 0; i < strides.size(); ++i)
    type.strides[i] = SymExpr(strides[i]);
  auto out = allocateTensor(type, {});
  FXKIT_TRY(out);
  Tensor::forEachIndex(t.sizes(), [&](std::span<const int64_t> index) {
    out->storeDouble(out->offsetOf(index), t.getDouble(index));
  });
  return out;
}

/// Gives placeholders their inputs' types (where they have none) and binds the graph's
/// symbols from the inputs; then checks every input against its placeholder's type.
Status bindInputs(const std::vector<Node *> &placeholders, std::vector<RuntimeValue> &inputs,
                  SymExpr::Bindings &bindings) {
  // First pass: untyped placeholders take their input's type; bare symbols get bound.
  for (size_t i = 0; i < placeholders.size(); ++i) {
    Node &p = *placeholders[i];
    RuntimeValue &in = inputs[i];
    std::string what = "input " + std::to_string(i) + " ('" + p.name() + "')";
    if (p.value().empty()) {
      if (const Tensor *t = in.tensor())
        p.value() = NodeValue{t->typeOf()};
      else if (const int64_t *v = in.integer()) {
        p.value() = NodeValue{SymExpr::symbol(p.name())};
        bindings[p.name()] = *v;
      } else
        return Error(what + ": the interpreter takes tensors and integers as graph inputs");
      continue;
    }
    if (const TensorType *type = p.value().tensor()) {
      const Tensor *t = in.tensor();
      if (!t)
        return Error(what + " must be a tensor of type " + type->str());
      if (t->dtype() != type->dtype)
        return Error(what + " has dtype " + std::string(dtypeName(t->dtype())) + ", the graph " +
                     "expects " + type->str());
      if (static_cast<size_t>(t->dim()) != type->sizes.size())
        return Error(what + " has sizes " + sizesStr(t->sizes()) + ", the graph expects " +
                     type->str());
      for (size_t d = 0; d < type->sizes.size(); ++d)
        bindIfSymbol(type->sizes[d], t->size(d), bindings);
    } else if (const SymExpr *sym = p.value().sym()) {
      const int64_t *v = in.integer();
      if (!v)
        return Error(what + " must be an integer (the graph's symbol " + sym->str() + ")");
      bindIfSymbol(*sym, *v, bindings);
    } else {
      return Error(what + ": placeholder has a value the interpreter cannot take as input");
    }
  }
  // Second pass: with every bare symbol bound, each size and integer must agree.
  for (size_t i = 0; i < placeholders.size(); ++i) {
    Node &p = *placeholders[i];
    RuntimeValue &in = inputs[i];
    std::string what = "input " + std::to_string(i) + " ('" + p.name() + "')";
    if (const TensorType *type = p.value().tensor()) {
      auto sizes = evaluateAll(type->sizes, bindings);
      if (!sizes)
        return Error(what + ": " + sizes.error().message);
      const Tensor &t = *in.tensor();
      if (*sizes != t.sizes())
        return Error(what + " has sizes " + sizesStr(t.sizes()) + ", the graph expects " +
                     sizesStr(*sizes) + " (" + type->str() + ")");
      auto strides = evaluateAll(type->strides, bindings);
      if (!strides)
        return Error(what + ": " + strides.error().message);
      // Kernels rely on inputs having the layout the graph was traced with (inference of
      // every later node assumed it); a contiguous copy from a file gets that layout here.
      if (type->hasStrides && *strides != t.strides() && t.numel() > 0) {
        auto copy = restride(t, *strides);
        if (!copy)
          return Error(what + ": " + copy.error().message);
        in.v = copy.take();
      }
    } else if (const SymExpr *sym = p.value().sym()) {
      auto expected = sym->evaluate(bindings);
      if (!expected)
        return Error(what + ": " + expected.error().message);
      if (*expected != *in.integer())
        return Error(what + " is " + std::to_string(*in.integer()) + ", the graph expects " +
                     sym->str() + " = " + std::to_string(*expected));
    }
  }
  return Status::ok();
}

/// Checks a kernel's tensor against the node's inferred type (evaluated with bindings).
Status checkTensor(const Tensor &t, const TensorType &type, const SymExpr::Bindings &bindings,
                   const std::string &what) {
  auto sizes = evaluateAll(type.sizes, bindings);
  if (!sizes)
    return Error(what + ": " + sizes.error().message);
  auto strides = evaluateAll(type.strides, bindings);
  if (!strides)
    return Error(what + ": " + strides.error().message);
  bool stridesOk = !type.hasStrides || t.numel() <= 1;
  if (!stridesOk) {
    stridesOk = true;
    // Strides of size-1 dimensions never address anything (PyTorch leaves them arbitrary).
    for (size_t d = 0; d < strides->size() && d < t.strides().size(); ++d)
      stridesOk &= (*sizes)[d] == 1 || (*strides)[d] == t.stride(d);
  }
  if (t.dtype() != type.dtype || *sizes != t.sizes() || !stridesOk)
    return Error(what + " is " + t.typeOf().str() + ", shape inference says " + type.str() + " = " +
                 dtypeName(type.dtype).data() + sizesStr(*sizes) + sizesStr(*strides));
  return Status::ok();
}

/// Checks a kernel's result against the node's inferred value; an integer result binds a
/// fresh symbol (sym_size of an unbound size) or must equal its expression.
/// Binds the sizes of a result that are still unbound symbols: the unbacked sizes of
/// data-dependent ops (nonzero, a mask index), which only the kernel knows (PyTorch's `u0`).
void bindResultSizes(const Tensor &t, const TensorType &type, SymExpr::Bindings &bindings) {
  if (static_cast<size_t>(t.dim()) != type.sizes.size())
    return; // checkTensor reports the rank
  for (size_t d = 0; d < type.sizes.size(); ++d)
    bindIfSymbol(type.sizes[d], t.size(static_cast<int64_t>(d)), bindings);
}

Status checkResult(const Node &node, const RuntimeValue &result, SymExpr::Bindings &bindings,
                   const BoundArgs &args) {
  const NodeValue &value = node.value();
  if (const TensorType *type = value.tensor()) {
    const Tensor *t = result.tensor();
    if (!t)
      return args.error("the kernel gave no tensor, shape inference says " + type->str());
    bindResultSizes(*t, *type, bindings);
    if (Status s = checkTensor(*t, *type, bindings, "the kernel's result"); !s)
      return args.error(s.error().message);
  } else if (const auto *types = value.tensors()) {
    const auto *ts = result.tensors();
    if (!ts || ts->size() != types->size())
      return args.error("the kernel gave " + std::to_string(ts ? ts->size() : 0) +
                        " results, shape inference says " + std::to_string(types->size()));
    for (size_t i = 0; i < types->size(); ++i) {
      if (!(*types)[i])
        continue;
      std::string what = "the kernel's result " + std::to_string(i);
      if (!(*ts)[i])
        return args.error(what + " is missing");
      bindResultSizes(*(*ts)[i], *(*types)[i], bindings);
      if (Status s = checkTensor(*(*ts)[i], *(*types)[i], bindings, what); !s)
        return args.error(s.error().message);
    }
  } else if (const SymExpr *sym = value.sym()) {
    const int64_t *v = result.integer();
    if (!v) {
      // A SymFloat or SymBool: checked against its expression where the bindings decide it
      // (float symbols such as zuf0 are not bound: sizes are integers).
      auto want = sym->evaluateNumber(bindings);
      if (const bool *b = std::get_if<bool>(&result.v); b && want && want->truthy() != *b)
        return args.error("the kernel gave " + std::string(*b ? "True" : "False") +
                          ", shape inference says " + sym->str());
      if (const double *d = std::get_if<double>(&result.v); d && want) {
        double w = want->asDouble();
        if (!(std::fabs(w - *d) <= 1e-9 * std::max(1.0, std::fabs(w))) &&
            !(std::isnan(w) && std::isnan(*d)))
          return args.error("the kernel gave " + std::to_string(*d) + ", shape inference says " +
                            sym->str() + " = " + std::to_string(w));
      }
      return Status::ok();
    }
    bindIfSymbol(*sym, *v, bindings);
    auto expected = sym->evaluate(bindings);
    if (expected && *expected != *v)
      return args.error("the kernel gave " + std::to_string(*v) + ", shape inference says " +
                        sym->str() + " = " + std::to_string(*expected));
  }
  return Status::ok();
}

/// The values the output node returns.
Expected<std::vector<RuntimeValue>> collectOutputs(const Node &output,
                                                   const std::vector<RuntimeValue> &values) {
  std::vector<RuntimeValue> out;
  for (const Argument &a : returnedValues(output)) {
    switch (a.kind()) {
    case Argument::Kind::NodeRef:
      out.push_back(values[a.asNode()->scratch()]);
      break;
    case Argument::Kind::None:
      out.push_back(RuntimeValue{});
      break;
    case Argument::Kind::Int:
      out.push_back(RuntimeValue{a.asInt()});
      break;
    case Argument::Kind::Float:
      out.push_back(RuntimeValue{a.asFloat()});
      break;
    case Argument::Kind::Bool:
      out.push_back(RuntimeValue{a.asBool()});
      break;
    default:
      return Error("output '" + output.name() +
                   "': the interpreter returns tensors, integers, "
                   "floats, bools and None only");
    }
  }
  return out;
}

} // namespace

Expected<InterpretResult> interpretGraph(Graph &graph, std::span<const RuntimeValue> inputs,
                                         const InterpretOptions &options) {
  registerReferenceKernels();
  std::vector<Node *> placeholders = placeholdersOf(graph);
  if (placeholders.size() != inputs.size()) {
    std::string names;
    for (size_t i = 0; i < placeholders.size() && i < 8; ++i)
      names += (i ? ", " : "") + placeholders[i]->name();
    if (placeholders.size() > 8)
      names += ", ...";
    return Error("the graph has " + std::to_string(placeholders.size()) + " inputs (" + names +
                 "), got " + std::to_string(inputs.size()));
  }
  InterpretResult result;
  std::vector<RuntimeValue> bound(inputs.begin(), inputs.end());
  FXKIT_TRY(bindInputs(placeholders, bound, result.bindings));
  // Composite ops (linear, conv2d, relu_, ...) run as what they are made of; like shape
  // inference, this rewrites the graph in place.
  if (hasCompositeOps(graph))
    FXKIT_TRY(decomposeCompositeOps(graph));
  FXKIT_TRY(inferShapes(graph));

  // Values live in a vector indexed by program position (kept in the node's scratch slot), and
  // each is dropped after its last user ran, so long graphs hold only their live tensors.
  std::vector<RuntimeValue> values(graph.size());
  std::vector<uint32_t> pendingUses(graph.size());
  uint32_t position = 0;
  for (Node *n : graph) {
    n->scratch() = position;
    pendingUses[position++] = static_cast<uint32_t>(n->users().size());
  }
  std::function<const RuntimeValue *(const Node *)> valueOf =
      [&](const Node *n) -> const RuntimeValue * { return &values[n->scratch()]; };

  size_t nextInput = 0;
  const Node *output = nullptr;
  for (Node *n : graph) {
    if (options.interrupt && *options.interrupt)
      return Error("interrupted");
    switch (n->op()) {
    case OpKind::Placeholder:
      values[n->scratch()] = std::move(bound[nextInput++]);
      break;
    case OpKind::CallFunction: {
      const OpInfo *op = OpRegistry::instance().lookup(n->target());
      if (!op)
        return Error("node '" + n->name() + "': unknown op " + std::string(n->target()));
      if (!op->kernel)
        return Error("node '" + n->name() + "' (" + std::string(n->target()) +
                     "): the reference interpreter has no kernel for this op");
      FXKIT_ASSIGN_OR_RETURN(auto args, bindArgs(*n, *op));
      KernelContext ctx(args, result.bindings, valueOf);
      FXKIT_TRY(op->kernel(ctx));
      if (options.checkTypes)
        FXKIT_TRY(checkResult(*n, ctx.result, result.bindings, args));
      values[n->scratch()] = std::move(ctx.result);
      for (Node *in : n->inputs())
        if (--pendingUses[in->scratch()] == 0)
          values[in->scratch()] = RuntimeValue{};
      break;
    }
    case OpKind::Output:
      if (!output)
        output = n;
      break;
    case OpKind::GetAttr:
      // A tensor attribute nobody reads needs no value; one that is read must have been lifted
      // into an input (transforms/LiftConstants.h) with its value.
      if (n->users().empty())
        break;
      return Error("node '" + n->name() + "': get_attr '" + std::string(n->target()) +
                   "' reads a tensor the graph does not hold (fxkit run takes its value from "
                   "--inputs under that name)");
    default:
      return Error("node '" + n->name() + "': the reference interpreter does not run " +
                   std::string(opKindName(n->op())) + " nodes");
    }
  }
  if (!output)
    return Error("the graph has no output node");
  FXKIT_ASSIGN_OR_RETURN(auto outs, collectOutputs(*output, values));
  result.outputs = std::move(outs);
  return result;
}

Expected<std::vector<RuntimeValue>>
makeRandomInputs(const Graph &graph, const SymExpr::Bindings &symbols, uint64_t seed) {
  std::vector<RuntimeValue> inputs;
  for (Node *p : placeholdersOf(graph)) {
    std::string what = "placeholder '" + p->name() + "'";
    if (const TensorType *type = p->value().tensor()) {
      auto t = allocateTensor(*type, symbols);
      if (!t)
        return Error(what + ": " + t.error().message + " (give its size with --sym NAME=VALUE)");
      if (Status s = fillRandom(*t, seed + inputs.size()); !s)
        return Error(what + ": " + s.error().message);
      inputs.push_back(RuntimeValue{t.take()});
    } else if (const SymExpr *sym = p->value().sym()) {
      auto v = sym->evaluate(symbols);
      if (!v)
        return Error(what + ": " + v.error().message + " (give it with --sym NAME=VALUE)");
      inputs.push_back(RuntimeValue{*v});
    } else {
      return Error(what + " has no type to make a random input from (give the graph types, "
                          "e.g. a nodes.json sidecar, or pass --inputs)");
    }
  }
  return inputs;
}

} // namespace fxkit
