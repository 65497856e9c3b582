#include "backends/interp/KernelContext.h"

#include "ir/StorageSpan.h"
#include "ir/Try.h"

namespace fxkit {

namespace {

Expected<int64_t> evalSym(const KernelContext &ctx, const SymExpr &e) {
  auto v = e.evaluate(ctx.bindings);
  if (!v)
    return ctx.error(v.error().message);
  return v;
}

/// A 0-d int64 tensor holding `value` exactly: stored as an integer, not through
/// Tensor::scalar's double, which rounds beyond 2^53.
Expected<Tensor> exactIntScalar(int64_t value) {
  auto t = Tensor::zeros(DType::Int64, {});
  FXKIT_TRY(t);
  t->storeInt(0, value);
  return t;
}

/// The runtime tensor of an argument: a node's tensor value, or a wrapped Python number.
/// A wrapped number only contributes its category to type promotion, which shape inference
/// already applied to the node's result dtype, so it is kept at full precision here: ints as
/// exact int64, floats as float64 (a float32 would turn 0.1 into 0.100000001 before a float64
/// tensor saw it).
Expected<Tensor> tensorOfArg(const KernelContext &ctx, const Argument &a, std::string_view name) {
  switch (a.kind()) {
  case Argument::Kind::NodeRef: {
    const RuntimeValue *v = ctx.valueOf(a.asNode());
    if (v && v->tensor())
      return *v->tensor();
    if (v && v->integer()) // a symbolic integer used as a tensor (wrapped scalar)
      return exactIntScalar(*v->integer());
    if (v && std::holds_alternative<double>(v->v)) // a SymFloat (item() of a float tensor)
      return Tensor::scalar(DType::Float64, std::get<double>(v->v));
    if (v && std::holds_alternative<bool>(v->v)) // a SymBool
      return Tensor::scalar(DType::Bool, std::get<bool>(v->v) ? 1 : 0);
    return ctx.error("argument '" + std::string(name) + "': input '" + a.asNode()->name() +
                     "' is not a tensor at run time");
  }
  case Argument::Kind::Int:
    return exactIntScalar(a.asInt());
  case Argument::Kind::Sym: {
    FXKIT_ASSIGN_OR_RETURN(auto v, evalSym(ctx, a.asSym()));
    return exactIntScalar(v);
  }
  case Argument::Kind::Float:
    return Tensor::scalar(DType::Float64, a.asFloat());
  case Argument::Kind::Bool:
    return Tensor::scalar(DType::Bool, a.asBool() ? 1 : 0);
  default:
    return ctx.error("argument '" + std::string(name) + "' must be a tensor");
  }
}

} // namespace

Expected<Tensor> KernelContext::tensor(std::string_view name) const {
  return tensorOfArg(*this, args.get(name), name);
}

Expected<std::optional<Tensor>> KernelContext::optionalTensor(std::string_view name) const {
  const Argument &a = args.get(name);
  if (a.isNone())
    return std::optional<Tensor>();
  FXKIT_ASSIGN_OR_RETURN(auto t, tensorOfArg(*this, a, name));
  return std::optional<Tensor>(std::move(t));
}

Expected<std::vector<Tensor>> KernelContext::tensorList(std::string_view name) const {
  const Argument &a = args.get(name);
  if (a.kind() != Argument::Kind::List && a.kind() != Argument::Kind::Tuple)
    return error("argument '" + std::string(name) + "' must be a list of tensors");
  std::vector<Tensor> out;
  for (const Argument &item : a.items()) {
    FXKIT_ASSIGN_OR_RETURN(auto t, tensorOfArg(*this, item, name));
    out.push_back(std::move(t));
  }
  return out;
}

Expected<int64_t> KernelContext::integer(std::string_view name) const {
  const Argument &a = args.get(name);
  if (a.isNode()) {
    const RuntimeValue *v = valueOf(a.asNode());
    if (v && v->integer())
      return *v->integer();
  }
  FXKIT_ASSIGN_OR_RETURN(auto s, args.symInt(name));
  return evalSym(*this, s);
}

Expected<std::optional<int64_t>> KernelContext::optionalInteger(std::string_view name) const {
  if (args.get(name).isNone())
    return std::optional<int64_t>();
  FXKIT_ASSIGN_OR_RETURN(auto v, integer(name));
  return std::optional<int64_t>(v);
}

Expected<std::vector<int64_t>> KernelContext::intList(std::string_view name) const {
  FXKIT_ASSIGN_OR_RETURN(auto syms, args.symIntList(name));
  std::vector<int64_t> out;
  out.reserve(syms.size());
  for (const SymExpr &e : syms) {
    FXKIT_ASSIGN_OR_RETURN(auto v, evalSym(*this, e));
    out.push_back(v);
  }
  return out;
}

Expected<std::optional<std::vector<int64_t>>>
KernelContext::optionalIntList(std::string_view name) const {
  if (args.get(name).isNone())
    return std::optional<std::vector<int64_t>>();
  FXKIT_ASSIGN_OR_RETURN(auto v, intList(name));
  return std::optional<std::vector<int64_t>>(std::move(v));
}

Expected<double> KernelContext::scalar(std::string_view name) const {
  const Argument &a = args.get(name);
  switch (a.kind()) {
  case Argument::Kind::Int:
    return static_cast<double>(a.asInt());
  case Argument::Kind::Float:
    return a.asFloat();
  case Argument::Kind::Bool:
    return a.asBool() ? 1.0 : 0.0;
  case Argument::Kind::Sym: {
    FXKIT_ASSIGN_OR_RETURN(auto v, evalSym(*this, a.asSym()));
    return static_cast<double>(v);
  }
  case Argument::Kind::NodeRef: {
    const RuntimeValue *v = valueOf(a.asNode());
    if (v && v->integer())
      return static_cast<double>(*v->integer());
    if (v && std::holds_alternative<double>(v->v))
      return std::get<double>(v->v);
    if (v && std::holds_alternative<bool>(v->v))
      return std::get<bool>(v->v) ? 1.0 : 0.0;
    if (v && v->tensor() && v->tensor()->numel() == 1) {
      std::vector<int64_t> zero(v->tensor()->sizes().size(), 0);
      return v->tensor()->getDouble(zero);
    }
    return error("argument '" + std::string(name) + "': input '" + a.asNode()->name() +
                 "' is not a number at run time");
  }
  default:
    return error("argument '" + std::string(name) + "' must be a number");
  }
}

Expected<SymExpr::Number> KernelContext::numberOf(const Argument &a) const {
  using T = SymExpr::Type;
  switch (a.kind()) {
  case Argument::Kind::Int:
    return SymExpr::Number{T::Int, a.asInt(), 0};
  case Argument::Kind::Float:
    return SymExpr::Number{T::Float, 0, a.asFloat()};
  case Argument::Kind::Bool:
    return SymExpr::Number{T::Bool, a.asBool() ? 1 : 0, 0};
  case Argument::Kind::Sym: {
    auto v = a.asSym().evaluateNumber(bindings);
    if (!v)
      return error(v.error().message);
    return v;
  }
  case Argument::Kind::NodeRef: {
    const RuntimeValue *v = valueOf(a.asNode());
    if (v && v->integer())
      return SymExpr::Number{T::Int, *v->integer(), 0};
    if (v && std::holds_alternative<double>(v->v))
      return SymExpr::Number{T::Float, 0, std::get<double>(v->v)};
    if (v && std::holds_alternative<bool>(v->v))
      return SymExpr::Number{T::Bool, std::get<bool>(v->v) ? 1 : 0, 0};
    return error("input '" + a.asNode()->name() + "' is not a number at run time");
  }
  default:
    return error("expected a number");
  }
}

Expected<SymExpr::Number> KernelContext::number(std::string_view name) const {
  return numberOf(args.get(name));
}

Expected<bool> KernelContext::boolean(std::string_view name) const {
  FXKIT_ASSIGN_OR_RETURN(auto v, scalar(name));
  return v != 0;
}

Expected<std::vector<TensorType>> KernelContext::outputTypes() const {
  const NodeValue &value = node().value();
  if (const TensorType *t = value.tensor())
    return std::vector<TensorType>{*t};
  if (const auto *ts = value.tensors()) {
    std::vector<TensorType> out;
    for (const auto &t : *ts) {
      if (!t)
        return error("result has a non-tensor element; kernels must build it themselves");
      out.push_back(*t);
    }
    return out;
  }
  return error("shape inference gave no tensor type for this node");
}

Expected<Tensor> KernelContext::allocateOutput(size_t index) const {
  // A result tuple with None elements (an efficient attention backward without the bias
  // gradient) still allocates its tensor elements.
  if (const auto *ts = node().value().tensors()) {
    if (index >= ts->size())
      return error("no result #" + std::to_string(index));
    if (!(*ts)[index])
      return error("result #" + std::to_string(index) + " is not a tensor");
    auto t = allocateTensor(*(*ts)[index], bindings);
    if (!t)
      return error(t.error().message);
    return t;
  }
  FXKIT_ASSIGN_OR_RETURN(auto types, outputTypes());
  if (index >= types.size())
    return error("no result #" + std::to_string(index));
  auto t = allocateTensor(types[index], bindings);
  if (!t)
    return error(t.error().message);
  return t;
}

Expected<ConcreteLayout> concreteLayout(const TensorType &type, const SymExpr::Bindings &bindings) {
  ConcreteLayout layout;
  for (const SymExpr &e : type.sizes) {
    FXKIT_ASSIGN_OR_RETURN(auto v, e.evaluate(bindings));
    layout.sizes.push_back(v);
  }
  for (const SymExpr &e : type.strides) {
    FXKIT_ASSIGN_OR_RETURN(auto v, e.evaluate(bindings));
    layout.strides.push_back(v);
  }
  // Storage large enough for the strided layout (covers padded and permuted strides).
  auto span = storageSpan(layout.sizes, layout.strides, dtypeItemSize(type.dtype));
  if (!span)
    return Error("tensor " + type.str() +
                 " with sizes bound to values that overflow the "
                 "element count: it " +
                 span.error().message);
  layout.extentElements = span->extentElements;
  return layout;
}

Expected<Tensor> allocateTensor(const TensorType &type, const SymExpr::Bindings &bindings) {
  FXKIT_ASSIGN_OR_RETURN(auto layout, concreteLayout(type, bindings));
  FXKIT_ASSIGN_OR_RETURN(auto base, Tensor::zeros(type.dtype, {layout.extentElements}));
  return base.asStrided(layout.sizes, layout.strides, 0);
}

} // namespace fxkit
