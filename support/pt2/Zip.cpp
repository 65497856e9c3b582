#include "support/pt2/Zip.h"

#include <zlib.h>

#include <algorithm>
#include <limits>
#include <unordered_set>

namespace fxkit::zip {
namespace {

constexpr uint32_t kLocalSig = 0x04034b50;
constexpr uint32_t kCentralSig = 0x02014b50;
constexpr uint32_t kEndSig = 0x06054b50;
constexpr uint32_t kEnd64Sig = 0x06064b50;
constexpr uint32_t kEnd64LocatorSig = 0x07064b50;
constexpr size_t kLocalHeaderSize = 30;
constexpr size_t kCentralHeaderSize = 46;
constexpr size_t kEndSize = 22;
constexpr size_t kEnd64LocatorSize = 20;
constexpr size_t kEnd64Size = 56;
/// Deflate cannot expand data by more than about 1032:1; a larger claimed size is corrupt (and
/// allocating it could exhaust memory).
constexpr uint64_t kMaxDeflateRatio = 1032;
/// Data of written entries starts at a multiple of this (PyTorchStreamWriter's kFieldAlignment).
constexpr size_t kAlignment = 64;

uint16_t le16(std::string_view b, size_t at) {
  return static_cast<uint16_t>(static_cast<uint8_t>(b[at]) | static_cast<uint8_t>(b[at + 1]) << 8);
}
uint32_t le32(std::string_view b, size_t at) {
  return static_cast<uint32_t>(le16(b, at)) | static_cast<uint32_t>(le16(b, at + 2)) << 16;
}
uint64_t le64(std::string_view b, size_t at) {
  return static_cast<uint64_t>(le32(b, at)) | static_cast<uint64_t>(le32(b, at + 4)) << 32;
}

void put16(std::string &out, uint16_t v) {
  out += static_cast<char>(v & 0xff);
  out += static_cast<char>(v >> 8);
}
void put32(std::string &out, uint32_t v) {
  put16(out, static_cast<uint16_t>(v & 0xffff));
  put16(out, static_cast<uint16_t>(v >> 16));
}

Error errorAt(const std::string &fileName, uint64_t offset, const std::string &message) {
  return Error("corrupt zip archive at byte " + std::to_string(offset) + ": " + message,
               SourceLoc{fileName, 0, 0});
}

/// Reads the ZIP64 extended information extra field (id 1) of a central directory entry: the
/// 64-bit values of the fields whose 32-bit slots hold 0xFFFFFFFF, in the order size,
/// compressed size, local header offset.
bool readZip64Extra(std::string_view extra, Entry &e, bool sizeIs64, bool compressedIs64,
                    bool offsetIs64) {
  size_t p = 0;
  while (p + 4 <= extra.size()) {
    uint16_t id = le16(extra, p), len = le16(extra, p + 2);
    if (p + 4 + len > extra.size())
      return false;
    if (id == 1) {
      std::string_view f = extra.substr(p + 4, len);
      size_t q = 0;
      auto take = [&](uint64_t &v) {
        if (q + 8 > f.size())
          return false;
        v = le64(f, q);
        q += 8;
        return true;
      };
      if (sizeIs64 && !take(e.size))
        return false;
      if (compressedIs64 && !take(e.compressedSize))
        return false;
      if (offsetIs64 && !take(e.localHeaderOffset))
        return false;
      return true;
    }
    p += 4 + len;
  }
  return !(sizeIs64 || compressedIs64 || offsetIs64);
}

} // namespace

uint32_t crc32(std::string_view data) {
  uLong crc = ::crc32(0L, Z_NULL, 0);
  // zlib takes uInt lengths: feed large inputs in pieces.
  while (!data.empty()) {
    size_t n = std::min<size_t>(data.size(), std::numeric_limits<uInt>::max() / 2);
    crc = ::crc32(crc, reinterpret_cast<const Bytef *>(data.data()), static_cast<uInt>(n));
    data.remove_prefix(n);
  }
  return static_cast<uint32_t>(crc);
}

Expected<Reader> Reader::open(std::string_view bytes, std::string fileName) {
  Reader r;
  r.bytes_ = bytes;
  r.fileName_ = std::move(fileName);
  const std::string &fn = r.fileName_;
  if (bytes.size() < kEndSize)
    return Error("not a zip archive: " + std::to_string(bytes.size()) +
                     " bytes, too short for the end-of-central-directory record",
                 SourceLoc{fn, 0, 0});
  // The end record is the last 22 bytes plus a comment of up to 65535 bytes.
  size_t end = std::string_view::npos;
  size_t lowest = bytes.size() > kEndSize + 0xffff ? bytes.size() - kEndSize - 0xffff : 0;
  for (size_t p = bytes.size() - kEndSize + 1; p-- > lowest;)
    if (le32(bytes, p) == kEndSig && p + kEndSize + le16(bytes, p + 20) == bytes.size()) {
      end = p;
      break;
    }
  if (end == std::string_view::npos)
    return Error("not a zip archive (or truncated): no end-of-central-directory record",
                 SourceLoc{fn, 0, 0});
  uint16_t disk = le16(bytes, end + 4), cdDisk = le16(bytes, end + 6);
  uint64_t count = le16(bytes, end + 10);
  uint64_t cdSize = le32(bytes, end + 12), cdOffset = le32(bytes, end + 16);
  if (disk != 0 || cdDisk != 0 || le16(bytes, end + 8) != le16(bytes, end + 10))
    return errorAt(fn, end, "multi-disk archives are not supported");
  uint64_t cdLimit = end; // the directory ends before the end record (or the ZIP64 records)
  if (count == 0xffff || cdSize == 0xffffffff || cdOffset == 0xffffffff) {
    if (end < kEnd64LocatorSize || le32(bytes, end - kEnd64LocatorSize) != kEnd64LocatorSig)
      return errorAt(fn, end, "ZIP64 fields without a ZIP64 end-of-central-directory locator");
    size_t locator = end - kEnd64LocatorSize;
    uint64_t rec = le64(bytes, locator + 8);
    if (rec > locator || locator - rec < kEnd64Size || le32(bytes, rec) != kEnd64Sig)
      return errorAt(fn, locator, "the ZIP64 locator points to no ZIP64 end record");
    count = le64(bytes, rec + 32);
    cdSize = le64(bytes, rec + 40);
    cdOffset = le64(bytes, rec + 48);
    cdLimit = rec;
  }
  if (cdOffset > cdLimit || cdSize > cdLimit - cdOffset)
    return errorAt(fn, end,
                   "the central directory (" + std::to_string(cdSize) + " bytes at " +
                       std::to_string(cdOffset) + ") lies outside the archive");
  if (count > cdSize / kCentralHeaderSize)
    return errorAt(fn, end,
                   std::to_string(count) + " entries cannot fit a central directory of " +
                       std::to_string(cdSize) + " bytes");
  std::string_view cd = bytes.substr(cdOffset, cdSize);
  r.entries_.reserve(count);
  std::unordered_set<std::string_view> names;
  size_t p = 0;
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t at = cdOffset + p;
    if (p + kCentralHeaderSize > cd.size() || le32(cd, p) != kCentralSig)
      return errorAt(fn, at, "central directory entry " + std::to_string(i) + " is missing");
    Entry e;
    e.flags = le16(cd, p + 8);
    e.method = le16(cd, p + 10);
    e.crc32 = le32(cd, p + 16);
    e.compressedSize = le32(cd, p + 20);
    e.size = le32(cd, p + 24);
    size_t nameLen = le16(cd, p + 28), extraLen = le16(cd, p + 30), commentLen = le16(cd, p + 32);
    e.localHeaderOffset = le32(cd, p + 42);
    if (p + kCentralHeaderSize + nameLen + extraLen + commentLen > cd.size())
      return errorAt(fn, at, "central directory entry " + std::to_string(i) + " is truncated");
    e.name = std::string(cd.substr(p + kCentralHeaderSize, nameLen));
    std::string_view extra = cd.substr(p + kCentralHeaderSize + nameLen, extraLen);
    if (!readZip64Extra(extra, e, e.size == 0xffffffff, e.compressedSize == 0xffffffff,
                        e.localHeaderOffset == 0xffffffff))
      return errorAt(fn, at, "entry '" + e.name + "': bad ZIP64 extra field");
    p += kCentralHeaderSize + nameLen + extraLen + commentLen;
    if (e.flags & 1)
      return errorAt(fn, at, "entry '" + e.name + "' is encrypted");
    if (e.method != 0 && e.method != 8)
      return errorAt(fn, at,
                     "entry '" + e.name + "' uses compression method " + std::to_string(e.method) +
                         " (only stored and deflated entries are supported)");
    if (e.method == 0 && e.size != e.compressedSize)
      return errorAt(fn, at, "stored entry '" + e.name + "' has different sizes");
    if (e.method == 8 && e.size > e.compressedSize * kMaxDeflateRatio + 1024)
      return errorAt(fn, at, "entry '" + e.name + "' claims an implausible size");
    // The local header and the data must lie before the central directory.
    uint64_t lh = e.localHeaderOffset;
    if (lh > cdOffset || cdOffset - lh < kLocalHeaderSize || le32(bytes, lh) != kLocalSig)
      return errorAt(fn, lh, "entry '" + e.name + "': no local header here");
    uint64_t dataStart = lh + kLocalHeaderSize + le16(bytes, lh + 26) + le16(bytes, lh + 28);
    if (dataStart > cdOffset || e.compressedSize > cdOffset - dataStart)
      return errorAt(fn, lh, "entry '" + e.name + "': data runs past the central directory");
    e.dataOffset = dataStart;
    r.entries_.push_back(std::move(e));
  }
  for (const Entry &e : r.entries_)
    if (!names.insert(e.name).second)
      return errorAt(fn, e.localHeaderOffset, "duplicate entry '" + e.name + "'");
  return r;
}

