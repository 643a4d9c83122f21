#include "lab/lab_inspect.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "core/reference_gpus.hpp"
#include "lab/worker/lab_protocol.hpp"
#include "lab/worker_session.hpp"

namespace tl::lab {
namespace {

namespace fs = std::filesystem;

bool executable(const fs::path& path) {
  return ::access(path.c_str(), X_OK) == 0 && fs::is_regular_file(path);
}

// The reference GPU whose SM an sm_`arch` build is modelled on, if there is one of that exact
// architecture (an sm_86 laptop's SM is not an A100's: no guess).
std::optional<ReferenceGpu> reference_gpu_of(int arch) {
  for (const ReferenceGpu& gpu : reference_gpus()) {
    if (gpu.compute_major * 10 + gpu.compute_minor == arch) return gpu;
  }
  return std::nullopt;
}

// The 1-based line of the first `__launch_bounds__` in `source`'s code (not its comments), 0 where
// there is none.
int launch_bounds_line(std::string_view source) {
  bool in_block_comment = false;
  int line_number = 0;
  std::size_t start = 0;
  while (start <= source.size()) {
    const std::size_t end = std::min(source.find('\n', start), source.size());
    std::string_view line = source.substr(start, end - start);
    ++line_number;
    start = end + 1;
    std::string code;  // the line without its comments
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (in_block_comment) {
        if (line.substr(i, 2) == "*/") {
          in_block_comment = false;
          ++i;
        }
        continue;
      }
      if (line.substr(i, 2) == "//") break;
      if (line.substr(i, 2) == "/*") {
        in_block_comment = true;
        ++i;
        continue;
      }
      code += line[i];
    }
    if (code.find("__launch_bounds__") != std::string::npos) return line_number;
    if (end == source.size()) break;
  }
  return 0;
}

std::string line_list(const std::vector<int>& lines) {
  std::string text;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i > 0) text += i + 1 == lines.size() ? " and " : ", ";
    text += std::to_string(lines[i]);
  }
  return text;
}

}  // namespace

Result<std::string> find_disassembler() {
  std::vector<fs::path> candidates;
  if (const char* named = std::getenv("THREADLAB_NVDISASM"); named != nullptr && *named != '\0') {
    candidates.emplace_back(named);
  }
  for (const char* variable : {"CUDA_PATH", "CUDA_HOME"}) {
    if (const char* root = std::getenv(variable); root != nullptr && *root != '\0') {
      candidates.push_back(fs::path(root) / "bin" / "nvdisasm");
    }
  }
  if (const char* path = std::getenv("PATH"); path != nullptr) {
    std::stringstream dirs(path);
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
      if (!dir.empty() && dir.front() == '/') candidates.push_back(fs::path(dir) / "nvdisasm");
    }
  }
  candidates.emplace_back("/usr/local/cuda/bin/nvdisasm");
  // NVIDIA's wheel, where scripts/install-deps.sh installs it for a toolkit that lacks it.
  for (const char* major : {"cu13", "cu12"}) {
    candidates.push_back(fs::path("/opt/threadlab/cuda-tools/nvidia") / major / "bin/nvdisasm");
  }
#ifdef THREADLAB_BUILD_NVDISASM
  candidates.emplace_back(THREADLAB_BUILD_NVDISASM);  // the one this build's listings came from
#endif
  for (const fs::path& candidate : candidates) {
    if (executable(candidate)) return candidate.string();
  }
  return Error{ErrorKind::kIoError,
               "the CUDA toolkit's disassembler (nvdisasm) was not found (looked at "
               "$THREADLAB_NVDISASM, $CUDA_PATH/bin, $CUDA_HOME/bin, PATH and "
               "/usr/local/cuda/bin): PTX and ptxas's figures only, no SASS"};
}

Result<int> parse_arch(std::string_view text) {
  std::string_view digits = text;
  if (digits.starts_with("sm_")) digits.remove_prefix(3);
  int arch = 0;
  bool any = false;
  for (const char c : digits) {
    if (c < '0' || c > '9' || arch > 10000) {
      any = false;
      break;
    }
    arch = arch * 10 + (c - '0');
    any = true;
  }
  if (!any || arch < 50) {
    return Error{ErrorKind::kInvalidArgument,
                 "--arch: \"" + std::string(text) + "\" is not an architecture like sm_90"};
  }
  return arch;
}

Result<LearnerListing> inspect_submission(const Exercise& exercise, std::string_view source,
                                          const LabOptions& options, int arch) {
  Result<std::string> normalized = normalized_source(source, options.source_name);
  if (!normalized) return normalized.error();
  // NVRTC needs no GPU: the worker is an emulator one (no GPU device nodes in its sandbox).
  LabOptions worker_options = options;
  worker_options.backend = LabBackend::kEmulator;
  WorkerSession worker(worker_options);
  InspectRequest request;
  request.source = *normalized;
  request.kernel_name = exercise.kernel_name;
  request.arch = arch;
  LearnerListing listing;
  listing.arch = arch;
  listing.source = *normalized;
  listing.source_name = options.source_name;
  if (Result<std::string> disassembler = find_disassembler(); disassembler) {
    Result<std::string> scratch = worker.scratch_dir();
    if (!scratch) return scratch.error();
    request.disassembler = *disassembler;
    request.scratch_dir = *scratch;
    worker.allow_reading(fs::path(*disassembler).parent_path().string());
  } else {
    listing.sass_unavailable = disassembler.error().message;
  }
  Result<std::string> line = worker.exchange(encode(request), options.compile_timeout);
  if (!line) return line.error();
  Result<InspectReply> reply = decode_inspect_reply(*line);
  if (!reply) return reply.error();
  if (!reply->ok) {
    const ErrorKind kind = reply->error == "kernel.cu does not compile" ? ErrorKind::kParseError
                                                                        : ErrorKind::kNoDevice;
    std::string message = reply->error;
    if (kind == ErrorKind::kParseError && !reply->log.empty()) message += ":\n" + reply->log;
    return Error{kind, message};
  }
  listing.symbol = reply->symbol;
  listing.log = reply->log;
  listing.ptx_text = reply->ptx;
  listing.ptx = compiled::parse_ptx(listing.ptx_text);
  listing.sass_text = reply->sass;
  listing.sass = compiled::parse_sass(listing.sass_text);
  if (listing.sass_unavailable.empty()) listing.sass_unavailable = reply->sass_unavailable;
  for (compiled::PtxasReport& report : compiled::parse_ptxas_report(listing.log)) {
    if (report.symbol == listing.symbol) listing.report = std::move(report);
  }
  return listing;
}

