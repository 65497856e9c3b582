// The filter that keeps an OpenCL compiler's bare "N warning(s) generated." off fxkit's stderr
// (backends/opencl/runtime/CompilerStderrFilter.h): counts dropped, anything else passed on
// with its label, stderr restored afterwards.
#include "backends/opencl/runtime/CompilerStderrFilter.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <unistd.h>

using namespace fxkit::opencl;

namespace {

void writeToFd2(const std::string &text) {
  ASSERT_EQ(::write(2, text.data(), text.size()), static_cast<ssize_t>(text.size()));
}

TEST(CompilerStderrFilter, DropsBareCountsAndLabelsTheRest) {
  ::testing::internal::CaptureStderr();
  {
    CompilerStderrFilter quiet("CLBlast: ");
    writeToFd2("1 warning generated.\n");
    writeToFd2("kernel.cl:3:5: error: something real\n");
    writeToFd2("12 warnings generated.\n");
  }
  writeToFd2("after\n");
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "CLBlast: kernel.cl:3:5: error: something real\nafter\n");
}

TEST(CompilerStderrFilter, NothingWrittenNothingPrinted) {
  ::testing::internal::CaptureStderr();
  { CompilerStderrFilter quiet("CLBlast: "); }
  std::fputs("still here\n", stderr);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "still here\n");
}

TEST(CompilerStderrFilter, BareWarningCounts) {
  EXPECT_TRUE(isBareWarningCount("1 warning generated."));
  EXPECT_TRUE(isBareWarningCount("2 warnings generated.\r"));
  EXPECT_FALSE(isBareWarningCount("warning generated."));
  EXPECT_FALSE(isBareWarningCount("1 warning generated. in foo"));
  EXPECT_FALSE(isBareWarningCount("kernel.cl:1:2: warning: unused variable"));
}

} // namespace
