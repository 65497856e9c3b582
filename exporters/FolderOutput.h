#pragma once
/// \file Outputs that are folders (`compile --to opencl|ptx|wrapper-cpp -o DIR`) written the way
/// single files are (writeFileAtomic): every file goes into a hidden temporary folder beside
/// DIR, which then takes DIR's place in one rename. A failure (a full disk, a signal) leaves
/// DIR as it was, never half of one generation or a mix of two.

#include "ir/Error.h"

#include <span>
#include <string>
#include <string_view>

namespace fxkit {

/// One file of a folder output, by its name inside the folder.
struct FolderFile {
  std::string name;
  std::string_view content;
};

/// Writes `files` as the folder `dir`. A missing or empty `dir` is created; an existing one is
/// replaced whole when everything in it is a file this output writes (a name in `files`, or a
/// name ending in one of `ownedSuffixes`, such as `.cl` or the `.o` that `--build` adds), so a
/// second compile into the same folder leaves no file of the first. A folder holding anything
/// else is refused with the name of what it holds: fxkit does not delete what it did not write.
/// Entries named in `kept` (the CMake build tree `DIR/build` that the C++ wrapper's README
/// suggests) belong to the user: they are moved into the new generation unchanged.
Status writeFolderAtomic(const std::string &dir, std::span<const FolderFile> files,
                         std::span<const std::string_view> ownedSuffixes = {},
                         std::span<const std::string_view> kept = {});

} // namespace fxkit
