#include "lab/lesson_memory.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/format.hpp"
#include "lab/emulator/learner_compiler.hpp"
#include "lab/emulator/learner_module.hpp"
#include "lab/lab_check.hpp"
#include "lab/memory_findings.hpp"
#include "lesson_texts.hpp"

namespace tl::lab {
namespace {

// The kernel's .cuh first, so that kernel.cu's line N is the .cuh's line N (the table names lines
// of the file the lesson shows); then a trace policy that records nothing (every lesson kernel
// ends with one), and the entry: the chosen instantiation, run only in the blocks the host
// records.
std::string recording_unit(std::string_view cuh, const std::string& instantiation) {
  std::string unit(cuh);
  if (!unit.empty() && unit.back() != '\n') unit += '\n';
  unit +=
      "struct threadlab_no_trace {\n"
      "  template <class... A> void wrote(A...) const {}\n"
      "  template <class... A> void added(A...) const {}\n"
      "  void block_begins() {}\n"
      "  void block_ends() {}\n"
      "};\n"
      "template <auto Kernel> struct threadlab_recorded_blocks_only;\n"
      "template <class... P, void (*Kernel)(P...)>\n"
      "struct threadlab_recorded_blocks_only<Kernel> {\n"
      "  static void run(P... p) {\n"
      "    if (::tl::emu::learner::recording::block_is_recorded()) Kernel(p...);\n"
      "  }\n"
      "};\n"
      "static constexpr auto& threadlab_lesson_kernel =\n"
      "    threadlab_recorded_blocks_only<&" +
      instantiation + ">::run;\n";
  return unit;
}

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t at = 0;
  while (at <= text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    lines.emplace_back(text.substr(at, end - at));
    at = end + 1;
  }
  return lines;
}

std::string trimmed(std::string_view line) {
  const std::size_t first = line.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const std::size_t last = line.find_last_not_of(" \t\r");
  return std::string(line.substr(first, last - first + 1));
}

std::string fixed(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", value);
  return text;
}

const char* space_name(memory::MemorySpace space) {
  return space == memory::MemorySpace::kGlobal ? "global" : "shared";
}
const char* kind_name(memory::AccessKind kind) {
  return kind == memory::AccessKind::kLoad ? "load" : "store";
}

std::string extrapolation_line(const LessonKernelMemory& k) {
  const memory::MemoryTable& t = k.table;
  std::string line = std::to_string(t.recorded_blocks) + " of " + std::to_string(t.grid_blocks) +
                     " blocks recorded, all their warps";
  if (t.extrapolated()) {
    line += "; the grid's totals are extrapolated: counts × " + fixed(t.grid_scale()) +
            " (blocks at the data's edge may differ)";
  }
  return line;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string table_report(std::span<const LessonKernelMemory> kernels) {
  std::ostringstream out;
  for (const LessonKernelMemory& k : kernels) {
    out << k.label << ": " << k.kernel << " " << k.config.to_string() << ", " << k.source << '\n';
    out << "  the emulator's model (core/memory), " << extrapolation_line(k) << '\n';
    if (!k.note.empty()) out << "  note: " << k.note << '\n';
    char header[256];
    std::snprintf(header, sizeof header, "  %5s  %-44s %-13s %9s %9s %8s %8s %10s %9s\n", "line",
                  "source", "access", "requests", "sectors", "sec/req", "ideal", "wavefronts",
                  "conflicts");
    out << header;
    for (std::size_t i = 0; i < k.table.rows.size(); ++i) {
      const memory::LineTotals& r = k.table.rows[i];
      std::string text = k.line_texts[i];
      if (text.size() > 44) text = text.substr(0, 41) + "...";
      const std::string access = std::string(space_name(r.space)) + " " + kind_name(r.kind);
      const bool global = r.space == memory::MemorySpace::kGlobal;
      char row[512];
      std::snprintf(row, sizeof row, "  %5d  %-44s %-13s %9llu %9s %8s %8s %10s %9s\n", r.line,
                    text.c_str(), access.c_str(), static_cast<unsigned long long>(r.requests),
                    global ? std::to_string(r.sectors).c_str() : "-",
                    global ? fixed(r.sectors_per_request()).c_str() : "-",
                    global ? fixed(r.ideal_sectors_per_request()).c_str()
                           : fixed(r.requests == 0 ? 0.0
                                                   : static_cast<double>(r.ideal_wavefronts) /
                                                         static_cast<double>(r.requests))
                                 .c_str(),
                    global ? "-" : std::to_string(r.wavefronts).c_str(),
                    global ? "-" : std::to_string(r.bank_conflicts()).c_str());
      out << row;
    }
    out << "  ideal: sectors per request for global rows, wavefronts per request for shared ones\n";
  }
  return out.str();
}

std::string csv_report(std::span<const LessonKernelMemory> kernels) {
  std::ostringstream out;
  out << "kernel,label,line,source,kind,space,requests,sectors,sectors_per_request,"
         "ideal_sectors_per_request,wavefronts,ideal_wavefronts,bank_conflicts,"
         "worst_conflict_degree,recorded_blocks,grid_blocks,extrapolated\n";
  for (const LessonKernelMemory& k : kernels) {
    for (std::size_t i = 0; i < k.table.rows.size(); ++i) {
      const memory::LineTotals& r = k.table.rows[i];
      const bool global = r.space == memory::MemorySpace::kGlobal;
      out << csv_field(k.kernel) << ',' << csv_field(k.label) << ',' << r.line << ','
          << csv_field(k.line_texts[i]) << ',' << kind_name(r.kind) << ',' << space_name(r.space)
          << ',' << r.requests << ',' << (global ? std::to_string(r.sectors) : "") << ','
          << (global ? fixed(r.sectors_per_request()) : "") << ','
          << (global ? fixed(r.ideal_sectors_per_request()) : "") << ','
          << (global ? "" : std::to_string(r.wavefronts)) << ','
          << (global ? "" : std::to_string(r.ideal_wavefronts)) << ','
          << (global ? "" : std::to_string(r.bank_conflicts())) << ','
          << (global ? "" : std::to_string(r.worst_conflict_degree)) << ','
          << k.table.recorded_blocks << ',' << k.table.grid_blocks << ','
          << (k.table.extrapolated() ? "true" : "false") << '\n';
    }
  }
  return out.str();
}

std::string json_report(std::span<const LessonKernelMemory> kernels) {
  nlohmann::ordered_json document;
  document["model"] =
      "the emulator's model of L1TEX requests (core/memory/memory_model.hpp): no cache, the "
      "host compiler's accesses";
  document["kernels"] = nlohmann::ordered_json::array();
  for (const LessonKernelMemory& k : kernels) {
    nlohmann::ordered_json kernel;
    kernel["label"] = k.label;
    kernel["kernel"] = k.kernel;
    kernel["source"] = k.source;
    kernel["launch"] = k.config.to_string();
    kernel["recorded_blocks"] = k.table.recorded_blocks;
    kernel["grid_blocks"] = k.table.grid_blocks;
    kernel["extrapolated"] = k.table.extrapolated();
    kernel["grid_scale"] = k.table.grid_scale();
    kernel["dropped_accesses"] = k.dropped_accesses;
    if (!k.note.empty()) kernel["note"] = k.note;
    kernel["lines"] = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < k.table.rows.size(); ++i) {
      const memory::LineTotals& r = k.table.rows[i];
      const memory::MetricNames names = memory::metric_names(r.space, r.kind);
      nlohmann::ordered_json row;
      row["line"] = r.line;
      row["source"] = k.line_texts[i];
      row["kind"] = kind_name(r.kind);
      row["space"] = space_name(r.space);
      row["requests"] = r.requests;
      row["requests_metric"] = names.requests;
      if (r.space == memory::MemorySpace::kGlobal) {
        row["sectors"] = r.sectors;
        row["sectors_metric"] = names.sectors;
        row["sectors_per_request"] = r.sectors_per_request();
        row["ideal_sectors_per_request"] = r.ideal_sectors_per_request();
        row["bytes_moved_per_byte_requested"] = r.bytes_moved_per_byte_requested();
      } else {
        row["wavefronts"] = r.wavefronts;
        row["wavefronts_metric"] = names.wavefronts;
        row["ideal_wavefronts"] = r.ideal_wavefronts;
        row["bank_conflicts"] = r.bank_conflicts();
        row["bank_conflicts_metric"] = names.bank_conflicts;
        row["worst_conflict_degree"] = r.worst_conflict_degree;
      }
      kernel["lines"].push_back(std::move(row));
    }
    document["kernels"].push_back(std::move(kernel));
  }
  return document.dump(2) + "\n";
}

}  // namespace

