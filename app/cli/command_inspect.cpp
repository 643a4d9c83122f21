// `threadlab inspect --lesson L [--kernel K] [--sass|--ptx|--resources] [--arch sm_XX]`: what nvcc
// made of a lesson's kernels, from the listings the build embedded (lessons/compiled_kernels.hpp),
// with or without a GPU: per kernel its registers, shared and local memory, spills and its
// instructions by kind; or one kernel's SASS or PTX with each source line above the instructions
// made from it.

#include <algorithm>
#include <functional>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "commands.hpp"
#include "compiled_kernels.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "core/compiled/compiled_listing.hpp"
#include "core/format.hpp"
#include "lab/exercise_registry.hpp"
#include "lab/lab_inspect.hpp"
#include "lab/lab_prelude.hpp"
#include "lesson_texts.hpp"

namespace tl::cli {
namespace {

using compiled::InstructionKind;

// One kernel of a unit: its name, resources and listing.
struct InspectedKernel {
  const compiled_kernels::CompiledUnit* unit = nullptr;
  std::string symbol;
  std::string name;  // short_name
  compiled::ResourceUsage resources;
  compiled::SassSummary summary;
};

std::string_view lesson_folder_of(std::string_view id) {
  const auto info = lessons::find_lesson(id);
  return info ? info->folder : std::string_view();
}

std::vector<std::string> archs_of(std::string_view folder) {
  std::vector<std::string> archs;
  for (const compiled_kernels::CompiledUnit& u : compiled_kernels::units()) {
    if (u.lesson == folder && std::find(archs.begin(), archs.end(), u.arch) == archs.end()) {
      archs.emplace_back(u.arch);
    }
  }
  return archs;
}

std::vector<InspectedKernel> kernels_of(
    const std::vector<const compiled_kernels::CompiledUnit*>& units) {
  std::vector<InspectedKernel> kernels;
  for (const compiled_kernels::CompiledUnit* unit : units) {
    const compiled::SassListing sass = compiled::parse_sass(unit->sass);
    for (const compiled::ResourceUsage& r :
         compiled::parse_resource_usage(unit->resources, unit->arch)) {
      InspectedKernel k;
      k.unit = unit;
      k.symbol = r.symbol;
      k.name = compiled::short_name(r.symbol);
      k.resources = r;
      if (const compiled::SassFunction* f = sass.find(r.symbol))
        k.summary = compiled::summarize(*f);
      kernels.push_back(std::move(k));
    }
  }
  std::stable_sort(
      kernels.begin(), kernels.end(),
      [](const InspectedKernel& a, const InspectedKernel& b) { return a.name < b.name; });
  return kernels;
}

// Line `line` (from 1) of `text`, without its indentation.
std::string line_of(std::string_view text, int line) {
  if (line <= 0) return {};
  std::string_view rest = text;
  for (int i = 1; i < line && !rest.empty(); ++i) {
    const std::size_t end = rest.find('\n');
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
  }
  std::string_view l = rest.substr(0, rest.find('\n'));
  while (!l.empty() && (l.front() == ' ' || l.front() == '\t')) l.remove_prefix(1);
  return std::string(l);
}

// The source line `line` of `file` (a path relative to the project root), where the program
// embeds that file.
std::string source_text(std::string_view file, int line) {
  const auto text = lesson_texts::find_text(file);
  return text ? line_of(*text, line) : std::string();
}

std::string file_name(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

constexpr InstructionKind kCountedKinds[] = {
    InstructionKind::kGlobalLoad,     InstructionKind::kGlobalStore, InstructionKind::kSharedLoad,
    InstructionKind::kSharedStore,    InstructionKind::kAsyncCopy,   InstructionKind::kBarrier,
    InstructionKind::kShuffle,        InstructionKind::kAtomic,      InstructionKind::kTensorCore,
    InstructionKind::kSpecialFunction};

std::string column_name(InstructionKind kind) {
  std::string name(compiled::kind_name(kind));
  std::replace(name.begin(), name.end(), ' ', '_');
  return name;
}

int print_resources(const std::vector<InspectedKernel>& kernels, std::string_view format,
                    std::ostream& out) {
  if (format == "json") {
    nlohmann::json rows = nlohmann::json::array();
    for (const InspectedKernel& k : kernels) {
      nlohmann::json row = {{"kernel", k.name},
                            {"symbol", k.symbol},
                            {"unit", std::string(k.unit->unit)},
                            {"arch", std::string(k.unit->arch)},
                            {"registers", k.resources.registers},
                            {"shared_bytes", k.resources.shared_bytes},
                            {"local_bytes", k.resources.local_bytes},
                            {"stack_bytes", k.resources.stack_bytes},
                            {"spill_stores", k.summary.spill_stores()},
                            {"spill_loads", k.summary.spill_loads()},
                            {"instructions", k.summary.instructions},
                            {"multiply_adds", k.summary.multiply_adds},
                            {"global_loads_128_bit", k.summary.global_loads_128},
                            {"global_loads_64_bit", k.summary.global_loads_64},
                            {"global_loads_32_bit", k.summary.global_loads_32},
                            {"global_loads_narrower", k.summary.global_loads_narrower}};
      for (const InstructionKind kind : kCountedKinds)
        row[column_name(kind)] = k.summary.count(kind);
      rows.push_back(row);
    }
    out << rows.dump(2) << '\n';
    return kExitOk;
  }
  if (format == "csv") {
    out << "kernel,unit,arch,registers,shared_bytes,local_bytes,stack_bytes,spill_stores,"
           "spill_loads,instructions,multiply_adds,global_loads_128_bit";
    for (const InstructionKind kind : kCountedKinds) out << ',' << column_name(kind);
    out << '\n';
    for (const InspectedKernel& k : kernels) {
      out << csv_field(k.name) << ',' << k.unit->unit << ',' << k.unit->arch << ','
          << k.resources.registers << ',' << k.resources.shared_bytes << ','
          << k.resources.local_bytes << ',' << k.resources.stack_bytes << ','
          << k.summary.spill_stores() << ',' << k.summary.spill_loads() << ','
          << k.summary.instructions << ',' << k.summary.multiply_adds << ','
          << k.summary.global_loads_128;
      for (const InstructionKind kind : kCountedKinds) out << ',' << k.summary.count(kind);
      out << '\n';
    }
    return kExitOk;
  }
  std::size_t width = 6;
  for (const InspectedKernel& k : kernels) width = std::max(width, display_width(k.name));
  out << std::left << std::setw(static_cast<int>(width)) << "kernel" << std::right
      << "  arch    regs  shared  local  spills st/ld  instr  LDG LDG.128  STG  LDS  STS  BAR  "
         "tensor"
         "  MUFU\n";
  for (const InspectedKernel& k : kernels) {
    out << k.name << std::string(width - display_width(k.name), ' ') << "  " << std::left
        << std::setw(6) << k.unit->arch << std::right << std::setw(6) << k.resources.registers
        << std::setw(8) << k.resources.shared_bytes << std::setw(7) << k.resources.local_bytes
        << std::setw(8) << k.summary.spill_stores() << '/' << std::left << std::setw(5)
        << k.summary.spill_loads() << std::right << std::setw(6) << k.summary.instructions
        << std::setw(5) << k.summary.count(InstructionKind::kGlobalLoad) << std::setw(8)
        << k.summary.global_loads_128 << std::setw(5)
        << k.summary.count(InstructionKind::kGlobalStore) << std::setw(5)
        << k.summary.count(InstructionKind::kSharedLoad) << std::setw(5)
        << k.summary.count(InstructionKind::kSharedStore) << std::setw(5)
        << k.summary.count(InstructionKind::kBarrier) << std::setw(8)
        << k.summary.count(InstructionKind::kTensorCore) << std::setw(6)
        << k.summary.count(InstructionKind::kSpecialFunction) << '\n';
  }
  out << "registers per thread, static shared memory per block and local memory per thread in "
         "bytes (ptxas); spills: local stores/loads in the SASS; instructions by kind (nvdisasm): "
         "LDG.128 the global loads that read 16 bytes a thread (a float4), MUFU the "
         "special-function "
         "unit's (exp2, reciprocal, ...)\n";
  return kExitOk;
}

// A source line's text, for the listings' line headers.
using SourceLines = std::function<std::string(std::string_view file, int line)>;

// One kernel's listing as the printers need it, from the lessons' embedded units or the learner's
// own compile.
struct ListingToPrint {
  std::string name;
  std::string arch;
  int registers = 0;
  const compiled::SassListing* sass = nullptr;
  const compiled::SassFunction* sass_function = nullptr;
  const compiled::PtxListing* ptx = nullptr;
  const compiled::PtxFunction* ptx_function = nullptr;
  SourceLines source;
};

int print_sass(const ListingToPrint& k, std::string_view format, std::ostream& out) {
  const compiled::SassListing& listing = *k.sass;
  const compiled::SassFunction* f = k.sass_function;
  if (f == nullptr) return kExitFailure;
  const compiled::SassSummary summary = compiled::summarize(*f);
  if (format == "json") {
    nlohmann::json rows = nlohmann::json::array();
    for (const compiled::SassInstruction& i : f->instructions) {
      rows.push_back(
          {{"offset", i.offset},
           {"predicate", i.predicate},
           {"opcode", i.opcode},
           {"text", i.text},
           {"file", i.file >= 0 ? listing.files[static_cast<std::size_t>(i.file)] : std::string()},
           {"line", i.line},
           {"kind", std::string(compiled::kind_name(i.kind))}});
    }
    out << nlohmann::json{{"kernel", k.name}, {"arch", k.arch}, {"instructions", rows}}.dump(2)
        << '\n';
    return kExitOk;
  }
  out << "// " << k.name << " (" << k.arch << "): " << k.registers << " registers, "
      << summary.instructions << " instructions\n";
  int file = -2;
  int line = -1;
  for (const compiled::SassInstruction& i : f->instructions) {
    if (i.file != file || i.line != line) {
      file = i.file;
      line = i.line;
      if (file >= 0) {
        const std::string& path = listing.files[static_cast<std::size_t>(file)];
        out << "\n  // " << file_name(path) << ':' << line << "  " << k.source(path, line) << '\n';
      }
    }
    char offset[16];
    std::snprintf(offset, sizeof offset, "%04x", i.offset);
    std::string text = "  /*" + std::string(offset) + "*/  " + i.text;
    if (i.kind != InstructionKind::kOther && i.kind != InstructionKind::kConstantLoad) {
      text +=
          std::string(std::max<std::size_t>(2, 56 - std::min<std::size_t>(56, display_width(text))),
                      ' ') +
          "; " + std::string(compiled::kind_name(i.kind));
    }
    out << text << '\n';
  }
  return kExitOk;
}

int print_ptx(const ListingToPrint& k, std::ostream& out) {
  const compiled::PtxListing& listing = *k.ptx;
  int file = -2;
  int line = -1;
  for (const compiled::PtxLine& l : k.ptx_function->lines) {
    if (l.file >= 0 && (l.file != file || l.line != line)) {
      file = l.file;
      line = l.line;
      const std::string& path = listing.files[static_cast<std::size_t>(file)];
      out << "\t// " << file_name(path) << ':' << line << "  " << k.source(path, line) << '\n';
    }
    out << l.text << '\n';
  }
  return kExitOk;
}

// The lesson kernel `k`'s SASS or PTX, from the embedded listings.
int print_lesson_listing(const InspectedKernel& k, bool sass, std::string_view format,
                         std::ostream& out, std::ostream& err) {
  const compiled::SassListing sass_listing = compiled::parse_sass(k.unit->sass);
  ListingToPrint print;
  print.name = k.name;
  print.arch = std::string(k.unit->arch);
  print.registers = k.resources.registers;
  print.source = [](std::string_view path, int line) { return source_text(path, line); };
  if (sass) {
    print.sass = &sass_listing;
    print.sass_function = sass_listing.find(k.symbol);
    return print_sass(print, format, out);
  }
  if (k.unit->ptx.empty()) {
    return fail(err,
                "inspect: the build kept no PTX for " + std::string(k.unit->arch) +
                    " (only for the last architecture it compiled for); try --arch",
                kExitFailure);
  }
  const compiled::PtxListing ptx_listing = compiled::parse_ptx(k.unit->ptx);
  print.ptx = &ptx_listing;
  print.ptx_function = ptx_listing.find(k.symbol);
  if (print.ptx_function == nullptr) return fail(err, "inspect: no PTX of " + k.name, kExitFailure);
  return print_ptx(print, out);
}

}  // namespace

Status check_inspect_options(const InspectOptions& options) {
  if (!lessons::find_lesson(options.lesson)) {
    return Error{ErrorKind::kInvalidArgument,
                 "--lesson: no lesson \"" + options.lesson + "\" (see `threadlab lessons`)"};
  }
  if (options.format != "table" && options.format != "csv" && options.format != "json") {
    return Error{ErrorKind::kInvalidArgument,
                 "--format: \"" + options.format + "\" is not table, csv or json"};
  }
  if (static_cast<int>(options.sass) + static_cast<int>(options.ptx) +
          static_cast<int>(options.resources) >
      1) {
    return Error{ErrorKind::kInvalidArgument, "--sass, --ptx and --resources: pick one"};
  }
  if ((options.sass || options.ptx) && options.kernel.empty()) {
    return Error{ErrorKind::kInvalidArgument,
                 std::string(options.sass ? "--sass" : "--ptx") +
                     " needs --kernel: which kernel's listing (the table without it names them)"};
  }
  if (options.ptx && options.format == "csv") {
    return Error{ErrorKind::kInvalidArgument, "--ptx prints text: no --format csv"};
  }
  if (options.sass && options.format == "csv") {
    return Error{ErrorKind::kInvalidArgument, "--sass prints text or json: no --format csv"};
  }
  return Status::ok();
}

int command_inspect(const InspectOptions& options, std::ostream& out, std::ostream& err) {
  if (const Status checked = check_inspect_options(options); !checked) {
    return fail(err, checked.message(), kExitUsage);
  }
  if (compiled_kernels::units().empty()) {
    return fail(err,
                "inspect: no compiled listings in this build: " +
                    std::string(compiled_kernels::unavailable()),
                kExitFailure);
  }
  const std::string_view folder = lesson_folder_of(options.lesson);
  const auto units = compiled_kernels::units_of_lesson(folder, options.arch);
  if (units.empty()) {
    const auto archs = archs_of(folder);
    if (archs.empty()) {
      return fail(err, "inspect: " + options.lesson + " has no GPU kernels of its own",
                  kExitFailure);
    }
    std::string list;
    for (const std::string& a : archs) list += (list.empty() ? "" : ", ") + a;
    return fail(err,
                "--arch: " + options.lesson + " was built for " + list + ", not " + options.arch,
                kExitUsage);
  }
  std::vector<InspectedKernel> kernels = kernels_of(units);
  if (!options.kernel.empty()) {
    // A whole name picks one; otherwise every kernel whose name contains the text.
    std::vector<InspectedKernel> exact;
    std::vector<InspectedKernel> matching;
    for (const InspectedKernel& k : kernels) {
      if (k.name == options.kernel || k.symbol == options.kernel) exact.push_back(k);
      if (k.name.find(options.kernel) != std::string::npos) matching.push_back(k);
    }
    kernels = exact.empty() ? matching : exact;
    if (kernels.empty()) {
      return fail(err,
                  "--kernel: no kernel of " + options.lesson + " is named like \"" +
                      options.kernel + "\" (threadlab inspect --lesson " + options.lesson +
                      " lists them)",
                  kExitUsage);
    }
  }
  if (!options.sass && !options.ptx) return print_resources(kernels, options.format, out);
  if (kernels.size() > 1) {
    // A name that matches a kernel and its traced twin (the mapping view's) picks the timed one.
    std::vector<InspectedKernel> timed;
    for (const InspectedKernel& k : kernels) {
      if (!compiled::is_traced_instance(k.name)) timed.push_back(k);
    }
    if (timed.size() == 1) kernels = timed;
  }
  if (kernels.size() > 1) {
    std::string list;
    for (const InspectedKernel& k : kernels) list += (list.empty() ? "" : "; ") + k.name;
    return fail(err,
                "--kernel: \"" + options.kernel + "\" names " + std::to_string(kernels.size()) +
                    " kernels; give one whole name: " + list,
                kExitUsage);
  }
  return print_lesson_listing(kernels.front(), options.sass, options.format, out, err);
}

namespace {

nlohmann::json learner_resources_json(const lab::Exercise& exercise, const lab::LearnerListing& l,
                                      const lab::CompiledFeedback& feedback) {
  nlohmann::json row = {{"exercise", exercise.id},
                        {"kernel", exercise.kernel_name},
                        {"symbol", l.symbol},
                        {"arch", l.arch_name()}};
  if (l.report) {
    row["registers"] = l.report->registers;
    row["barriers"] = l.report->barriers;
    row["shared_bytes"] = l.report->shared_bytes;
    row["stack_bytes"] = l.report->stack_bytes;
    row["spill_store_bytes"] = l.report->spill_store_bytes;
    row["spill_load_bytes"] = l.report->spill_load_bytes;
  }
  row["spill_lines"] = feedback.spill_lines;
  if (feedback.occupancy) {
    row["occupancy"] = {{"gpu", feedback.occupancy_gpu},
                        {"block_threads", feedback.occupancy->block_threads},
                        {"fraction", feedback.occupancy->fraction()},
                        {"limit", std::string(to_string(feedback.occupancy->limit))}};
  }
  row["warnings"] = feedback.warnings;
  if (const compiled::SassFunction* f = l.sass_function()) {
    const compiled::SassSummary summary = compiled::summarize(*f);
    row["instructions"] = summary.instructions;
    for (const InstructionKind kind : kCountedKinds) row[column_name(kind)] = summary.count(kind);
  } else {
    row["sass_unavailable"] = l.sass_unavailable;
  }
  return row;
}

void print_learner_resources(const lab::Exercise& exercise, const lab::LearnerListing& l,
                             const lab::CompiledFeedback& feedback, std::ostream& out) {
  out << exercise.kernel_name << " (" << l.arch_name() << ", NVRTC)\n";
  if (l.report) {
    out << "  registers a thread   " << l.report->registers << "\n"
        << "  static shared memory " << l.report->shared_bytes << " bytes a block\n"
        << "  stack frame          " << l.report->stack_bytes << " bytes a thread\n"
        << "  spills               " << l.report->spill_store_bytes << " bytes stored, "
        << l.report->spill_load_bytes << " bytes loaded a thread\n"
        << "  barriers             " << l.report->barriers << "\n";
  }
  if (feedback.occupancy) {
    out << "  occupancy            "
        << static_cast<int>(feedback.occupancy->fraction() * 100.0 + 0.5) << " % at "
        << feedback.occupancy->block_threads << " threads a block, set by "
        << to_string(feedback.occupancy->limit) << " (modelled on an " << feedback.occupancy_gpu
        << ")\n";
  }
  if (const compiled::SassFunction* f = l.sass_function()) {
    const compiled::SassSummary summary = compiled::summarize(*f);
    out << "  instructions         " << summary.instructions << " (";
    bool first = true;
    for (const InstructionKind kind : kCountedKinds) {
      if (summary.count(kind) == 0) continue;
      out << (first ? "" : ", ") << summary.count(kind) << ' ' << compiled::kind_name(kind);
      first = false;
    }
    out << ")\n";
  } else {
    out << "  SASS: " << l.sass_unavailable << "\n";
  }
  for (const std::string& warning : feedback.warnings) out << "warning: " << warning << "\n";
}

}  // namespace

Status check_lab_inspect_options(const LabInspectOptions& options) {
  if (lab::find_exercise(options.exercise) == nullptr) {
    return Error{ErrorKind::kInvalidArgument, "--exercise: no exercise '" + options.exercise +
                                                  "' (threadlab lab list shows them)"};
  }
  if (options.format != "table" && options.format != "json") {
    return Error{ErrorKind::kInvalidArgument,
                 "--format: \"" + options.format + "\" is not table or json"};
  }
  if (static_cast<int>(options.sass) + static_cast<int>(options.ptx) +
          static_cast<int>(options.resources) >
      1) {
    return Error{ErrorKind::kInvalidArgument, "--sass, --ptx and --resources: pick one"};
  }
  if (options.ptx && options.format == "json") {
    return Error{ErrorKind::kInvalidArgument, "--ptx prints text: no --format json"};
  }
  if (!options.arch.empty()) {
    if (Result<int> arch = lab::parse_arch(options.arch); !arch) return arch.error();
  }
  return Status::ok();
}

int command_lab_inspect(const LabInspectOptions& options, std::ostream& out, std::ostream& err) {
  if (const Status checked = check_lab_inspect_options(options); !checked) {
    return fail(err, checked.message(), kExitUsage);
  }
  const lab::Exercise& exercise = *lab::find_exercise(options.exercise);
  const int arch = options.arch.empty() ? lab::kDefaultInspectArch : *lab::parse_arch(options.arch);
  Result<std::string> source = read_submission(options.file);
  if (!source) return fail(err, source.error().message, kExitUsage);
  lab::LabOptions lab;
  lab.sandbox = options.sandbox;
  lab.source_name = std::filesystem::path(options.file).filename().string();
  Result<lab::LearnerListing> listing = lab::inspect_submission(exercise, *source, lab, arch);
  if (!listing) {
    if (listing.error().kind == ErrorKind::kParseError) {
      // The compiler's log, then the one-line reason; its lines name the learner's file.
      const std::string& message = listing.error().message;
      const std::size_t newline = message.find('\n');
      if (newline != std::string::npos) err << message.substr(newline + 1) << '\n';
      return fail(err, options.file + " does not compile", kExitUsage);
    }
    return fail(err, "lab inspect: " + listing.error().message, kExitFailure);
  }
  // The listings name the learner's file as NVRTC saw it, kernel.cu: the learner's own name
  // instead, with the Lab's prelude (threadlab_lab.cuh) as it is.
  for (std::vector<std::string>* files : {&listing->sass.files, &listing->ptx.files}) {
    for (std::string& file : *files) {
      if (file == "kernel.cu") file = lab.source_name;
    }
  }
  const auto learner_line = [&](std::string_view file, int line) {
    if (file == lab.source_name) return line_of(listing->source, line);
    if (file == "threadlab_lab.cuh") return line_of(lab::lab_prelude_source(), line);
    return std::string();
  };
  ListingToPrint print;
  print.name = exercise.kernel_name;
  print.arch = listing->arch_name();
  print.registers = listing->report ? listing->report->registers : 0;
  print.source = learner_line;
  if (options.sass) {
    print.sass = &listing->sass;
    print.sass_function = listing->sass_function();
    if (print.sass_function == nullptr) {
      return fail(err, "lab inspect: no SASS: " + listing->sass_unavailable, kExitFailure);
    }
    return print_sass(print, options.format, out);
  }
  if (options.ptx) {
    print.ptx = &listing->ptx;
    print.ptx_function = listing->ptx_function();
    if (print.ptx_function == nullptr) {
      return fail(err, "lab inspect: NVRTC gave no PTX of " + exercise.kernel_name, kExitFailure);
    }
    return print_ptx(print, out);
  }
  const lab::CompiledFeedback feedback =
      lab::compiled_feedback(*listing, lab::largest_case_launch(exercise));
  if (options.format == "json") {
    out << learner_resources_json(exercise, *listing, feedback).dump(2) << '\n';
  } else {
    print_learner_resources(exercise, *listing, feedback, out);
  }
  return kExitOk;
}

}  // namespace tl::cli
