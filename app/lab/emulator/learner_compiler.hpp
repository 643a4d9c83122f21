#pragma once
// Builds a learner's CUDA kernel for ThreadLab's CPU emulator: the source, prefixed with the
// emulator's CUDA shim, compiled by the system C++ compiler (`c++`, looked up on PATH at run time)
// into a shared object that EmulatedLearnerModule (learner_module.hpp) loads and the grid executor
// runs. Compiler messages name the learner's lines as `kernel.cu:LINE:COLUMN`.
//
// Everything the compiler needs besides its own standard library (the shim, the executor's
// interface, stand-ins for <cuda_runtime.h> and friends) is embedded in ThreadLab and written to
// the cache directory, so an installed ThreadLab needs no source tree. Builds are cached there by a
// hash of everything that goes into them: the source, the preludes, the defines, the embedded
// headers, the compiler's identity and the flags.
//
// The shared object is native code: it runs with the full rights of the process that loads it.
// Only load it in the Lab's worker process.

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace tl::lab {

struct LearnerCompileOptions {
  // Headers included after the shim and before kernel.cu, in order: (file name, text). The Lab's
  // prelude (Array<T>, Matrix<T>) goes here.
  std::vector<std::pair<std::string, std::string>> preludes;
  // Macros defined for the build, "NAME" or "NAME=VALUE" (e.g. TL_LAB_TRACED).
  std::vector<std::string> defines;
  // The compiler: a path, or a name looked up on PATH. Empty: `c++`.
  std::string compiler;
  // Checks every shared-memory access for races (two threads of a block on one word between two
  // barriers, at least one writing; EmulatedLearnerModule::last_shared_memory_race). The compiler
  // instruments every access (-fsanitize=thread, with ThreadLab's own callbacks instead of the
  // ThreadSanitizer runtime), so such a build runs several times slower: for checking, not timing.
  bool check_shared_races = false;
  // Records every access to global and shared memory, with its site and line, for
  // EmulatedLearnerModule::launch_recording_memory (the Memory tab's figures). The same
  // instrumentation as the race check, with debug information and without the vectorizer; not
  // together with check_shared_races.
  bool record_memory = false;
};

struct LearnerBuild {
  std::filesystem::path shared_object;
  std::string diagnostics;  // the compiler's warnings, if any (empty from a silent build)
  bool from_cache = false;
  double compile_ms = 0.0;  // 0 for a cache hit
};

struct LearnerCompileFailure {
  enum class Kind {
    kDoesNotCompile,  // the learner's code: `diagnostics` has the compiler's messages
    kNoCompiler,      // no C++ compiler where the options say
    kBadRequest,      // the kernel name is not an identifier
    kCacheUnusable,   // the cache directory could not be written
  };
  Kind kind = Kind::kDoesNotCompile;
  std::string message;      // one line: what went wrong
  std::string diagnostics;  // the compiler's messages, lines as in kernel.cu
};

// Either the built shared object or why there is none.
class LearnerCompileResult {
 public:
  LearnerCompileResult(LearnerBuild build) : state_(std::move(build)) {}               // NOLINT
  LearnerCompileResult(LearnerCompileFailure failure) : state_(std::move(failure)) {}  // NOLINT
  [[nodiscard]] bool ok() const { return std::holds_alternative<LearnerBuild>(state_); }
  explicit operator bool() const { return ok(); }
  [[nodiscard]] const LearnerBuild& build() const { return std::get<LearnerBuild>(state_); }
  [[nodiscard]] const LearnerCompileFailure& failure() const {
    return std::get<LearnerCompileFailure>(state_);
  }

 private:
  std::variant<LearnerBuild, LearnerCompileFailure> state_;
};

// Compiles `source` (the learner's kernel.cu) with the `__global__` function `kernel_name` as its
// entry, or returns the cached build of the same inputs from `cache_dir`.
[[nodiscard]] LearnerCompileResult compile_learner_kernel(
    std::string_view source, std::string_view kernel_name, const std::filesystem::path& cache_dir,
    const LearnerCompileOptions& options = {});

// Whether the source waits for other threads anywhere (__syncthreads, the *_sync warp functions,
// __syncwarp, __activemask): such kernels run as fibers, the others on the faster path. A wait the
// scan misses is still caught: the executor refuses it with an error instead of running on.
[[nodiscard]] bool source_needs_fibers(std::string_view source);

}  // namespace tl::lab