Result<LessonKernelMemory> record_lesson_kernel(const memory::MemoryExperiment& experiment,
                                                const std::string& cache_dir) {
  const auto cuh = lesson_texts::find_text(experiment.source);
  if (!cuh) {
    return Error{ErrorKind::kInvalidArgument,
                 "the kernel source " + experiment.source + " is not embedded in this build"};
  }
  const std::string shown =
      experiment.kernel +
      (experiment.template_arguments.empty() ? "" : "<" + experiment.template_arguments + ">");
  const std::string instantiation =
      experiment.kernel + "<" +
      (experiment.template_arguments.empty() ? "" : experiment.template_arguments + ", ") +
      "threadlab_no_trace>";

  LearnerCompileOptions options;
  options.record_memory = true;
  const std::string cache = cache_dir.empty() ? default_lab_cache_dir() : cache_dir;
  if (cache.empty()) {
    return Error{ErrorKind::kIoError, "no cache directory for the recording build (set HOME)"};
  }
  LearnerCompileResult built = compile_learner_kernel(recording_unit(*cuh, instantiation),
                                                      "threadlab_lesson_kernel", cache, options);
  if (!built) {
    return Error{ErrorKind::kIoError, "recording build of " + shown + ": " +
                                          built.failure().message + "\n" +
                                          built.failure().diagnostics};
  }
  Result<EmulatedLearnerModule> module = EmulatedLearnerModule::load(built.build().shared_object);
  if (!module) return module.error();
  if (module->parameter_count() != experiment.arguments.size() + 1) {
    return Error{ErrorKind::kInvalidArgument,
                 shown + " takes " + std::to_string(module->parameter_count()) +
                     " parameters; the experiment gives " +
                     std::to_string(experiment.arguments.size()) + " and the trace policy"};
  }

  // Arrays aligned as cudaMalloc aligns them (256 bytes), so that sectors and lines fall where
  // they would on a GPU; calloc, so the pages the recorded blocks never touch are never paid for.
  constexpr std::size_t kAlignment = 256;
  std::vector<std::unique_ptr<void, FreeDeleter>> allocations;
  std::vector<float*> pointers(experiment.arguments.size(), nullptr);
  std::vector<int> integers(experiment.arguments.size(), 0);
  std::vector<void*> args;
  std::vector<LessonKernelMemory::Array> arrays;
  EmulatedLearnerModule::MemoryRecordingOptions recording;
  for (std::size_t i = 0; i < experiment.arguments.size(); ++i) {
    const memory::KernelArgument& a = experiment.arguments[i];
    if (a.kind == memory::KernelArgument::Kind::kFloatArray) {
      const std::size_t bytes = std::max<std::uint64_t>(a.count, 1) * sizeof(float);
      void* raw = std::calloc(bytes + kAlignment, 1);
      if (raw == nullptr) {
        return Error{ErrorKind::kInvalidArgument,
                     "cannot allocate " + std::to_string(bytes) + " bytes for " + a.name};
      }
      allocations.emplace_back(raw);
      const auto at =
          (reinterpret_cast<std::uintptr_t>(raw) + kAlignment - 1) / kAlignment * kAlignment;
      pointers[i] = reinterpret_cast<float*>(at);
      recording.global.push_back({at, bytes});
      arrays.push_back({a.name, at, bytes});
      args.push_back(&pointers[i]);
    } else {
      integers[i] = a.value;
      args.push_back(&integers[i]);
    }
  }
  char no_trace = 0;  // the empty policy: read as an object of no bytes
  args.push_back(&no_trace);

  auto recorded =
      module->launch_recording_memory(experiment.config.grid, experiment.config.block,
                                      experiment.dynamic_shared_bytes, args.data(), recording);
  if (!recorded) return recorded.error();
  std::vector<memory::WarpRequest> requests = memory::group_warp_requests(recorded->records);

  LessonKernelMemory result;
  result.label = experiment.label;
  result.counted_key = experiment.counted_key;
  result.kernel = shown;
  result.source = experiment.source;
  result.config = experiment.config;
  result.table = memory::tabulate_by_line(requests, recorded->site_lines, recorded->recorded_blocks,
                                          recorded->grid_blocks);
  result.dropped_accesses = recorded->dropped_accesses;
  result.requests = std::move(requests);
  result.site_lines = std::move(recorded->site_lines);
  result.arrays = std::move(arrays);
  result.note = recorded->lines_note;
  const std::vector<std::string> lines = split_lines(*cuh);
  for (const memory::LineTotals& row : result.table.rows) {
    result.line_texts.push_back(row.line >= 1 && static_cast<std::size_t>(row.line) <= lines.size()
                                    ? trimmed(lines[static_cast<std::size_t>(row.line) - 1])
                                    : std::string());
  }
  return result;
}

