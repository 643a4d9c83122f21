#pragma once
// What this executable is: ThreadLab's version (one place: project() in the top CMakeLists.txt),
// the commit it was built from and the CUDA toolkit it was compiled with. Generated at configure
// time into the build tree (cmake/build_info.cpp.in), so that only that one file is rebuilt when
// the commit moves.

#include <string>
#include <string_view>

namespace tl::build_info {

[[nodiscard]] std::string_view version();  // "0.2.0"
[[nodiscard]] std::string_view commit();   // "86497ab", or "unknown" outside a git checkout
// "13.0.88", or empty for a build without the CUDA toolkit.
[[nodiscard]] std::string_view cuda_version();

// "threadlab 0.2.0 (commit 86497ab, CUDA 13.0.88)", as `threadlab --version` prints it.
[[nodiscard]] std::string describe();

}  // namespace tl::build_info
