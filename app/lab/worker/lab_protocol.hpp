#pragma once
// What the app and the Lab's worker say to each other: one JSON line per request and per reply on
// the control pipes; the data itself sits in a SharedRegion, whose layout the request describes.
//
//   app → worker  {"op":"compile", ...CompileRequest}   reply {"ok":true,...} or a compile error
//   app → worker  {"op":"run", ...RunRequest}           reply RunReply
//   app → worker  {"op":"copy", ...CopyRequest}         reply RunReply (the copy's times)
//   app → worker  {"op":"sandbox"}                      reply SandboxReply (which layers hold)
//   app → worker  {"op":"inspect", ...InspectRequest}   reply InspectReply (PTX, SASS, ptxas's
//                                                        figures; needs NVRTC, no GPU)
//
// Memory recording (the Memory tab's figures, `lab check --memory`) is an emulator build of its
// own: a compile with record_memory makes only that build, and a run with record_memory returns
// the kernel's per-line memory table in RunReply::memory, with the first requests of each line
// and each array's loads per element. It always runs on the emulator, also
// for a check on the GPU: the figures are the model's, counted from every lane's accesses.
//
// The worker never judges: it runs and hands back buffers. The verdict is computed by the app from
// those buffers, so a kernel cannot print its own "pass".

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/dim3.hpp"
#include "core/memory/load_budget.hpp"
#include "core/memory/memory_model.hpp"
#include "core/memory/warp_requests.hpp"
#include "core/result.hpp"
#include "lab/kernel_signature.hpp"