const LessonKernelMemory::Array* LessonKernelMemory::array_at(std::uint64_t address) const {
  for (const Array& a : arrays) {
    if (address - a.address < a.bytes) return &a;
  }
  return nullptr;
}

Result<MemoryReportFormat> parse_memory_report_format(std::string_view text) {
  if (text == "table") return MemoryReportFormat::kTable;
  if (text == "csv") return MemoryReportFormat::kCsv;
  if (text == "json") return MemoryReportFormat::kJson;
  return Error{ErrorKind::kInvalidArgument,
               "--format: \"" + std::string(text) + "\" is not table, csv or json"};
}

MemoryInstructionCounters model_grid_counters(const memory::MemoryTable& table) {
  const double scale = table.grid_scale();
  MemoryInstructionCounters model;
  model.measured = true;
  for (const memory::LineTotals& row : table.rows) {
    const bool load = row.kind == memory::AccessKind::kLoad;
    if (row.space == memory::MemorySpace::kShared) {
      (load ? model.shared_load_bank_conflicts : model.shared_store_bank_conflicts) +=
          scale * static_cast<double>(row.bank_conflicts());
    } else {
      (load ? model.global_load_requests : model.global_store_requests) +=
          scale * static_cast<double>(row.requests);
      (load ? model.global_load_sectors : model.global_store_sectors) +=
          scale * static_cast<double>(row.sectors);
    }
  }
  return model;
}

