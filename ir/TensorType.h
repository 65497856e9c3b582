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
  /// FX also prints types without strides and device (`f32[8, 128]`, from TensorMetadata or
  /// print_readable(include_stride=False)); these flags keep that spelling.
  bool hasStrides = true;
  bool hasDevice = true;

  /// `f32[s77, s27][s27, 1]cuda:0` (or `f32[s77, s27]` without strides and device)
  std::string str() const;
  void print(std::string &out) const;
  /// Parses the annotation form; errors carry the 1-based column in loc.col.
  static Expected<TensorType> parse(std::string_view text);

  /// Contiguous (row-major) strides for the given sizes.
  static std::vector<SymExpr> contiguousStrides(const std::vector<SymExpr> &sizes);

  bool operator==(const TensorType &) const = default;
};

/// An error when the concrete sizes and strides of `t` count more elements, or reach further
/// into storage (in bytes), than int64 holds: compiled kernels index with int64, so such a
/// tensor would wrap silently (an expand to 2^62 + 1 rows summed to 4.0). Symbolic sizes pass
/// here; they are checked when bound.
Status checkTensorExtent(const TensorType &t);

} // namespace fxkit
