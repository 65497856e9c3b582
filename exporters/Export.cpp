#include "exporters/Export.h"

#include "ir/Try.h"

#include "exporters/FxTextPrinter.h"
#include "exporters/ReadablePyPrinter.h"
#include "exporters/StaleTemporaries.h"
#include "ir/FaultInjection.h"
#ifdef FXKIT_HAVE_JSON
#include "exporters/json/FxkitJsonWriter.h"
#endif
#ifdef FXKIT_HAVE_PT2
#include "exporters/pt2/Pt2Writer.h"
#endif

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace fxkit {

Expected<std::string> exportGraph(const Graph &graph, GraphFormat format,
                                  std::string_view outputPath) {
  switch (format) {
  case GraphFormat::Pt2:
#ifdef FXKIT_HAVE_PT2
    return writePt2(graph, pt2ArchiveName(outputPath));
#else
    (void)outputPath;
    return Error("this fxkit was built without PT2 archive support (needs nlohmann-json and "
                 "zlib1g-dev)");
#endif
  case GraphFormat::FxText:
    return printFxText(graph);
  case GraphFormat::FxPy:
    FXKIT_TRY(checkReadablePyTargets(graph));
    return printReadablePy(graph);
  case GraphFormat::Json:
#ifdef FXKIT_HAVE_JSON
    return printFxkitJson(graph);
#else
    return Error("this fxkit was built without JSON support (nlohmann-json not found)");
#endif
  case GraphFormat::InductorPy:
  case GraphFormat::InductorIr:
  case GraphFormat::InductorCpp:
    // Read-only formats: Inductor writes them; fxkit writes wrapper code with `compile --to`.
    return Error("inductor-py and inductor-ir are input formats only (write fx, fxpy or json; "
                 "compiled programs: fxkit compile --to wrapper-py|fxir|opencl)");
  }
  return Error("unsupported output format");
}

namespace {

/// Writes all of `content` to `fd`; false with errno set when a write fails.
bool writeAllTo(int fd, std::string_view content, size_t limit) {
  size_t done = 0;
  while (done < content.size()) {
    if (done >= limit) {
      errno = ENOSPC;
      return false;
    }
    ssize_t n = ::write(fd, content.data() + done, limit - done);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

/// A target that is not a regular file (/dev/null, a terminal, a named pipe) is written in
/// place: renaming a temporary over it would replace the device or pipe with a plain file
/// (as root, `-o /dev/null` turned /dev/null into a file that every later program read back).
Status writeInPlace(const std::string &path, std::string_view content) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    return Status(Error("cannot write '" + path + "': " + std::strerror(errno)));
  bool ok = writeAllTo(fd, content, content.size());
  int saved = errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  if (!ok)
    return Status(Error("cannot write '" + path + "': write failed: " + std::strerror(saved)));
  return Status::ok();
}

} // namespace

Status writeFileAtomic(const std::string &path, std::string_view content) {
  if (path == "-") {
    if (std::fwrite(content.data(), 1, content.size(), stdout) != content.size() ||
        std::fflush(stdout) != 0)
      return Status(Error(std::string("cannot write to stdout: ") + std::strerror(errno)));
    return Status::ok();
  }
  namespace fs = std::filesystem;
  fs::path target(path);
  // A symbolic link stays a link: the file it names is replaced (atomically, in its folder).
  // A dangling link creates the file it names.
  std::error_code ec;
  for (int hops = 0; fs::is_symlink(fs::symlink_status(target, ec)); ++hops) {
    fs::path next = fs::read_symlink(target, ec);
    if (ec || hops == 40)
      return Status(Error("cannot write '" + path + "': cannot follow the link" +
                          (ec ? ": " + ec.message() : std::string(": too many levels"))));
    target = next.is_absolute() ? next : target.parent_path() / next;
  }
  struct stat st;
  if (::stat(target.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode))
      return Status(Error("cannot write '" + path + "': it is a folder"));
    if (!S_ISREG(st.st_mode))
      return writeInPlace(target.string(), content);
  }
  fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  sweepStaleTemporaries(dir);
  std::string tmpl = temporaryTemplate(dir, target.filename().string());
  int fd = mkstemp(tmpl.data());
  if (fd < 0)
    return Status(Error("cannot write '" + path + "': " + std::strerror(errno)));
  auto failWith = [&](const std::string &what) {
    int saved = errno;
    ::close(fd);
    ::unlink(tmpl.c_str());
    return Status(Error("cannot write '" + path + "': " + what + ": " + std::strerror(saved)));
  };
  // FXKIT_FAULT=enospc: the disk fills up half-way through the file.
  size_t limit = faultInjected("enospc") ? content.size() / 2 : content.size();
  if (!writeAllTo(fd, content, limit))
    return failWith("write failed");
  if (::fsync(fd) != 0)
    return failWith("fsync failed");
  // mkstemp creates 0600; give the file the usual permissions of a new file.
  mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  if (::close(fd) != 0) {
    ::unlink(tmpl.c_str());
    return Status(Error("cannot write '" + path + "': " + std::strerror(errno)));
  }
  if (::rename(tmpl.c_str(), target.c_str()) != 0) {
    int saved = errno;
    ::unlink(tmpl.c_str());
    return Status(Error("cannot write '" + path + "': " + std::strerror(saved)));
  }
  return Status::ok();
}

} // namespace fxkit
