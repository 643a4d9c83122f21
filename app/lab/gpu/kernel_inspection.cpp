#include "lab/gpu/kernel_inspection.hpp"

#include <unistd.h>

#include <filesystem>
#include <regex>

#include "core/limited_process.hpp"
#include "core/user_files.hpp"
#include "lab/gpu/cuda_libraries.hpp"
#include "lab/worker/lab_worker.hpp"

namespace tl::lab {
namespace {

namespace fs = std::filesystem;

// What the disassembler may take on one cubin: a real kernel's takes well under a second.
constexpr ProcessLimits kDisassemblerLimits{20, 2ull << 30, std::chrono::seconds(30)};

std::string first_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

// nvdisasm on `cubin`; the SASS, or why there is none (in `why`).
std::string disassemble(const std::string& disassembler, const std::vector<char>& cubin,
                        const fs::path& scratch, std::string& why) {
  if (::access(disassembler.c_str(), X_OK) != 0) {
    why = "the disassembler " + disassembler + " cannot be run here";
    return {};
  }
  const std::string tag = std::to_string(::getpid()) + "-" +
                          std::to_string(fnv1a(std::string_view(cubin.data(), cubin.size())));
  const fs::path cubin_path = scratch / ("inspect-" + tag + ".cubin");
  const fs::path output_path = scratch / ("inspect-" + tag + ".sass");
  if (Status written =
          write_file_atomically(cubin_path, std::string_view(cubin.data(), cubin.size()));
      !written) {
    why = "the cubin could not be written for the disassembler: " + written.message();
    return {};
  }
  const ProcessResult run = run_limited_process({disassembler, "-g", "-c", cubin_path.string()},
                                                scratch, output_path, kDisassemblerLimits);
  std::error_code ignored;
  fs::remove(cubin_path, ignored);
  fs::remove(output_path, ignored);
  if (!run.started) {
    why = "the disassembler " + disassembler + " could not be started";
    return {};
  }
  if (run.over_time) {
    why = "the disassembler took too long";
    return {};
  }
  if (run.exit_code != 0) {
    why = "the disassembler failed (exit " + std::to_string(run.exit_code) +
          "): " + first_line(run.output);
    return {};
  }
  return run.output;
}

}  // namespace

std::string learner_file_names(std::string text) {
  static const std::regex recorded_path(R"re("[^"\n]*/(kernel\.cu|threadlab_lab\.cuh)")re");
  return std::regex_replace(text, recorded_path, "\"$1\"");
}

InspectReply inspect_learner_kernel(const InspectRequest& request) {
  InspectReply reply;
  Result<const Nvrtc*> nvrtc = Nvrtc::load();
  if (!nvrtc) {
    reply.error = nvrtc.error().message;
    return reply;
  }
  if (request.arch < 50 || request.arch > 1000) {
    reply.error = "sm_" + std::to_string(request.arch) + " is not an architecture NVRTC knows";
    return reply;
  }
  Result<CompiledKernel> compiled = compile_with_nvrtc(**nvrtc, request.source, request.kernel_name,
                                                       request.arch, false, NvrtcPurpose::kInspect);
  if (!compiled) {
    reply.error = compiled.error().kind == ErrorKind::kParseError ? "kernel.cu does not compile"
                                                                  : compiled.error().message;
    reply.log = compiled.error().message;
    return reply;
  }
  reply.ok = true;
  reply.log = compiled->log;
  reply.symbol = compiled->lowered_name;
  reply.ptx = learner_file_names(std::move(compiled->ptx));
  if (request.disassembler.empty()) {
    reply.sass_unavailable = "no disassembler was given";
    return reply;
  }
  std::string why;
  reply.sass = learner_file_names(
      disassemble(request.disassembler, compiled->cubin, request.scratch_dir, why));
  reply.sass_unavailable = why;
  return reply;
}

}  // namespace tl::lab
