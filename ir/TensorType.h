#pragma once
/// \file The type of a tensor value: dtype, symbolic sizes and strides, device.
/// Printed as in FX annotations: `f32[s77, s27][s27, 1]cuda:0`.

#include "ir/DType.h"
#include "ir/Error.h"
#include "ir/SymExpr.h"

#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

/// A device spelled as PyTorch prints it: "cpu", "cuda", "cuda:0".
struct Device {
  std::string_view type = "cpu"; ///< interned
  int index = -1;                ///< -1: no index

  static Expected<Device> parse(std::string_view text);
  std::string str() const;
  /// Python repr: `device(type='cuda', index=0)`.
  std::string pyRepr() const;
  bool operator==(const Device &) const = default;
};

struct TensorType {
  DType dtype = DType::Float32;
  std::vector<SymExpr> sizes;
  std::vector<SymExpr> strides;
  Device device;

  /// `f32[s77, s27][s27, 1]cuda:0`
  std::string str() const;
  void print(std::string &out) const;
  /// Parses the annotation form; errors carry the 1-based column in loc.col.
  static Expected<TensorType> parse(std::string_view text);

  /// Contiguous (row-major) strides for the given sizes.
  static std::vector<SymExpr> contiguousStrides(const std::vector<SymExpr> &sizes);

  bool operator==(const TensorType &) const = default;
};

} // namespace fxkit
