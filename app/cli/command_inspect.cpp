// `threadlab inspect --lesson L [--kernel K] [--sass|--ptx|--resources] [--arch sm_XX]`: what nvcc
// made of a lesson's kernels, from the listings the build embedded (lessons/compiled_kernels.hpp),
// with or without a GPU: per kernel its registers, shared and local memory, spills and its
// instructions by kind; or one kernel's SASS or PTX with each source line above the instructions
// made from it.

#include <algorithm>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "commands.hpp"
#include "compiled_kernels.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "core/compiled/compiled_listing.hpp"
#include "core/format.hpp"
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
    for (const compiled::ResourceUsage& r : compiled::parse_resource_usage(unit->resources)) {
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

// The source line `line` of `file` (a path relative to the project root), trimmed, where the
// program embeds that file.
std::string source_text(std::string_view file, int line) {
  const auto text = lesson_texts::find_text(file);
  if (!text || line <= 0) return {};
  std::string_view rest = *text;
  for (int i = 1; i < line && !rest.empty(); ++i) {
    const std::size_t end = rest.find('\n');
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
  }
  std::string_view l = rest.substr(0, rest.find('\n'));
  while (!l.empty() && (l.front() == ' ' || l.front() == '\t')) l.remove_prefix(1);
  return std::string(l);
}

std::string file_name(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

constexpr InstructionKind kCountedKinds[] = {
    InstructionKind::kGlobalLoad,  InstructionKind::kGlobalStore, InstructionKind::kSharedLoad,
    InstructionKind::kSharedStore, InstructionKind::kAsyncCopy,   InstructionKind::kBarrier,
    InstructionKind::kShuffle,     InstructionKind::kAtomic,      InstructionKind::kTensorCore};

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
                            {"instructions", k.summary.instructions}};
      for (const InstructionKind kind : kCountedKinds)
        row[column_name(kind)] = k.summary.count(kind);
      rows.push_back(row);
    }
    out << rows.dump(2) << '\n';
    return kExitOk;
  }
  if (format == "csv") {
    out << "kernel,unit,arch,registers,shared_bytes,local_bytes,stack_bytes,spill_stores,"
           "spill_loads,instructions";
    for (const InstructionKind kind : kCountedKinds) out << ',' << column_name(kind);
    out << '\n';
    for (const InspectedKernel& k : kernels) {
      out << csv_field(k.name) << ',' << k.unit->unit << ',' << k.unit->arch << ','
          << k.resources.registers << ',' << k.resources.shared_bytes << ','
          << k.resources.local_bytes << ',' << k.resources.stack_bytes << ','
          << k.summary.spill_stores() << ',' << k.summary.spill_loads() << ','
          << k.summary.instructions;
      for (const InstructionKind kind : kCountedKinds) out << ',' << k.summary.count(kind);
      out << '\n';
    }
    return kExitOk;
  }
  std::size_t width = 6;
  for (const InspectedKernel& k : kernels) width = std::max(width, display_width(k.name));
  out << std::left << std::setw(static_cast<int>(width)) << "kernel" << std::right
      << "  arch    regs  shared  local  spills st/ld  instr  LDG  STG  LDS  STS  BAR  tensor\n";
  for (const InspectedKernel& k : kernels) {
    out << k.name << std::string(width - display_width(k.name), ' ') << "  " << std::left
        << std::setw(6) << k.unit->arch << std::right << std::setw(6) << k.resources.registers
        << std::setw(8) << k.resources.shared_bytes << std::setw(7) << k.resources.local_bytes
        << std::setw(8) << k.summary.spill_stores() << '/' << std::left << std::setw(5)
        << k.summary.spill_loads() << std::right << std::setw(6) << k.summary.instructions
        << std::setw(5) << k.summary.count(InstructionKind::kGlobalLoad) << std::setw(5)
        << k.summary.count(InstructionKind::kGlobalStore) << std::setw(5)
        << k.summary.count(InstructionKind::kSharedLoad) << std::setw(5)
        << k.summary.count(InstructionKind::kSharedStore) << std::setw(5)
        << k.summary.count(InstructionKind::kBarrier) << std::setw(8)
        << k.summary.count(InstructionKind::kTensorCore) << '\n';
  }
  out << "registers per thread, static shared memory per block and local memory per thread in "
         "bytes (ptxas); spills: local stores/loads in the SASS; instructions by kind (nvdisasm)\n";
  return kExitOk;
}

int print_sass(const InspectedKernel& k, std::string_view format, std::ostream& out) {
  const compiled::SassListing listing = compiled::parse_sass(k.unit->sass);
  const compiled::SassFunction* f = listing.find(k.symbol);
  if (f == nullptr) return kExitFailure;
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
    out << nlohmann::json{{"kernel", k.name},
                          {"arch", std::string(k.unit->arch)},
                          {"instructions", rows}}
               .dump(2)
        << '\n';
    return kExitOk;
  }
  out << "// " << k.name << " (" << k.unit->arch << "): " << k.resources.registers << " registers, "
      << k.summary.instructions << " instructions\n";
  int file = -2;
  int line = -1;
  for (const compiled::SassInstruction& i : f->instructions) {
    if (i.file != file || i.line != line) {
      file = i.file;
      line = i.line;
      if (file >= 0) {
        const std::string& path = listing.files[static_cast<std::size_t>(file)];
        out << "\n  // " << file_name(path) << ':' << line << "  " << source_text(path, line)
            << '\n';
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

int print_ptx(const InspectedKernel& k, std::ostream& out, std::ostream& err) {
  if (k.unit->ptx.empty()) {
    return fail(err,
                "inspect: the build kept no PTX for " + std::string(k.unit->arch) +
                    " (only for the last architecture it compiled for); try --arch",
                kExitFailure);
  }
  const compiled::PtxListing listing = compiled::parse_ptx(k.unit->ptx);
  const compiled::PtxFunction* f = listing.find(k.symbol);
  if (f == nullptr) return fail(err, "inspect: no PTX of " + k.name, kExitFailure);
  int file = -2;
  int line = -1;
  for (const compiled::PtxLine& l : f->lines) {
    if (l.file >= 0 && (l.file != file || l.line != line)) {
      file = l.file;
      line = l.line;
      const std::string& path = listing.files[static_cast<std::size_t>(file)];
      out << "\t// " << file_name(path) << ':' << line << "  " << source_text(path, line) << '\n';
    }
    out << l.text << '\n';
  }
  return kExitOk;
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
  return options.sass ? print_sass(kernels.front(), options.format, out)
                      : print_ptx(kernels.front(), out, err);
}

}  // namespace tl::cli