const Entry *Reader::find(std::string_view name) const {
  for (const Entry &e : entries_)
    if (e.name == name)
      return &e;
  return nullptr;
}

Expected<std::string> Reader::read(const Entry &e) const {
  std::string_view data = bytes_.substr(e.dataOffset, e.compressedSize);
  std::string out;
  if (e.method == 0) {
    out.assign(data);
  } else {
    out.resize(e.size);
    z_stream zs{};
    if (inflateInit2(&zs, -MAX_WBITS) != Z_OK)
      return errorAt(fileName_, e.dataOffset, "entry '" + e.name + "': cannot start inflating");
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.data()));
    zs.next_out = reinterpret_cast<Bytef *>(out.data());
    size_t inLeft = data.size(), outLeft = out.size();
    int rc = Z_OK;
    while (rc == Z_OK) {
      // zlib counts in uInt: hand it at most 1 GiB per call.
      uInt inChunk = static_cast<uInt>(std::min<size_t>(inLeft, size_t{1} << 30));
      uInt outChunk = static_cast<uInt>(std::min<size_t>(outLeft, size_t{1} << 30));
      zs.avail_in = inChunk;
      zs.avail_out = outChunk;
      rc = inflate(&zs, Z_NO_FLUSH);
      inLeft -= inChunk - zs.avail_in;
      outLeft -= outChunk - zs.avail_out;
      if (rc == Z_BUF_ERROR && (inLeft == 0 || outLeft == 0))
        break; // no progress possible: input truncated or output larger than claimed
      if (rc == Z_BUF_ERROR)
        rc = Z_OK;
    }
    inflateEnd(&zs);
    if (rc != Z_STREAM_END)
      return errorAt(fileName_, e.dataOffset,
                     "entry '" + e.name + "': bad deflate data" +
                         (zs.msg ? std::string(" (") + zs.msg + ")" : std::string()));
    if (outLeft != 0)
      return errorAt(fileName_, e.dataOffset,
                     "entry '" + e.name + "': inflates to fewer bytes than its size " +
                         std::to_string(e.size));
  }
  if (crc32(out) != e.crc32)
    return errorAt(fileName_, e.dataOffset, "entry '" + e.name + "': CRC-32 mismatch");
  return out;
}

