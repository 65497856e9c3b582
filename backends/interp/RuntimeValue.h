#pragma once
/// \file What flows along a graph's edges when the reference interpreter runs it.

#include "ir/Tensor.h"

#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

namespace fxkit {

/// A node's runtime value: a tensor, several (split, var_mean, attention; nullopt for a
/// non-tensor element), a concrete integer (symbolic sizes), a float or bool (Python scalars),
/// or nothing (output of a node without value).
struct RuntimeValue {
  using Variant = std::variant<std::monostate, Tensor, std::vector<std::optional<Tensor>>, int64_t,
                               double, bool>;
  Variant v;

  const Tensor *tensor() const { return std::get_if<Tensor>(&v); }
  const std::vector<std::optional<Tensor>> *tensors() const {
    return std::get_if<std::vector<std::optional<Tensor>>>(&v);
  }
  const int64_t *integer() const { return std::get_if<int64_t>(&v); }
};

} // namespace fxkit
