#pragma once
/// \file Tensor element types, with PyTorch's spellings (`torch.float32`, `float32`, `f32`).

#include <cstdint>
#include <optional>
#include <string_view>

namespace fxkit {

enum class DType : uint8_t {
  Float32,
  Float16,
  BFloat16,
  Float64,
  Int64,
  Int32,
  Int16,
  Int8,
  UInt8,
  Bool,
  Complex64,
  Complex128,
  Float8E4M3FN,
  Float8E5M2,
};

/// "float32", as in `torch.float32` without the prefix and in nodes.json.
std::string_view dtypeName(DType dtype);
/// "f32", as in FX type annotations `"f32[4, 8][8, 1]cpu"`.
std::string_view dtypeShortName(DType dtype);
/// c10's ScalarType name ("Float", "Half", "Long"), as PyTorch's error messages spell it.
std::string_view dtypeScalarTypeName(DType dtype);
/// caffe2::TypeMeta's name ("float", "double", "c10::Half", "long int"), as the messages that
/// print a tensor's dtype() spell it.
std::string_view dtypeTypeMetaName(DType dtype);
/// Bytes per element.
int dtypeItemSize(DType dtype);
bool dtypeIsFloating(DType dtype);
/// An integer as integral dtype `dtype` holds it: narrower integers wrap (two's complement, as
/// integer casts do in C++ and PyTorch), bool is v != 0; other dtypes keep v.
int64_t wrapToIntegral(DType dtype, int64_t v);

/// Accepts "float32", "torch.float32", "f32" and PyTorch's aliases ("float", "half", "long").
std::optional<DType> parseDType(std::string_view text);

} // namespace fxkit