std::string memory_beside_counters(std::string_view label, const MemoryInstructionCounters& model,
                                   const MemoryInstructionCounters& measured,
                                   std::string_view device) {
  auto per = [](double sectors, double requests) {
    return requests > 0 ? per_request_text(sectors / requests) : std::string("-");
  };
  auto count = [](double value) { return format_count(static_cast<std::uint64_t>(value + 0.5)); };
  std::string text = std::string(label) + " on " + std::string(device) + ": global loads " +
                     per(measured.global_load_sectors, measured.global_load_requests) +
                     " sectors per request measured, " +
                     per(model.global_load_sectors, model.global_load_requests) +
                     " in the model (" + count(measured.global_load_requests) + " and " +
                     count(model.global_load_requests) + " requests); stores " +
                     per(measured.global_store_sectors, measured.global_store_requests) + " and " +
                     per(model.global_store_sectors, model.global_store_requests) + " (" +
                     count(measured.global_store_requests) + " and " +
                     count(model.global_store_requests) + " requests)";
  const double measured_conflicts =
      measured.shared_load_bank_conflicts + measured.shared_store_bank_conflicts;
  const double model_conflicts =
      model.shared_load_bank_conflicts + model.shared_store_bank_conflicts;
  if (measured_conflicts > 0 || model_conflicts > 0) {
    text += "; shared-memory bank conflicts " + count(measured_conflicts) + " counted, " +
            count(model_conflicts) + " in the model";
    if (measured_conflicts > model_conflicts) {
      text +=
          " (the hardware counter also counts the banks' cycles lost to other warps' global "
          "loads; Nsight Compute's instruction-level counts equal the model's)";
    }
  }
  return text;
}

std::string memory_report(std::span<const LessonKernelMemory> kernels, MemoryReportFormat format) {
  switch (format) {
    case MemoryReportFormat::kCsv:
      return csv_report(kernels);
    case MemoryReportFormat::kJson:
      return json_report(kernels);
    case MemoryReportFormat::kTable:
      break;
  }
  return table_report(kernels);
}

}  // namespace tl::lab
