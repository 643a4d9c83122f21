#pragma once
// For GPU tests that read hardware counters through CUPTI: where the driver or the user does not
// allow counters, a test skips and says why; any other failure is a bug and fails.

#include <gtest/gtest.h>

#include <string>

namespace tl::testing {

// The reasons counters may honestly be missing on a machine (core/kernel_counters.cpp and
// cupti_counters.cpp write them): those skip; any other failure is a bug and fails.
inline bool counters_not_allowed_here(const std::string& why) {
  for (const char* reason : {"not permitted", "not installed", "not supported",
                             "not available on this GPU", "another profiler", "lacks it"}) {
    if (why.find(reason) != std::string::npos) return true;
  }
  return false;
}

#define SKIP_OR_FAIL_WITHOUT_COUNTERS(result)                                            \
  do {                                                                                   \
    if (!(result)) {                                                                     \
      if (counters_not_allowed_here((result).message())) {                               \
        GTEST_SKIP() << "hardware counters cannot be read here: " << (result).message(); \
      }                                                                                  \
      FAIL() << (result).message();                                                      \
    }                                                                                    \
  } while (false)

}  // namespace tl::testing
