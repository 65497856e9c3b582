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

Status writeFileAtomic(const std::string &path, std::string_view content) {
  if (path == "-") {
    if (std::fwrite(content.data(), 1, content.size(), stdout) != content.size() ||
        std::fflush(stdout) != 0)
      return Status(Error(std::string("cannot write to stdout: ") + std::strerror(errno)));
    return Status::ok();
  }
  namespace fs = std::filesystem;
  fs::path target(path);
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
  size_t done = 0;
  // FXKIT_FAULT=enospc: the disk fills up half-way through the file.
  size_t limit = faultInjected("enospc") ? content.size() / 2 : content.size();
  while (done < content.size()) {
    if (done >= limit) {
      errno = ENOSPC;
      return failWith("write failed");
    }
    ssize_t n = ::write(fd, content.data() + done, limit - done);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return failWith("write failed");
    }
    done += static_cast<size_t>(n);
  }
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
  if (::rename(tmpl.c_str(), path.c_str()) != 0) {
    int saved = errno;
    ::unlink(tmpl.c_str());
    return Status(Error("cannot write '" + path + "': " + std::strerror(saved)));
  }
  return Status::ok();
}

} // namespace fxkit
