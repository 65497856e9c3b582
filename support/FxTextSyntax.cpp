/// \file The spelling rules of FX graph text shared by its reader and printers.

#include "support/FxTextSyntax.h"

#include "support/PyLexer.h"

namespace fxkit {

std::optional<Argument> fxTorchConstant(std::string_view rest) {
  if (auto d = parseDType(rest); d && dtypeName(*d) == rest)
    return Argument::dtype(*d);
  static constexpr std::string_view kFormats[] = {"contiguous_format", "channels_last",
                                                  "channels_last_3d", "preserve_format"};
  for (std::string_view f : kFormats)
    if (rest == f)
      return Argument::memoryFormat(rest);
  static constexpr std::string_view kLayouts[] = {"strided",    "sparse_coo", "sparse_csr",
                                                  "sparse_csc", "sparse_bsr", "sparse_bsc",
                                                  "_mkldnn",    "jagged"};
  for (std::string_view l : kLayouts)
    if (rest == l)
      return Argument::layout(rest);
  return std::nullopt;
}

size_t pyStringLiteralEnd(std::string_view line, size_t start) {
  char q = line[start];
  size_t i = start + 1;
  while (i < line.size() && line[i] != q)
    i += line[i] == '\\' ? 2 : 1;
  return i < line.size() ? i : std::string_view::npos;
}

bool fxStringPrintsBare(std::string_view s) {
  if (s.empty() || s[0] == '%')
    return false;
  for (char ch : s)
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f ||
        kFxNotInBareString.find(ch) != std::string_view::npos)
      return false;
  // Parser::classify's readings other than a string (or a device: see the declaration).
  char c0 = s[0];
  if ((c0 >= '0' && c0 <= '9') || c0 == '-' || c0 == '.' || s == "inf" || s == "nan" ||
      s == "True" || s == "False" || s == "None" || s == "Ellipsis")
    return false;
  return !(s.starts_with("torch.") && fxTorchConstant(s.substr(6)));
}

bool fxBareDictKeyReadsBack(std::string_view k) {
  if (k.empty() || k[0] == ' ' || k[0] == '}' || k.find(':') != std::string_view::npos)
    return false;
  for (char ch : k)
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f)
      return false;
  // A key spelled as fxkit quotes another key would read back as that one (Parser::quotedKeyAt);
  // any other quote is bare text (str() of a key that holds quotes).
  if ((k[0] == '\'' || k[0] == '"') && pyStringLiteralEnd(k, 0) == k.size() - 1)
    if (auto inner = decodePyString(k); inner && pyStringRepr(*inner) == k)
      return fxBareDictKeyReadsBack(*inner);
  return true;
}

} // namespace fxkit