LaunchShape largest_case_launch(const Exercise& exercise) {
  LaunchShape launch;
  launch.block = exercise.default_block;
  if (exercise.make_cases) {
    const std::vector<CheckCase> cases = exercise.make_cases(1, exercise.default_block);
    if (!cases.empty()) launch = cases.back().launch;
  }
  return launch;
}

CompiledFeedback compiled_feedback(const LearnerListing& listing, const LaunchShape& launch) {
  CompiledFeedback feedback;
  feedback.arch = listing.arch_name();
  if (!listing.report) {
    feedback.unavailable = "ptxas reported nothing for the kernel";
    return feedback;
  }
  const compiled::PtxasReport& report = *listing.report;
  feedback.registers = report.registers;
  feedback.spill_store_bytes = report.spill_store_bytes;
  feedback.spill_load_bytes = report.spill_load_bytes;
  feedback.launch_bounds_line = launch_bounds_line(listing.source);
  if (const compiled::SassFunction* function = listing.sass_function()) {
    for (const compiled::SassInstruction& i : function->instructions) {
      if (i.kind != compiled::InstructionKind::kLocalLoad &&
          i.kind != compiled::InstructionKind::kLocalStore) {
        continue;
      }
      if (i.file < 0 || i.line <= 0) continue;
      // NVRTC names the learner's file kernel.cu; a caller may have renamed it to its own name.
      const std::string& file = listing.sass.files[static_cast<std::size_t>(i.file)];
      if (file != "kernel.cu" && file != listing.source_name) continue;
      feedback.spill_lines.push_back(i.line);
    }
    std::sort(feedback.spill_lines.begin(), feedback.spill_lines.end());
    feedback.spill_lines.erase(
        std::unique(feedback.spill_lines.begin(), feedback.spill_lines.end()),
        feedback.spill_lines.end());
  }
  if (report.spills()) {
    std::string warning = "Registers spill to local memory: ptxas stores " +
                          std::to_string(report.spill_store_bytes) + " and loads " +
                          std::to_string(report.spill_load_bytes) + " bytes a thread (" +
                          feedback.arch + ", " + std::to_string(report.registers) +
                          " registers). Local memory is the thread's own slice of DRAM, cached "
                          "in L1 and L2: each spill is a memory access your code did not write.";
    if (!feedback.spill_lines.empty()) {
      warning += std::string(feedback.spill_lines.size() == 1 ? " Line " : " Lines ") +
                 line_list(feedback.spill_lines) + " of " + listing.source_name +
                 " hold the spill instructions.";
    }
    if (feedback.launch_bounds_line > 0) {
      warning += " Line " + std::to_string(feedback.launch_bounds_line) +
                 "'s __launch_bounds__ caps the registers a thread may have (about 64K registers "
                 "of an SM shared by its maximum threads times its minimum blocks): asking for "
                 "fewer of either leaves more registers.";
    }
    feedback.warnings.push_back(std::move(warning));
  }
  const std::optional<ReferenceGpu> gpu = reference_gpu_of(listing.arch);
  const std::uint32_t block_threads = launch.block.x * launch.block.y * launch.block.z;
  if (gpu && block_threads > 0) {
    const DeviceInfo device = reference_device_info(*gpu);
    KernelResources resources;
    resources.registers_per_thread = static_cast<std::uint32_t>(report.registers);
    resources.static_shared_bytes = static_cast<std::uint64_t>(report.shared_bytes);
    const Occupancy occupancy =
        compute_occupancy(device, resources, block_threads, launch.dynamic_shared_bytes);
    feedback.occupancy = occupancy;
    feedback.occupancy_gpu = std::string(gpu->name);
    const bool set_by_the_kernel = occupancy.limit == OccupancyLimit::kRegisters ||
                                   occupancy.limit == OccupancyLimit::kSharedMemory;
    if (set_by_the_kernel && occupancy.active_blocks > 0 && occupancy.fraction() < kLowOccupancy) {
      feedback.warnings.push_back(
          "Low occupancy, set by " + std::string(to_string(occupancy.limit)) + ": blocks of " +
          std::to_string(block_threads) + " threads fill " +
          std::to_string(static_cast<int>(occupancy.fraction() * 100.0 + 0.5)) + " % of an " +
          feedback.occupancy_gpu + " SM's warp slots (modelled for " + feedback.arch + ", " +
          std::to_string(report.registers) + " registers, " + std::to_string(report.shared_bytes) +
          " bytes of static shared memory). " + describe_limit(occupancy, device) +
          " A rule of thumb, not a verdict: a kernel with enough independent work per thread "
          "can be fast at low occupancy.");
    }
  }
  return feedback;
}

}  // namespace tl::lab
