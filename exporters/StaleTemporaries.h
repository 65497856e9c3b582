#pragma once
/// \file The hidden temporaries of atomic outputs (writeFileAtomic, writeFolderAtomic), named so
/// that a later run can tell which are stale: a process killed by SIGKILL (or a power cut) leaves
/// its `.NAME.tmp.PID.XXXXXX` behind, and no signal handler can remove it. The next output
/// written into the same folder removes those whose process is gone.

#include <filesystem>
#include <string>

namespace fxkit {

/// The mkstemp/mkdtemp template for a temporary of `name` in `dir`:
/// `dir/.NAME.tmp.PID.XXXXXX`, PID this process's id.
std::string temporaryTemplate(const std::filesystem::path &dir, const std::string &name);

/// Removes the temporaries in `dir` that a process no longer running left behind (files and
/// folders named by temporaryTemplate, with or without the `.old` suffix of a replaced
/// folder); those of an older fxkit without a process id in the name when older than an hour.
/// Scans each folder once per process (a batch writes thousands of files into one folder), is
/// safe to call from several threads, and ignores what it cannot remove.
void sweepStaleTemporaries(const std::filesystem::path &dir);

/// Whether `filename` is a temporary as temporaryTemplate names them whose process is not
/// running (false for every other name). Exposed for tests.
bool isStaleTemporaryName(const std::string &filename);

} // namespace fxkit
