#include "importers/json/Safetensors.h"

#include "importers/json/JsonSupport.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fxkit {
namespace {

using json::Json;

Error fileError(std::string_view fileName, std::string message) {
  return Error(std::move(message), SourceLoc{std::string(fileName), 0, 0});
}

/// A non-negative JSON integer (nlohmann keeps unsigned and signed integers apart).
std::optional<uint64_t> asUnsigned(const Json &j) {
  if (j.is_number_unsigned())
    return j.get<uint64_t>();
  if (j.is_number_integer() && j.get<int64_t>() >= 0)
    return static_cast<uint64_t>(j.get<int64_t>());
  return std::nullopt;
}

struct Entry {
  std::string name;
  DType dtype;
  std::vector<int64_t> shape;
  uint64_t begin, end;
};

} // namespace

Expected<SafetensorsFile> parseSafetensors(std::string_view bytes, std::string_view fileName) {
  if (bytes.size() < 8)
    return fileError(fileName, "truncated safetensors file: " + std::to_string(bytes.size()) +
                                   " bytes, too short for the 8-byte header length");
  uint64_t headerLen = 0;
  for (int i = 7; i >= 0; --i) // little-endian whatever the host
    headerLen = (headerLen << 8) | static_cast<unsigned char>(bytes[i]);
  const uint64_t available = bytes.size() - 8;
  if (headerLen > available)
    return fileError(fileName, "safetensors header length " + std::to_string(headerLen) +
                                   " goes beyond the end of the file (" +
                                   std::to_string(available) + " bytes follow the length)");
  std::string_view headerText = bytes.substr(8, headerLen);
  std::string_view data = bytes.substr(8 + headerLen);

  // Lines and columns count within the header (the JSON after the 8-byte length).
  auto parsed = json::parseJson(headerText, std::string(fileName));
  if (!parsed) {
    Error e = parsed.takeError();
    e.message = "safetensors header is not valid JSON: " + e.message;
    return e;
  }
  Json header = parsed.take();
  if (!header.is_object())
    return fileError(fileName, std::string("safetensors header is a JSON ") + header.type_name() +
                                   ", expected an object of tensors");

  SafetensorsFile result;
  std::vector<Entry> entries;
  for (const auto &[name, value] : header.items()) {
    if (name == "__metadata__") {
      if (!value.is_object())
        return fileError(fileName, "safetensors __metadata__ is not an object of strings");
      for (const auto &[key, text] : value.items()) {
        if (!text.is_string())
          return fileError(fileName, "safetensors __metadata__ entry '" + key + "' is a JSON " +
                                         text.type_name() + ", expected a string");
        result.metadata[key] = text.get<std::string>();
      }
      continue;
    }
    // A copy of the key: clang 15 cannot capture a structured binding in a lambda.
    auto bad = [&, tensorName = name](const std::string &what) {
      return fileError(fileName, "safetensors tensor '" + tensorName + "': " + what);
    };
    if (!value.is_object())
      return bad("entry is not an object");
    auto dtypeIt = value.find("dtype");
    auto shapeIt = value.find("shape");
    auto offsetsIt = value.find("data_offsets");
    if (dtypeIt == value.end() || !dtypeIt->is_string())
      return bad("missing string 'dtype'");
    if (shapeIt == value.end() || !shapeIt->is_array())
      return bad("missing array 'shape'");
    if (offsetsIt == value.end() || !offsetsIt->is_array() || offsetsIt->size() != 2)
      return bad("'data_offsets' is not an array [begin, end]");
    Entry entry;
    entry.name = name;
    std::string code = dtypeIt->get<std::string>();
    std::optional<DType> dtype = parseSafetensorsDType(code);
    if (!dtype)
      return bad("unknown or unsupported dtype '" + code + "'");
    entry.dtype = *dtype;
    uint64_t numel = 1;
    for (const Json &dim : *shapeIt) {
      std::optional<uint64_t> d = asUnsigned(dim);
      if (!d || *d > static_cast<uint64_t>(INT64_MAX))
        return bad("shape entry " + dim.dump() + " is not a non-negative integer");
      if (__builtin_mul_overflow(numel, *d, &numel))
        return bad("shape " + shapeIt->dump() + " overflows the element count");
      entry.shape.push_back(static_cast<int64_t>(*d));
    }
    std::optional<uint64_t> begin = asUnsigned((*offsetsIt)[0]);
    std::optional<uint64_t> end = asUnsigned((*offsetsIt)[1]);
    if (!begin || !end || *begin > *end)
      return bad("data_offsets " + offsetsIt->dump() + " are not integers begin <= end");
    entry.begin = *begin;
    entry.end = *end;
    if (entry.end > data.size())
      return bad("data_offsets " + offsetsIt->dump() + " go beyond the " +
                 std::to_string(data.size()) + " data bytes (file truncated?)");
    uint64_t want;
    if (__builtin_mul_overflow(numel, static_cast<uint64_t>(dtypeItemSize(entry.dtype)), &want) ||
        want != entry.end - entry.begin)
      return bad("data_offsets " + offsetsIt->dump() + " hold " +
                 std::to_string(entry.end - entry.begin) + " bytes but shape " + shapeIt->dump() +
                 " of " + code + " needs " + std::to_string(numel) + " * " +
                 std::to_string(dtypeItemSize(entry.dtype)));
    entries.push_back(std::move(entry));
  }

  // As the reference implementation requires: the tensors tile the data section exactly.
  std::vector<const Entry *> byOffset;
  for (const Entry &e : entries)
    byOffset.push_back(&e);
  std::stable_sort(byOffset.begin(), byOffset.end(),
                   [](const Entry *a, const Entry *b) { return a->begin < b->begin; });
  uint64_t covered = 0;
  const Entry *prev = nullptr;
  for (const Entry *e : byOffset) {
    if (e->begin < covered)
      return fileError(fileName, "safetensors tensors '" + prev->name + "' and '" + e->name +
                                     "' overlap (bytes " + std::to_string(e->begin) + ".." +
                                     std::to_string(covered) + ")");
    if (e->begin > covered)
      return fileError(fileName, "safetensors data bytes " + std::to_string(covered) + ".." +
                                     std::to_string(e->begin) + " before tensor '" + e->name +
                                     "' belong to no tensor");
    covered = e->end;
    prev = e;
  }
  if (covered != data.size())
    return fileError(fileName, "safetensors data section has " + std::to_string(data.size()) +
                                   " bytes but the tensors cover " + std::to_string(covered));

  for (const Entry &e : entries) {
    auto span = std::as_bytes(std::span<const char>(data.data() + e.begin, e.end - e.begin));
    Expected<Tensor> t = Tensor::fromBytes(e.dtype, e.shape, span);
    if (!t)
      return fileError(fileName, "safetensors tensor '" + e.name + "': " + t.error().message);
    result.tensors.emplace_back(e.name, t.take());
  }
  return result;
}

Expected<SafetensorsFile> readSafetensors(const std::string &path) {
  // A regular file is mapped, not read: the header is checked before any tensor byte is
  // touched, so a huge (or sparse) file with a bad header costs nothing, and each tensor is
  // copied once, into its own storage.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return fileError(path, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    size_t size = static_cast<size_t>(st.st_size);
    void *mapped = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (mapped == MAP_FAILED)
      return fileError(path, std::string("cannot map: ") + std::strerror(errno));
    auto result = parseSafetensors(std::string_view(static_cast<const char *>(mapped), size), path);
    ::munmap(mapped, size);
    return result;
  }
  ::close(fd);
  // Pipes and other streams: read whole.
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return fileError(path, std::string("cannot open: ") + std::strerror(errno));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad())
    return fileError(path, "read error");
  std::string bytes = std::move(buffer).str();
  return parseSafetensors(bytes, path);
}

} // namespace fxkit
