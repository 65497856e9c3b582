#include "ir/loop/BoundSizes.h"

#include "ir/StorageSpan.h"
#include "ir/Tensor.h"
#include "ir/TensorType.h"
#include "ir/Try.h"

#include <set>
#include <string>

namespace fxkit::loop {

namespace {

/// The symbols of `type`'s sizes and strides with their values, "u = 2147483648" (for
/// messages).
std::string boundValues(const TensorType &type, const SymExpr::Bindings &bindings) {
  std::set<std::string> names;
  for (const auto *list : {&type.sizes, &type.strides})
    for (const SymExpr &e : *list)
      for (const std::string &s : e.symbols())
        names.insert(s);
  std::string out;
  for (const std::string &n : names) {
    auto it = bindings.find(n);
    if (it != bindings.end())
      out += (out.empty() ? "" : ", ") + n + " = " + std::to_string(it->second);
  }
  return out;
}

} // namespace

Status checkBoundTensor(const std::string &name, const TensorType &t,
                        const SymExpr::Bindings &bindings) {
  TensorType concrete = t;
  bool symbolic = false, unbound = false;
  std::string error;
  for (auto *list : {&concrete.sizes, &concrete.strides})
    for (SymExpr &e : *list) {
      if (e.isConstant())
        continue;
      symbolic = true;
      bool allBound = true;
      for (const std::string &s : e.symbols())
        allBound = allBound && bindings.count(s);
      if (!allBound) {
        unbound = true;
        continue;
      }
      auto v = e.evaluate(bindings);
      if (!v) {
        error = v.error().message;
        continue;
      }
      e = SymExpr(*v);
    }
  if (!symbolic || unbound)
    return Status::ok(); // constant sizes were checked at inference; the rest once bound
  std::string what = name + " (" + t.str() + ") with " + boundValues(t, bindings);
  if (!error.empty())
    return Error(what + ": " + error);
  std::vector<int64_t> sizes, strides;
  for (const SymExpr &e : concrete.sizes)
    sizes.push_back(e.constant());
  for (const SymExpr &e : concrete.strides)
    strides.push_back(e.constant());
  auto span = storageSpan(sizes, strides, dtypeItemSize(concrete.dtype));
  if (!span)
    return Error(what + ": tensor " + concrete.str() + " " + span.error().message);
  uint64_t bytes = static_cast<uint64_t>(span->bytes);
  if (bytes > tensorByteLimit())
    return Error(what + ": " + std::to_string(bytes) + " bytes, more than one tensor may take (" +
                 std::to_string(tensorByteLimit()) +
                 " bytes: this machine's memory, or FXKIT_MAX_TENSOR_BYTES)");
  return Status::ok();
}

Status checkBoundBufferSizes(const LoopProgram &program, const SymExpr::Bindings &bindings) {
  for (const Buffer &b : program.buffers)
    FXKIT_TRY(checkBoundTensor("buffer " + b.name, b.type, bindings));
  return Status::ok();
}

} // namespace fxkit::loop
