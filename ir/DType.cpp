#include "ir/DType.h"

#include <array>

namespace fxkit {
namespace {

struct DTypeInfo {
  DType dtype;
  std::string_view name;
  std::string_view shortName;
  std::string_view scalarTypeName; ///< c10::ScalarType
  std::string_view typeMetaName;   ///< caffe2::TypeMeta (the C++ type, as GCC names it)
  int itemSize;
  bool floating;
};

constexpr std::array<DTypeInfo, 14> kInfos = {{
    {DType::Float32, "float32", "f32", "Float", "float", 4, true},
    {DType::Float16, "float16", "f16", "Half", "c10::Half", 2, true},
    {DType::BFloat16, "bfloat16", "bf16", "BFloat16", "c10::BFloat16", 2, true},
    {DType::Float64, "float64", "f64", "Double", "double", 8, true},
    {DType::Int64, "int64", "i64", "Long", "long int", 8, false},
    {DType::Int32, "int32", "i32", "Int", "int", 4, false},
    {DType::Int16, "int16", "i16", "Short", "short int", 2, false},
    {DType::Int8, "int8", "i8", "Char", "signed char", 1, false},
    {DType::UInt8, "uint8", "u8", "Byte", "unsigned char", 1, false},
    {DType::Bool, "bool", "b8", "Bool", "bool", 1, false},
    {DType::Complex64, "complex64", "c64", "ComplexFloat", "c10::complex<float>", 8, true},
    {DType::Complex128, "complex128", "c128", "ComplexDouble", "c10::complex<double>", 16, true},
    {DType::Float8E4M3FN, "float8_e4m3fn", "f8e4m3fn", "Float8_e4m3fn", "c10::Float8_e4m3fn", 1,
     true},
    {DType::Float8E5M2, "float8_e5m2", "f8e5m2", "Float8_e5m2", "c10::Float8_e5m2", 1, true},
}};

const DTypeInfo &info(DType dtype) { return kInfos[static_cast<size_t>(dtype)]; }

} // namespace

std::string_view dtypeName(DType dtype) { return info(dtype).name; }
std::string_view dtypeShortName(DType dtype) { return info(dtype).shortName; }
std::string_view dtypeScalarTypeName(DType dtype) { return info(dtype).scalarTypeName; }
std::string_view dtypeTypeMetaName(DType dtype) { return info(dtype).typeMetaName; }
int dtypeItemSize(DType dtype) { return info(dtype).itemSize; }
bool dtypeIsFloating(DType dtype) { return info(dtype).floating; }

int64_t wrapToIntegral(DType dtype, int64_t v) {
  switch (dtype) {
  case DType::Int32:
    return static_cast<int32_t>(v);
  case DType::Int16:
    return static_cast<int16_t>(v);
  case DType::Int8:
    return static_cast<int8_t>(v);
  case DType::UInt8:
    return static_cast<uint8_t>(v);
  case DType::Bool:
    return v != 0;
  case DType::Int64:
  case DType::Float32:
  case DType::Float16:
  case DType::BFloat16:
  case DType::Float64:
  case DType::Complex64:
  case DType::Complex128:
  case DType::Float8E4M3FN:
  case DType::Float8E5M2:
    return v;
  }
  return v;
}

std::optional<DType> parseDType(std::string_view text) {
  if (text.starts_with("torch."))
    text.remove_prefix(6);
  for (const DTypeInfo &i : kInfos)
    if (text == i.name || text == i.shortName)
      return i.dtype;
  struct Alias {
    std::string_view name;
    DType dtype;
  };
  static constexpr Alias kAliases[] = {
      {"float", DType::Float32},    {"half", DType::Float16},      {"double", DType::Float64},
      {"long", DType::Int64},       {"int", DType::Int32},         {"short", DType::Int16},
      {"cfloat", DType::Complex64}, {"cdouble", DType::Complex128}};
  for (const Alias &a : kAliases)
    if (text == a.name)
      return a.dtype;
  return std::nullopt;
}

} // namespace fxkit