void Writer::add(std::string_view name, std::string_view data) {
  uint64_t offset = out_.size();
  uint32_t crc = crc32(data);
  // The extra field pads the header so that the data starts at a multiple of kAlignment; it
  // is PyTorchStreamWriter's: id "FB", then 'Z' bytes.
  size_t headerEnd = offset + kLocalHeaderSize + name.size();
  size_t pad = (kAlignment - (headerEnd + 4) % kAlignment) % kAlignment;
  put32(out_, kLocalSig);
  put16(out_, 20); // version needed: 2.0
  bool utf8 = std::any_of(name.begin(), name.end(), [](char c) { return c & 0x80; });
  put16(out_, utf8 ? 0x0800 : 0);
  put16(out_, 0);    // stored
  put16(out_, 0);    // time
  put16(out_, 0x21); // date: 1980-01-01
  put32(out_, crc);
  put32(out_, static_cast<uint32_t>(data.size()));
  put32(out_, static_cast<uint32_t>(data.size()));
  put16(out_, static_cast<uint16_t>(name.size()));
  put16(out_, static_cast<uint16_t>(4 + pad));
  out_ += name;
  put16(out_, 0x4246); // "FB"
  put16(out_, static_cast<uint16_t>(pad));
  out_.append(pad, 'Z');
  out_ += data;
  written_.push_back({std::string(name), crc, data.size(), offset});
}

