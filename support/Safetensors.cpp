/// \file The data of a `.safetensors` file and the format's dtype codes.

#include "support/Safetensors.h"

namespace fxkit {
namespace {

struct CodeEntry {
  std::string_view code;
  DType dtype;
};

// Codes of the reference implementation; U16/U32/U64 have no fxkit dtype.
constexpr CodeEntry kCodes[] = {
    {"F32", DType::Float32},        {"F16", DType::Float16},   {"BF16", DType::BFloat16},
    {"F64", DType::Float64},        {"I64", DType::Int64},     {"I32", DType::Int32},
    {"I16", DType::Int16},          {"I8", DType::Int8},       {"U8", DType::UInt8},
    {"BOOL", DType::Bool},          {"C64", DType::Complex64}, {"F8_E4M3", DType::Float8E4M3FN},
    {"F8_E5M2", DType::Float8E5M2},
};

} // namespace

const Tensor *SafetensorsFile::find(std::string_view name) const {
  for (const auto &[n, t] : tensors)
    if (n == name)
      return &t;
  return nullptr;
}

std::optional<std::string_view> safetensorsDTypeCode(DType dtype) {
  for (const CodeEntry &e : kCodes)
    if (e.dtype == dtype)
      return e.code;
  return std::nullopt;
}

std::optional<DType> parseSafetensorsDType(std::string_view code) {
  for (const CodeEntry &e : kCodes)
    if (e.code == code)
      return e.dtype;
  return std::nullopt;
}

} // namespace fxkit
