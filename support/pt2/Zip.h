#pragma once
/// \file A small ZIP reader and writer for PT2 archives (torch.export.save) and whatever else
/// fxkit packs in a zip. The reader takes the whole archive in memory (PT2 archives are read
/// whole anyway), validates the end-of-central-directory record (ZIP64 included), the central
/// directory and every local header against the archive's size before anything is read, and
/// checks each entry's CRC-32 and size when it is extracted, so truncated or corrupt input is a
/// clear error naming the byte offset, never a crash or a read past the end. Entries may be
/// stored or deflated (zlib, raw deflate); encryption, multi-disk archives and other methods
/// are refused. The writer stores entries uncompressed, each entry's data aligned to 64 bytes
/// as PyTorch's PyTorchStreamWriter aligns them (so weights can be mapped), with a central
/// directory that miniz (PyTorch's zip library) and Python's zipfile read.

#include "ir/Error.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit::zip {

/// One entry of the central directory.
struct Entry {
  std::string name;
  uint16_t method = 0; ///< 0 stored, 8 deflated
  uint16_t flags = 0;
  uint32_t crc32 = 0;
  uint64_t compressedSize = 0;
  uint64_t size = 0; ///< uncompressed
  uint64_t localHeaderOffset = 0;
  uint64_t dataOffset = 0; ///< first byte of the (compressed) data, from the local header
};

/// A parsed archive over bytes the caller keeps alive.
class Reader {
public:
  /// Parses the directory of `bytes`; `fileName` names the archive in errors. Errors: no
  /// end-of-central-directory record, a directory or local header out of range or with a bad
  /// signature, multi-disk archives, encrypted entries, unknown compression methods, duplicate
  /// names.
  static Expected<Reader> open(std::string_view bytes, std::string fileName);

  const std::vector<Entry> &entries() const { return entries_; }
  /// The entry named exactly `name`, or null.
  const Entry *find(std::string_view name) const;
  /// The entry's uncompressed bytes; errors name the entry (bad deflate stream, size or CRC
  /// mismatch).
  Expected<std::string> read(const Entry &entry) const;
  const std::string &fileName() const { return fileName_; }

private:
  std::string_view bytes_;
  std::string fileName_;
  std::vector<Entry> entries_;
};

/// Builds an archive in memory: add entries in order, then finish().
class Writer {
public:
  /// Adds an entry stored uncompressed; its data starts at a multiple of 64 bytes.
  void add(std::string_view name, std::string_view data);
  /// The archive's bytes (local entries, central directory, end record). Errors when the
  /// archive would need ZIP64 (over 4 GiB or 65535 entries), which this writer does not write.
  Expected<std::string> finish();

private:
  struct Written {
    std::string name;
    uint32_t crc32;
    uint64_t size;
    uint64_t offset;
  };
  std::string out_;
  std::vector<Written> written_;
};

/// CRC-32 as zip (and zlib) compute it.
uint32_t crc32(std::string_view data);

} // namespace fxkit::zip
