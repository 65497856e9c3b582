#include "importers/json/Safetensors.h"

#include "importers/json/JsonSupport.h"
#include "ir/Try.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
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

namespace {

/// The 8-byte little-endian header length at the start of a file of `fileSize` bytes.
Expected<uint64_t> headerLength(const unsigned char *first8, uint64_t fileSize,
                                std::string_view fileName) {
  if (fileSize < 8)
    return fileError(fileName, "truncated safetensors file: " + std::to_string(fileSize) +
                                   " bytes, too short for the 8-byte header length");
  uint64_t headerLen = 0;
  for (int i = 7; i >= 0; --i) // little-endian whatever the host
    headerLen = (headerLen << 8) | first8[i];
  const uint64_t available = fileSize - 8;
  if (headerLen > available)
    return fileError(fileName, "safetensors header length " + std::to_string(headerLen) +
                                   " goes beyond the end of the file (" +
                                   std::to_string(available) + " bytes follow the length)");
  return headerLen;
}

/// What the header says: the metadata and every tensor's place in a data section of
/// `dataSize` bytes, all validated before any tensor byte is read.
struct Layout {
  std::map<std::string, std::string> metadata;
  std::vector<Entry> entries;
};

Expected<Layout> parseLayout(std::string_view headerText, uint64_t dataSize,
                             std::string_view fileName) {
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

  Layout result;
  std::vector<Entry> &entries = result.entries;
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
    if (entry.end > dataSize)
      return bad("data_offsets " + offsetsIt->dump() + " go beyond the " +
                 std::to_string(dataSize) + " data bytes (file truncated?)");
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
  if (covered != dataSize)
    return fileError(fileName, "safetensors data section has " + std::to_string(dataSize) +
                                   " bytes but the tensors cover " + std::to_string(covered));
  return result;
}

} // namespace

Expected<SafetensorsFile> parseSafetensors(std::string_view bytes, std::string_view fileName) {
  FXKIT_ASSIGN_OR_RETURN(
      uint64_t headerLen,
      headerLength(reinterpret_cast<const unsigned char *>(bytes.data()), bytes.size(), fileName));
  std::string_view data = bytes.substr(8 + headerLen);
  FXKIT_ASSIGN_OR_RETURN(Layout layout,
                         parseLayout(bytes.substr(8, headerLen), data.size(), fileName));
  SafetensorsFile result;
  result.metadata = std::move(layout.metadata);
  for (const Entry &e : layout.entries) {
    auto span = std::as_bytes(std::span<const char>(data.data() + e.begin, e.end - e.begin));
    Expected<Tensor> t = Tensor::fromBytes(e.dtype, e.shape, span);
    if (!t)
      return fileError(fileName, "safetensors tensor '" + e.name + "': " + t.error().message);
    result.tensors.emplace_back(e.name, t.take());
  }
  return result;
}

namespace {

/// Reads `n` bytes at `offset` (pread until done). A file that another process shortens while
/// it is read ends early: an error, where a mapping would have raised SIGBUS.
Status readAt(int fd, void *into, uint64_t n, uint64_t offset, std::string_view path) {
  auto *p = static_cast<char *>(into);
  while (n > 0) {
    ssize_t got = ::pread(fd, p, std::min<uint64_t>(n, 1u << 30), static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0)
      return fileError(path, std::string("read error: ") + std::strerror(errno));
    if (got == 0)
      return fileError(path, "the file ended at byte " + std::to_string(offset) +
                                 " while it was read (shortened by another process?)");
    p += got;
    n -= static_cast<uint64_t>(got);
    offset += static_cast<uint64_t>(got);
  }
  return Status::ok();
}

/// A regular file: the header read and checked before any tensor byte (so a huge or sparse file
/// with a bad header costs nothing), then each tensor read straight into its storage.
Expected<SafetensorsFile> readRegularFile(int fd, uint64_t fileSize, const std::string &path) {
  unsigned char first8[8] = {};
  if (fileSize >= 8)
    FXKIT_TRY(readAt(fd, first8, 8, 0, path));
  FXKIT_ASSIGN_OR_RETURN(uint64_t headerLen, headerLength(first8, fileSize, path));
  std::string headerText(headerLen, '\0');
  FXKIT_TRY(readAt(fd, headerText.data(), headerLen, 8, path));
  const uint64_t dataStart = 8 + headerLen;
  FXKIT_ASSIGN_OR_RETURN(Layout layout, parseLayout(headerText, fileSize - dataStart, path));
  SafetensorsFile result;
  result.metadata = std::move(layout.metadata);
  for (const Entry &e : layout.entries) {
    Expected<Tensor> t = Tensor::fromFill(e.dtype, e.shape, [&](std::span<std::byte> into) {
      return readAt(fd, into.data(), into.size(), dataStart + e.begin, path);
    });
    if (!t && t.error().loc.file == path)
      return t.takeError(); // a read error, already located
    if (!t)
      return fileError(path, "safetensors tensor '" + e.name + "': " + t.error().message);
    result.tensors.emplace_back(e.name, t.take());
  }
  return result;
}

} // namespace

Expected<SafetensorsFile> readSafetensors(const std::string &path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return fileError(path, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    auto result = readRegularFile(fd, static_cast<uint64_t>(st.st_size), path);
    ::close(fd);
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