Expected<std::string> Writer::finish() {
  constexpr uint64_t k32 = 0xffffffff;
  if (written_.size() >= 0xffff)
    return Error("zip archive with " + std::to_string(written_.size()) +
                 " entries: more than this writer writes (no ZIP64)");
  for (const Written &w : written_)
    if (w.size >= k32 || w.offset >= k32 || w.name.size() > 0xffff)
      return Error("zip archive over 4 GiB (entry '" + w.name +
                   "'): more than this writer writes (no ZIP64)");
  uint64_t cdOffset = out_.size();
  for (const Written &w : written_) {
    put32(out_, kCentralSig);
    put16(out_, 20); // made by: 2.0, MS-DOS attributes
    put16(out_, 20); // version needed
    bool utf8 = std::any_of(w.name.begin(), w.name.end(), [](char c) { return c & 0x80; });
    put16(out_, utf8 ? 0x0800 : 0);
    put16(out_, 0);
    put16(out_, 0);
    put16(out_, 0x21);
    put32(out_, w.crc32);
    put32(out_, static_cast<uint32_t>(w.size));
    put32(out_, static_cast<uint32_t>(w.size));
    put16(out_, static_cast<uint16_t>(w.name.size()));
    put16(out_, 0); // extra
    put16(out_, 0); // comment
    put16(out_, 0); // disk
    put16(out_, 0); // internal attributes
    put32(out_, 0); // external attributes
    put32(out_, static_cast<uint32_t>(w.offset));
    out_ += w.name;
  }
  uint64_t cdSize = out_.size() - cdOffset;
  if (cdOffset >= k32 || cdSize >= k32)
    return Error("zip archive over 4 GiB: more than this writer writes (no ZIP64)");
  put32(out_, kEndSig);
  put16(out_, 0);
  put16(out_, 0);
  put16(out_, static_cast<uint16_t>(written_.size()));
  put16(out_, static_cast<uint16_t>(written_.size()));
  put32(out_, static_cast<uint32_t>(cdSize));
  put32(out_, static_cast<uint32_t>(cdOffset));
  put16(out_, 0);
  written_.clear();
  return std::move(out_);
}

} // namespace fxkit::zip
