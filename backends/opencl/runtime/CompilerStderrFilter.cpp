#include "backends/opencl/runtime/CompilerStderrFilter.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace fxkit::opencl {

bool isBareWarningCount(const std::string &line) {
  size_t i = 0;
  while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i])))
    ++i;
  if (i == 0)
    return false;
  std::string rest = line.substr(i);
  while (!rest.empty() && (rest.back() == '\r' || rest.back() == ' '))
    rest.pop_back();
  return rest == " warning generated." || rest == " warnings generated.";
}

CompilerStderrFilter::CompilerStderrFilter(std::string label) : label_(std::move(label)) {
  std::fflush(stderr);
  char path[] = "/tmp/fxkit-stderr-XXXXXX";
  int fd = ::mkstemp(path);
  if (fd < 0)
    return;
  ::unlink(path); // nameless: nothing is left behind, whatever happens
  int saved = ::dup(2);
  if (saved < 0 || ::dup2(fd, 2) < 0) {
    if (saved >= 0)
      ::close(saved);
    ::close(fd);
    return;
  }
  saved_ = saved;
  captured_ = fd;
}

CompilerStderrFilter::~CompilerStderrFilter() {
  if (captured_ < 0)
    return;
  std::fflush(stderr);
  ::dup2(saved_, 2);
  ::close(saved_);
  std::string text;
  if (::lseek(captured_, 0, SEEK_SET) == 0) {
    char buffer[4096];
    ssize_t n;
    while ((n = ::read(captured_, buffer, sizeof buffer)) > 0)
      text.append(buffer, static_cast<size_t>(n));
  }
  ::close(captured_);
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    std::string line =
        text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    start = end == std::string::npos ? text.size() : end + 1;
    if (line.empty() || isBareWarningCount(line))
      continue;
    std::fprintf(stderr, "%s%s\n", label_.c_str(), line.c_str());
  }
}

} // namespace fxkit::opencl
