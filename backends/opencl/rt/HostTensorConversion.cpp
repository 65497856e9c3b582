#include "backends/opencl/rt/HostTensorConversion.h"

namespace fxkit::rt {

Expected<Tensor> toTensor(const HostTensor &h) {
  auto dtype = parseDType(h.dtype);
  if (!dtype)
    return Error("unknown dtype '" + h.dtype + "'");
  if (!h.storage)
    return Error("a host tensor without storage");
  int64_t item = dtypeItemSize(*dtype);
  size_t usable = h.storage->size() / item * item;
  auto flat = Tensor::fromBytes(*dtype, {static_cast<int64_t>(usable) / item},
                                std::span<const std::byte>(h.storage->data(), usable));
  if (!flat)
    return flat.takeError();
  return flat->asStrided(h.sizes, h.strides, h.offset);
}

HostTensor toHostTensor(const Tensor &t) {
  HostTensor h;
  h.dtype = std::string(dtypeName(t.dtype()));
  h.sizes = t.sizes();
  h.strides = t.strides();
  h.offset = t.storageOffset();
  h.storage = std::make_shared<std::vector<std::byte>>(t.storage()->begin(), t.storage()->end());
  return h;
}

Expected<RuntimeValue> toRuntimeValue(const Value &v) {
  switch (v.kind) {
  case Value::Kind::None:
    return RuntimeValue{};
  case Value::Kind::Integer:
    return RuntimeValue{v.integer};
  case Value::Kind::Tensor: {
    auto t = toTensor(v.tensor);
    if (!t)
      return t.takeError();
    return RuntimeValue{t.take()};
  }
  }
  return RuntimeValue{};
}

Value toValue(const RuntimeValue &v) {
  if (const Tensor *t = v.tensor())
    return Value::of(toHostTensor(*t));
  if (const int64_t *i = v.integer())
    return Value::of(*i);
  return Value();
}

} // namespace fxkit::rt
