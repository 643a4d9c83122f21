#pragma once
// Checks a learner's kernel against an exercise: the worker compiles and runs it on every hidden
// case, and this side (the app, or the grader) judges the buffers that come back. The same call
// serves the Lab tab, `lab check`, `lab watch` and `lab grade`.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/trace_record.hpp"
#include "lab/compiled_feedback.hpp"
#include "lab/exercise.hpp"
#include "lab/memory_findings.hpp"
#include "lab/worker/lab_protocol.hpp"
#include "lab/worker/worker_process.hpp"

namespace tl::lab {

// The emulator's timed runs per kernel: enough for a spread (one run read as a fact gave "yours
// takes 0.44× as long" for the reference's own code), few enough to keep a check quick.
inline constexpr int kEmulatorTimedRepeats = 3;

struct LabOptions {
  LabBackend backend = LabBackend::kGpu;
  std::string worker_executable;            // empty: this executable (`threadlab worker`)
  std::chrono::milliseconds timeout{2000};  // per kernel run; the worker is killed after it
  std::chrono::milliseconds compile_timeout{60000};
  std::string cache_dir;      // empty: $XDG_CACHE_HOME/threadlab/lab
  std::uint64_t seed = 1;     // the hidden data; a teacher may grade on a seed students never saw
  std::optional<Dim3> block;  // the learner's block, where the exercise lets them choose
  std::optional<Dim3> grid;   // the learner's grid for every case; none: each case's own
  // Run instead of Check: the example case only (example_case), traced and timed, judged but with
  // no verdict on the hidden checks and no rule of the exercise enforced.
  bool run_only = false;
  // On the largest case, once every case passes, after one untimed run; 0: no timing. The
  // emulator takes at most kEmulatorTimedRepeats (each costs the learner real seconds).
  int timed_repeats = 5;
  bool compare_with_solution = true;  // time the reference solution in the same run
  // The name messages give the learner's file ("b.cu line 3: not UTF-8"): the CLI's file name.
  std::string source_name = "kernel.cu";
  // Once every case passed, record the kernel's memory accesses on the example case: the per-line
  // table and a note per access line (CheckVerdict::memory). The recording is a build of its own
  // on the emulator, in a worker of its own, on the GPU backend too: its figures are the model's.
  bool record_memory = false;
  // Once every case passed, compile the kernel once more through NVRTC with ptxas's report (and
  // disassemble it where the toolkit allows), in a worker of its own, and warn about spills and
  // occupancy held low by registers or shared memory (CheckVerdict::compiled). Needs NVRTC, never
  // a GPU; a machine without NVRTC gets a note, never a failed check. The Lab's Check and the
  // CLI's `lab check`/`lab grade` turn it on; off by default, as it costs a compile.
  bool inspect_compiled = false;
  // Blocks recorded (every warp of each); 0: the model's default (memory::blocks_to_record).
  std::uint32_t record_blocks = 0;
  // The worker enters the Lab's sandbox (lab/worker/sandbox.hpp) before it reads the source. Off
  // only by the person's explicit choice (`lab grade --unsafe-no-sandbox`).
  bool sandbox = true;
  // Others' code (`lab grade`): compiled kernels are kept only for this check, in the worker's
  // scratch folder, so that no submission can plant a build that another one would then load.
  bool private_cache = false;
};

// Which layers of the sandbox a worker for `options` gets here: a worker is started and asked.
[[nodiscard]] Result<SandboxReply> lab_sandbox_layers(const LabOptions& options);

// The learner's block for `exercise`, refused where no GPU would launch it (0 or over 1024
// threads) or where the exercise would silently drop a dimension (a 1-D exercise's kernel reads
// only blockDim.x, so `256,2` would run a different launch from the one the learner meant).
[[nodiscard]] Status validate_block(const Exercise& exercise, const Dim3& block);
// A grid with a dimension of 0 launches nothing (a GPU refuses it).
[[nodiscard]] Status validate_grid(const Dim3& grid);

// The learner's source as the compiler should see it: a UTF-8 byte order mark dropped, CR and
// CRLF line endings made LF (Notepad, old Macs). Bytes that are not UTF-8 are refused with the
// line they are on ("b.cu line 1: not UTF-8 (save the file as UTF-8)"): the compiler's log and
// the worker's JSON wire both need text.
[[nodiscard]] Result<std::string> normalized_source(std::string_view source, std::string_view name);

// The compiler's text about the learner's file, which the worker compiles as kernel.cu, with that
// file named `name` instead ("mine.cu:3:3: error: ...", "mine.cu(3): error: ..."): a learner reads
// the name of the file they wrote. The prelude's name and every other word stay as they are.
[[nodiscard]] std::string with_learner_file_name(std::string_view text, std::string_view name);

enum class Outcome {
  kPassed,
  kFailed,        // a hidden check, a rule of the exercise, or a fault or timeout while running
  kCompileError,  // does not compile, or its kernel does not take the exercise's parameters
  kUnavailable,   // no GPU, no NVRTC, no compiler: nothing was judged
};
[[nodiscard]] const char* to_string(Outcome outcome);

// Who wrote an element in a traced run.
struct Writer {
  Dim3 block;
  Dim3 thread;
  std::uint32_t writes = 0;
};

struct CaseResult {
  std::string label;
  bool passed = false;
  std::string message;  // the first thing wrong, or empty
  // The line of kernel.cu the first thing wrong is on, where the run knows it (an access outside
  // an array through the views); 0: not known. The Lab marks it in the editor.
  int line = 0;
  // The drawn output (the exercise's first output) of the traced run: one record per element,
  // and the elements that are wrong, for the mapping view.
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::vector<TraceRecord> trace;
  std::vector<std::int64_t> wrong_elements;
  // Traced: the threads that accessed outside an array (each by its place in the launch, blocks
  // in order and each block's threads x fastest), in order; the picture draws them as out of
  // range, not idle. Empty when none did, or the launch was too large to flag every thread.
  std::vector<std::uint64_t> threads_outside;
  LaunchShape launch;
};

struct CheckVerdict {
  Outcome outcome = Outcome::kUnavailable;
  bool run_only = false;     // a Run: one example case, kPassed means its outputs were right
  std::string reason;        // one line: why it failed, or "passed 5 of 5 checks"
  std::string compiler_log;  // lines as in kernel.cu
  std::string device;        // where it ran
  std::string printed;       // what the kernel printed (printf)
  std::vector<CaseResult> cases;
  // Once every case passed: the kernel's median time on the largest case, and the reference
  // solution's in the same run (0 where not measured).
  double kernel_ms = 0.0;
  double solution_ms = 0.0;
  // Every timed run behind those two medians, for their spread: where the two ranges overlap the
  // timing cannot tell the kernels apart, and the summary says so instead of a ratio.
  std::vector<double> kernel_runs_ms;
  std::vector<double> solution_runs_ms;
  double library_ms = 0.0;  // the exercise's library reference (cuBLAS), GPU only
  std::string library;      // its name, e.g. cublas-sgemm
  // The ceiling, on the timed case: its least traffic (inputs read once, outputs written once),
  // the time the device took to copy that much in the same worker (a device-to-device copy; on
  // the emulator a memcpy on one CPU thread), and the floating-point work where the exercise
  // counts it. kernel_ms against copy_ms is the share of the memory ceiling reached.
  std::uint64_t moved_bytes = 0;
  double copy_ms = 0.0;
  std::string copy_ceiling;  // "device-to-device copy" or "memcpy on one CPU thread"
  double flops = 0.0;
  std::string timed_case;
  bool compiled_from_cache = false;
  double seconds = 0.0;  // the whole check, wall clock
  // Why a failed check stopped, for a grader that must tell the learner's wrong kernel from a
  // kernel that never finished or killed its worker.
  bool timed_out = false;
  bool crashed = false;
  // With LabOptions::record_memory: the memory table and notes, or why there are none. Notes,
  // never a failed check: a recording that cannot be made leaves the outcome as it was.
  std::optional<MemoryFindings> memory;
  // With LabOptions::inspect_compiled: what the compiled form says (spills, occupancy), or why
  // nothing (CompiledFeedback::unavailable).
  std::optional<CompiledFeedback> compiled;
};

// Runs the whole check. Never throws; an unusable machine is Outcome::kUnavailable with the reason.
[[nodiscard]] CheckVerdict check_submission(const Exercise& exercise, std::string_view source,
                                            const LabOptions& options);

// "<<<4, 256>>>", with the dynamic shared memory where there is any: "<<<4, 256, 1024>>>".
[[nodiscard]] std::string launch_text(const LaunchShape& launch);

// The case a Run shows: the largest whose drawn output has at most 65,536 elements (a picture one
// can read, a size that is not trivial), else the first.
[[nodiscard]] std::size_t example_case(const Exercise& exercise,
                                       const std::vector<CheckCase>& cases);

// The directory compiled kernels are cached in by default.
[[nodiscard]] std::string default_lab_cache_dir();

// Judges one case's returned outputs (exposed for the tests): the first wrong element, named.
struct ReturnedOutput {
  std::size_t parameter = 0;
  ArrayData values;
  std::vector<TraceRecord> trace;  // empty when untraced
};
[[nodiscard]] CaseResult judge_case(const Exercise& exercise, const CheckCase& check,
                                    const std::vector<ReturnedOutput>& outputs,
                                    const WireFault* fault);

}  // namespace tl::lab
