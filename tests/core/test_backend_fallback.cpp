#include "core/backend_fallback.hpp"

#include <gtest/gtest.h>

namespace tl {
namespace {

TEST(BackendFallback, AnInteropFailureMovesTracesToTheCopyPath) {
  const Error mapping{ErrorKind::kGraphicsError, "mapping the trace buffer: unknown error"};
  EXPECT_EQ(fallback_after_trace_error(BackendKind::kCudaInterop, mapping), BackendKind::kCudaCopy);
  const std::string why = describe_trace_fallback(BackendKind::kCudaCopy, mapping);
  EXPECT_NE(why.find("mapping the trace buffer"), std::string::npos) << why;
  EXPECT_NE(why.find("copied through the host"), std::string::npos) << why;
}

TEST(BackendFallback, ErrorsThatAreNotTheTracePathsKeepTheBackend) {
  // A refused configuration or a full GPU would fail the copy path too; a sticky error is handled
  // by resetting the device; the copy path and the emulator have nothing below them for a
  // graphics error (the GL upload is shared by all paths).
  for (const ErrorKind kind :
       {ErrorKind::kInvalidArgument, ErrorKind::kOutOfMemory, ErrorKind::kCudaError,
        ErrorKind::kCudaStickyError, ErrorKind::kTooSlow, ErrorKind::kCancelled}) {
    EXPECT_FALSE(fallback_after_trace_error(BackendKind::kCudaInterop, {kind, "x"}).has_value())
        << static_cast<int>(kind);
  }
  for (const BackendKind backend : {BackendKind::kCudaCopy, BackendKind::kEmulator}) {
    EXPECT_FALSE(
        fallback_after_trace_error(backend, {ErrorKind::kGraphicsError, "upload"}).has_value());
  }
}

// The status bar's words for the emulator: the reason's first clause, the rest on hover.
TEST(ReasonHeadline, IsTheFirstClause) {
  EXPECT_EQ(reason_headline("No NVIDIA GPU or driver found (cudaErrorInsufficientDriver); kernels "
                            "run on the CPU emulator"),
            "No NVIDIA GPU or driver found");
  EXPECT_EQ(reason_headline("requested with --backend emulator"),
            "requested with --backend emulator");
  EXPECT_EQ(reason_headline("no usable CUDA device: out of memory"), "no usable CUDA device");
  EXPECT_EQ(reason_headline(""), "");
}

}  // namespace
}  // namespace tl