namespace tl::lab {

enum class LabBackend { kGpu, kEmulator };
[[nodiscard]] const char* to_string(LabBackend backend);

struct CompileRequest {
  LabBackend backend = LabBackend::kGpu;
  std::string source;
  std::string kernel_name;
  std::string cache_dir;  // compiled code is kept here by source hash; empty: no cache
  // Emulator only: build the memory-recording build instead of the traced and timed ones (it is
  // instrumented at every access and carries debug information for the lines: slower to build and
  // to run, so made only when the figures are asked for).
  bool record_memory = false;
};

struct CompileReply {
  bool ok = false;
  std::string error;   // one line: why it failed
  std::string log;     // the compiler's messages (warnings too), lines as in kernel.cu
  std::string device;  // "NVIDIA H100 80GB HBM3 (sm_90)" or "emulator"
  int registers = 0;   // per thread (GPU)
  bool from_cache = false;
  double compile_ms = 0.0;
};

// What the compiler made of the learner's kernel, for the Compiled view, `lab inspect` and the
// spill warning: NVRTC compiles it for `arch` with line information and ptxas's report (no GPU
// needed), and, where the app found the toolkit's disassembler, the worker runs it on the cubin.
// Both run here, in the sandbox, as everything else the learner's source reaches.
struct InspectRequest {
  std::string source;
  std::string kernel_name;
  int arch = 90;             // sm_<arch>
  std::string disassembler;  // nvdisasm's full path; empty: SASS is not asked for
  std::string scratch_dir;   // where the cubin is written for the disassembler (writable)
};

struct InspectReply {
  bool ok = false;
  std::string error;   // one line: why nothing was compiled
  std::string log;     // NVRTC's log: warnings and ptxas's report (compiled_listing.hpp)
  std::string symbol;  // the kernel's name in the PTX and the cubin (mangled)
  std::string ptx;     // with `.loc` lines
  std::string sass;    // `nvdisasm -g -c` of the cubin, lines naming kernel.cu; may be empty:
  std::string sass_unavailable;  // then why
};

// One argument in the region: where its elements (and, traced, its trace records) are.
struct WireArgument {
  ArgumentForm form = ArgumentForm::kScalar;
  bool is_float = false;  // scalars: float or int
  std::int32_t int_value = 0;
  float float_value = 0.0f;
  std::uint64_t offset = 0;  // arrays: elements (rows × cols 4-byte words, then one spare)
  std::int64_t rows = 1;
  std::int64_t cols = 0;
  std::int64_t trace_offset = -1;  // traced outputs: rows × cols TraceRecords; -1: none
  bool copy_back = false;          // outputs come back to the region after the run
  // Bytes per element (every Lab array holds 4-byte words today). With rows × cols it is the
  // array's device layout: row-major, the buffer aligned as cudaMalloc aligns (256 bytes), which
  // is what makes a recording's sector counts those of a GPU.
  std::uint32_t element_bytes = 4;
  // Elements past the end that travel with the array, both ways: a guard zone the app fills with
  // a canary and reads back, so that a kernel with plain pointers that writes past the end (an
  // `if (i <= n)`) fails with the element it wrote. The first of them is also where the traced
  // views send an out-of-range access.
  std::uint32_t guard_elements = 1;
};

struct RunRequest {
  bool traced = true;
  // The region itself is no field: its descriptor travels with the request (SharedRegion).
  std::uint64_t region_bytes = 0;
  std::uint64_t fault_offset = 0;  // a LabFault record (traced runs)
  // The record and what follows it: with WireFault::thread_flags, one byte per launched thread.
  std::uint64_t fault_bytes = 80;
  std::vector<WireArgument> arguments;
  Dim3 grid;
  Dim3 block;
  std::uint32_t dynamic_shared_bytes = 0;
  int timed_repeats = 0;  // 0: one run, not timed
  // Instead of the kernel, time a library's routine on the same arguments: "cublas-sgemm" reads
  // arguments 0, 1, 2 as A, B, C (row-major) and 3, 4, 5 as M, N, K. Empty: the kernel.
  std::string library;
  // Run the memory-recording build (CompileRequest::record_memory) instead, untraced, and return
  // the per-line table; every warp of record_blocks blocks is recorded (0: the model's default).
  bool record_memory = false;
  std::uint32_t record_blocks = 0;
};

// A recorded launch's memory figures per source line (core/memory's table), with, per row, which
// array its global accesses fall in, the first of its warp-level requests (for the Memory panel's
// picture), and per array where it lay and how often the blocks loaded each of its elements.
struct MemoryReply {
  memory::MemoryTable table;
  // Per row: the kernel parameter whose array the row's accesses touch; kNoArray for shared
  // memory, kSeveralArrays where one line touches more than one array.
  static constexpr int kNoArray = -1;
  static constexpr int kSeveralArrays = -2;
  std::vector<int> row_argument;
  std::string lines_note;              // why lines are 0 (unknown), if they are
  std::uint64_t dropped_accesses = 0;  // outside the arrays and shared memory: not counted
  // Per row (parallel to table.rows), its requests in recorded order, at most kRequestsPerRow of
  // them: enough to step through a few blocks' warps, where all of a big launch's would make the
  // reply megabytes. A row whose table counts more was cut (requests_cut); its totals count all.
  // Each request's site is 0 (the worker's own numbering, meaningless here): its row says where.
  static constexpr std::size_t kRequestsPerRow = 64;
  std::vector<std::vector<memory::WarpRequest>> row_requests;
  [[nodiscard]] bool requests_cut() const;
  // Each array argument as it lay in the worker during the recording (global addresses in
  // row_requests are the worker's), to name the element a lane touched, and how often the
  // recorded blocks loaded each of its elements (core/memory/load_budget.hpp).
  struct RecordedArray {
    int argument = 0;  // the kernel parameter's index
    std::uint64_t address = 0;
    std::uint64_t bytes = 0;
    std::uint32_t element_bytes = 4;
    std::int64_t rows = 1;  // its shape, row-major (WireArgument's)
    std::int64_t cols = 0;
    memory::LoadBudget loads;
  };
  std::vector<RecordedArray> arrays;
};

struct RunReply {
  bool ok = false;
  std::string error;                 // "CUDA_ERROR_ILLEGAL_ADDRESS: ..." or why it was refused
  bool fatal = false;                // the worker cannot run anything more and exits
  std::vector<double> milliseconds;  // one per timed repeat
  // Something wrong the run saw but that did not stop it: on the emulator, a shared-memory race
  // ("block (0,0): threads (3,0) and (4,0) ... tile[4]"). Empty: nothing.
  std::string finding;
  std::optional<MemoryReply> memory;  // a run with record_memory that succeeded
};

// The ceiling a memory-bound kernel is measured against: the device copying `bytes` of traffic
// (bytes / 2 read, bytes / 2 written) in the same worker, on the GPU a device-to-device copy, on
// the emulator a memcpy on one CPU thread. The reply's milliseconds hold one time per repeat.
struct CopyRequest {
  std::uint64_t bytes = 0;
  int repeats = 1;
};

// The 80-byte LabFault of the prelude (app/lab/prelude/threadlab_lab.cuh), read back by the app.
struct WireFault {
  std::uint32_t hit;
  std::uint32_t parameter;
  std::uint32_t is_write;
  std::uint32_t block[3];
  std::uint32_t thread[3];
  std::uint32_t thread_flags;  // not 0: one byte per launched thread follows (set: went outside)
  std::uint32_t line;          // the access's line in kernel.cu; 0: not known
  std::uint32_t reserved;
  std::int64_t row;
  std::int64_t col;
  std::int64_t rows;
  std::int64_t cols;
};
static_assert(sizeof(WireFault) == 80);

[[nodiscard]] std::string encode(const CompileRequest& request);
[[nodiscard]] std::string encode(const CompileReply& reply);
[[nodiscard]] std::string encode(const RunRequest& request);
[[nodiscard]] std::string encode(const RunReply& reply);
[[nodiscard]] std::string encode(const CopyRequest& request);
[[nodiscard]] std::string encode(const InspectRequest& request);
[[nodiscard]] std::string encode(const InspectReply& reply);
[[nodiscard]] Result<InspectRequest> decode_inspect_request(const std::string& line);
[[nodiscard]] Result<InspectReply> decode_inspect_reply(const std::string& line);

// Which layers of the Lab's sandbox hold in this worker (sandbox.hpp's SandboxLayers, described).
struct SandboxReply {
  std::string layers;  // SandboxLayers::describe()
  bool isolates = false;
};
[[nodiscard]] std::string encode(const SandboxReply& reply);
[[nodiscard]] Result<SandboxReply> decode_sandbox_reply(const std::string& line);
// The op of a request line ("compile", "run", "quit"), or an error for a line that is not JSON.
[[nodiscard]] Result<std::string> request_op(const std::string& line);
[[nodiscard]] Result<CompileRequest> decode_compile_request(const std::string& line);
[[nodiscard]] Result<CompileReply> decode_compile_reply(const std::string& line);
[[nodiscard]] Result<RunRequest> decode_run_request(const std::string& line);
[[nodiscard]] Result<RunReply> decode_run_reply(const std::string& line);
[[nodiscard]] Result<CopyRequest> decode_copy_request(const std::string& line);

}  // namespace tl::lab
