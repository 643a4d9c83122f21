// `threadlab info`: the device table and the backend the app would choose, with its reason.

#include <algorithm>
#include <iomanip>
#include <string_view>

#include "commands.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "core/format.hpp"
#include "interop/backend_selection.hpp"
#include "lab/lab_check.hpp"
#include "platform/egl_context.hpp"

namespace tl::cli {
namespace {

void row(std::ostream& out, const std::string& key, const std::string& value) {
  out << "  " << std::left << std::setw(28) << key << value << '\n';
}

std::string dims(const Dim3& d) {
  return std::to_string(d.x) + " × " + std::to_string(d.y) + " × " + std::to_string(d.z);
}

}  // namespace

Status check_info_options(const InfoOptions& options) {
  auto preference = interop::parse_backend_preference(options.backend);
  if (!preference) return preference.error();
  return Status::ok();
}

int command_info(const InfoOptions& options, std::ostream& out, std::ostream& err) {
  if (const Status checked = check_info_options(options); !checked) {
    return fail(err, checked.message(), kExitUsage);
  }
  auto preference = interop::parse_backend_preference(options.backend);
  // Interop can only be judged with an OpenGL context, so info opens the headless one the renderer
  // uses.
  auto gl = platform::EglContext::create({});
  auto choice = interop::choose_backend(*preference, gl.is_ok());
  if (!choice) return fail(err, choice.message(), kExitFailure);
  const DeviceInfo& info = choice->device->info();

  out << "Device\n";
  row(out, "name", info.name);
  if (choice->device->is_gpu()) {
    row(out, "compute capability",
        std::to_string(info.compute_major) + "." + std::to_string(info.compute_minor));
    row(out, "streaming multiprocessors", std::to_string(info.multiprocessors));
  } else {
    row(out, "worker threads (\"SMs\")", std::to_string(info.multiprocessors));
  }
  row(out, "warp size", std::to_string(info.limits.warp_size));
  row(out, "max threads per block", std::to_string(info.limits.max_threads_per_block));
  row(out, "max block dimensions", dims(info.limits.max_block_dim));
  row(out, "max grid dimensions", dims(info.limits.max_grid_dim));
  row(out, "shared memory per block",
      format_bytes(static_cast<double>(info.shared_memory_per_block)));
  if (info.shared_memory_per_multiprocessor > 0) {
    row(out, "shared memory per SM",
        format_bytes(static_cast<double>(info.shared_memory_per_multiprocessor)));
  }
  if (choice->device->is_gpu()) {
    // What one SM holds at once and the cache all SMs share: figures the lessons' text takes from
    // the running device.
    if (info.max_threads_per_multiprocessor > 0) {
      row(out, "max threads per SM", std::to_string(info.max_threads_per_multiprocessor));
    }
    if (info.max_blocks_per_multiprocessor > 0) {
      row(out, "max blocks per SM", std::to_string(info.max_blocks_per_multiprocessor));
    }
    if (info.registers_per_multiprocessor > 0) {
      row(out, "registers per SM", format_count(info.registers_per_multiprocessor));
    }
    row(out, "L2 cache",
        info.l2_cache_bytes > 0 ? format_bytes(static_cast<double>(info.l2_cache_bytes))
                                : std::string("unknown"));
  }
  auto memory = choice->device->memory_info();
  if (memory) {
    row(out, choice->device->is_gpu() ? "global memory (free/total)" : "host memory (free/total)",
        format_bytes(static_cast<double>(memory->free_bytes)) + " / " +
            format_bytes(static_cast<double>(memory->total_bytes)));
  }
  if (info.theoretical_bandwidth_gbps() > 0) {
    row(out, "peak memory bandwidth",
        std::to_string(static_cast<int>(info.theoretical_bandwidth_gbps())) + " GB/s");
  }
  if (info.driver_version > 0) {
    row(out, "CUDA driver / runtime",
        std::to_string(info.driver_version / 1000) + "." +
            std::to_string(info.driver_version % 1000 / 10) + " / " +
            std::to_string(info.runtime_version / 1000) + "." +
            std::to_string(info.runtime_version % 1000 / 10));
  }
  out << "\nGraphics\n";
  if (gl) {
    row(out, "OpenGL (headless EGL)", (*gl)->renderer());
  } else {
    row(out, "OpenGL (headless EGL)", "unavailable: " + gl.message());
  }
  out << "\nBackend\n";
  row(out, "chosen", to_string(choice->kind));
  row(out, "reason", choice->reason);
  // What a worker started now gets: asked of one, not guessed (the kernel, AppArmor or a
  // container may refuse a layer). On the emulator, the path every machine has.
  out << "\nKernel Lab\n";
  lab::LabOptions lab_options;
  lab_options.backend = lab::LabBackend::kEmulator;
  Result<lab::SandboxReply> sandbox = lab::lab_sandbox_layers(lab_options);
  const auto describe = [](const Result<lab::SandboxReply>& reply) {
    return reply ? reply->layers + (reply->isolates ? "" : " — not isolating: lab grade refuses")
                 : "unavailable: " + reply.error().message;
  };
  row(out, "Lab sandbox", describe(sandbox));
  if (choice->device->is_gpu()) {
    // The GPU worker's view differs (the driver's nodes, /sys): asked of one too.
    lab_options.backend = lab::LabBackend::kGpu;
    row(out, "Lab sandbox (GPU worker)", describe(lab::lab_sandbox_layers(lab_options)));
  }
  return kExitOk;
}

int command_lessons(std::ostream& out) {
  // Columns as wide as their longest entry and two spaces: a title that fills its column must
  // not run into the summary ("Training a networkThe capstone").
  std::size_t id_width = 0;
  std::size_t title_width = 0;
  for (const auto& lesson : lessons::catalog()) {
    id_width = std::max(id_width, std::string_view(lesson.id).size());
    title_width = std::max(title_width, std::string_view(lesson.title).size());
  }
  for (const auto& lesson : lessons::catalog()) {
    out << lesson.number << ". " << std::left << std::setw(static_cast<int>(id_width + 2))
        << lesson.id << std::setw(static_cast<int>(title_width + 2)) << lesson.title
        << lesson.summary << '\n';
  }
  return kExitOk;
}

int fail(std::ostream& err, const std::string& message, int status) {
  // One line, always: an argument echoed back with a newline or a terminal escape in it is shown
  // escaped, so that scripts reading the reason get the whole of it and nothing else.
  err << "threadlab: " << one_line(message) << '\n';
  return status;
}

}  // namespace tl::cli
