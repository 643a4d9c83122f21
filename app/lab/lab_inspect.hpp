#pragma once
// What the compiler made of a learner's kernel: NVRTC's PTX and ptxas's report, and the SASS
// where the toolkit's disassembler is installed, made in a sandboxed worker (the source is the
// learner's, untrusted) and parsed by core/compiled/ as the lessons' embedded listings are. Serves
// `lab inspect`, the Lab's Compiled view and the check's feedback on spills and occupancy.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/compiled/compiled_listing.hpp"
#include "core/result.hpp"
#include "lab/compiled_feedback.hpp"
#include "lab/exercise.hpp"
#include "lab/lab_check.hpp"

namespace tl::lab {

// The toolkit's disassembler (nvdisasm): $THREADLAB_NVDISASM, then bin/ of $CUDA_PATH and
// $CUDA_HOME, PATH, /usr/local/cuda/bin and where scripts/install-deps.sh puts NVIDIA's wheel
// (/opt/threadlab/cuda-tools). The error says where it looked and what is shown without it.
[[nodiscard]] Result<std::string> find_disassembler();

// The architecture inspected when none is named: the one every build of ThreadLab targets.
inline constexpr int kDefaultInspectArch = 90;
// "sm_90" or "90" → 90; an error names what was given.
[[nodiscard]] Result<int> parse_arch(std::string_view text);

struct LearnerListing {
  int arch = kDefaultInspectArch;
  std::string source;                     // the learner's source as compiled (line endings made LF)
  std::string source_name = "kernel.cu";  // the learner's name for it (LabOptions::source_name)
  std::string symbol;                     // the kernel's mangled name
  std::string log;                        // NVRTC's log: warnings and ptxas's report
  std::string ptx_text;
  compiled::PtxListing ptx;
  std::string sass_text;  // empty where there is no disassembler; sass_unavailable says why
  compiled::SassListing sass;
  std::string sass_unavailable;
  std::optional<compiled::PtxasReport> report;  // ptxas's figures for the kernel

  [[nodiscard]] std::string arch_name() const { return "sm_" + std::to_string(arch); }
  [[nodiscard]] const compiled::SassFunction* sass_function() const { return sass.find(symbol); }
  [[nodiscard]] const compiled::PtxFunction* ptx_function() const { return ptx.find(symbol); }
};

// Compiles the learner's `source` for `exercise` (its kernel name) for sm_`arch` in a worker under
// the Lab's sandbox (options.sandbox). kUnavailable-style failures (no NVRTC) and compile errors
// are errors: kNoDevice for a missing NVRTC, kParseError with the compiler's log for a kernel that
// does not compile.
[[nodiscard]] Result<LearnerListing> inspect_submission(const Exercise& exercise,
                                                        std::string_view source,
                                                        const LabOptions& options, int arch);

// What the compiled form says to a learner whose kernel passed (compiled_feedback.hpp), for the
// kernel launched as `launch`.
// The launch of the exercise's largest case at its default block: the one a check times, and the
// one `lab inspect` models occupancy for.
[[nodiscard]] LaunchShape largest_case_launch(const Exercise& exercise);

[[nodiscard]] CompiledFeedback compiled_feedback(const LearnerListing& listing,
                                                 const LaunchShape& launch);

}  // namespace tl::lab
