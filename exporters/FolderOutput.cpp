#include "exporters/FolderOutput.h"

#include "exporters/Export.h"
#include "exporters/StaleTemporaries.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace fxkit {

namespace {

namespace fs = std::filesystem;

/// Why `dir` may not be replaced by a folder of `files`: the first entry that this output does
/// not write; empty when it may.
std::string foreignEntry(const fs::path &dir, std::span<const FolderFile> files,
                         std::span<const std::string_view> ownedSuffixes,
                         std::span<const std::string_view> kept) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (std::find(kept.begin(), kept.end(), name) != kept.end())
      continue;
    bool owned = false;
    for (const FolderFile &f : files)
      owned = owned || f.name == name;
    for (std::string_view suffix : ownedSuffixes)
      owned = owned || (name.size() > suffix.size() && name.ends_with(suffix));
    std::error_code typeError;
    if (!owned || !it->is_regular_file(typeError))
      return name;
  }
  return ec ? "(unreadable: " + ec.message() + ")" : "";
}

/// Swaps two paths in one step where the kernel can (Linux renameat2 RENAME_EXCHANGE); false
/// where it cannot, with errno set.
bool exchangePaths(const fs::path &a, const fs::path &b) {
#if defined(__linux__) && defined(RENAME_EXCHANGE)
  return ::renameat2(AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE) == 0;
#else
  (void)a;
  (void)b;
  errno = ENOSYS;
  return false;
#endif
}

} // namespace

Status writeFolderAtomic(const std::string &dir, std::span<const FolderFile> files,
                         std::span<const std::string_view> ownedSuffixes,
                         std::span<const std::string_view> kept) {
  fs::path target = fs::path(dir).lexically_normal();
  if (target.filename().empty())
    target = target.parent_path();
  std::error_code ec;
  bool exists = fs::exists(target, ec);
  if (exists && !fs::is_directory(target, ec))
    return Error("cannot write the folder '" + dir + "': a file of that name exists");
  if (exists) {
    std::string foreign = foreignEntry(target, files, ownedSuffixes, kept);
    if (!foreign.empty())
      return Error("will not replace the folder '" + dir + "': it holds '" + foreign +
                   "', which this output does not write (give a new or empty folder)");
  }
  fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
  fs::create_directories(parent, ec);
  if (ec)
    return Error("cannot create the folder '" + parent.string() + "': " + ec.message());
  sweepStaleTemporaries(parent);
  std::string tmpl = temporaryTemplate(parent, target.filename().string());
  if (!::mkdtemp(tmpl.data()))
    return Error("cannot write the folder '" + dir + "': " + std::strerror(errno));
  fs::path temporary(tmpl);
  auto discard = [&](Error e) {
    std::error_code ignored;
    fs::remove_all(temporary, ignored);
    return Status(std::move(e));
  };
  // mkdtemp creates 0700; give the folder the usual permissions of a new one.
  mode_t mask = ::umask(0);
  ::umask(mask);
  fs::permissions(temporary, static_cast<fs::perms>(0777 & ~mask), ec);
  for (const FolderFile &f : files)
    if (Status s = writeFileAtomic((temporary / f.name).string(), f.content); !s)
      return discard(Error(s.error().message + " (the folder '" + dir + "' is unchanged)"));
  if (!exists) {
    if (::rename(temporary.c_str(), target.c_str()) != 0)
      return discard(Error("cannot write the folder '" + dir + "': " + std::strerror(errno)));
    return Status::ok();
  }
  // The user's entries move into the new generation first (a rename each, on one file system).
  std::vector<std::string> moved;
  auto moveBack = [&] {
    for (const std::string &name : moved)
      ::rename((temporary / name).c_str(), (target / name).c_str());
  };
  for (std::string_view name : kept) {
    fs::path from = target / name;
    if (!fs::exists(fs::symlink_status(from, ec)))
      continue;
    if (::rename(from.c_str(), (temporary / name).c_str()) != 0) {
      int saved = errno;
      moveBack();
      return discard(Error("cannot replace the folder '" + dir + "': cannot keep '" +
                           std::string(name) + "': " + std::strerror(saved)));
    }
    moved.emplace_back(name);
  }
  // Replace the old generation whole: swap it with the new one in one step, then delete it.
  if (!exchangePaths(temporary, target)) {
    // Without an atomic exchange: move the old folder aside, the new one in, the old one away.
    std::string asideName = tmpl + ".old";
    if (::rename(target.c_str(), asideName.c_str()) != 0) {
      int saved = errno;
      moveBack();
      return discard(Error("cannot replace the folder '" + dir + "': " + std::strerror(saved)));
    }
    if (::rename(temporary.c_str(), target.c_str()) != 0) {
      int saved = errno;
      ::rename(asideName.c_str(), target.c_str());
      moveBack();
      return discard(Error("cannot replace the folder '" + dir + "': " + std::strerror(saved)));
    }
    temporary = asideName;
  }
  fs::remove_all(temporary, ec);
  return Status::ok();
}

} // namespace fxkit
