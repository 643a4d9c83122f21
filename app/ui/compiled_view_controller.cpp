#include "compiled_view_controller.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "compiled_kernels.hpp"
#include "core/format.hpp"
#include "lab/lab_inspect.hpp"
#include "lesson_texts.hpp"

namespace tl::ui {
namespace {

using compiled::InstructionKind;

std::string file_name(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::string plural(std::size_t n, std::string_view one) {
  return format_count(n) + " " + std::string(one) + (n == 1 ? "" : "s");
}

std::string summary_text(const CompiledKernelEntry& k) {
  const compiled::SassSummary& s = k.summary;
  std::string text = plural(static_cast<std::size_t>(k.resources.registers), "register") +
                     " a thread · " + format_count(k.resources.shared_bytes) +
                     " B static shared memory a block · ";
  if (k.resources.local_bytes == 0 && s.spill_stores() == 0 && s.spill_loads() == 0) {
    text += "no local memory, no spills";
  } else {
    text += format_count(k.resources.local_bytes) + " B local memory a thread, " +
            plural(s.spill_stores(), "spill store") + " and " +
            plural(s.spill_loads(), "spill load");
  }
  text += " · " + plural(s.instructions, "instruction") + " (" + k.arch + ")";
  std::string kinds;
  for (const InstructionKind kind :
       {InstructionKind::kGlobalLoad, InstructionKind::kGlobalStore, InstructionKind::kSharedLoad,
        InstructionKind::kSharedStore, InstructionKind::kAsyncCopy, InstructionKind::kBarrier,
        InstructionKind::kShuffle, InstructionKind::kAtomic, InstructionKind::kTensorCore,
        InstructionKind::kSpecialFunction}) {
    if (s.count(kind) == 0) continue;
    kinds += (kinds.empty() ? "" : ", ") + format_count(s.count(kind)) + " " +
             std::string(compiled::kind_name(kind));
  }
  if (!kinds.empty()) text += ": " + kinds;
  return text;
}

}  // namespace

void CompiledViewController::shown(std::string_view lesson_id, std::string_view lesson_folder,
                                   std::string_view current_kernel) {
  if (state_.lesson_id == lesson_id) {
    if (current_kernel != current_kernel_) {
      current_kernel_ = std::string(current_kernel);
      for (std::size_t i = 0; i < state_.kernels.size(); ++i) {
        if (state_.kernels[i].timed_name == current_kernel_) select_kernel(i);
      }
    }
    return;
  }
  current_kernel_ = std::string(current_kernel);
  learner_.reset();
  state_ = CompiledViewState{};
  state_.lesson_id = std::string(lesson_id);
  units_.clear();
  if (compiled_kernels::units().empty()) {
    state_.unavailable = "No compiled listings: " + std::string(compiled_kernels::unavailable());
    return;
  }
  for (const compiled_kernels::CompiledUnit* unit :
       compiled_kernels::units_of_lesson(lesson_folder)) {
    const std::size_t index = units_.size();
    units_.push_back({std::string(unit->arch), compiled::parse_sass(unit->sass),
                      compiled::parse_ptx(unit->ptx)});
    for (const compiled::ResourceUsage& r :
         compiled::parse_resource_usage(unit->resources, unit->arch)) {
      CompiledKernelEntry entry;
      entry.symbol = r.symbol;
      entry.name = compiled::short_name(r.symbol);
      entry.arch = std::string(unit->arch);
      entry.traced = compiled::is_traced_instance(entry.name);
      if (!entry.traced) entry.timed_name = compiled::timed_kernel_name(entry.name);
      entry.resources = r;
      entry.unit = index;
      if (const compiled::SassFunction* f = units_.back().sass.find(r.symbol)) {
        entry.summary = compiled::summarize(*f);
      }
      state_.kernels.push_back(std::move(entry));
    }
  }
  if (state_.kernels.empty()) {
    state_.unavailable = "This lesson has no GPU kernels of its own.";
    return;
  }
  // The timed kernels first (what the lesson measures), their traced twins after.
  std::stable_sort(state_.kernels.begin(), state_.kernels.end(),
                   [](const CompiledKernelEntry& a, const CompiledKernelEntry& b) {
                     if (a.traced != b.traced) return !a.traced;
                     return a.name < b.name;
                   });
  for (std::size_t i = 0; i < state_.kernels.size(); ++i) {
    const CompiledKernelEntry& k = state_.kernels[i];
    if (k.traced) continue;
    CompiledComparisonRow row;
    row.kernel = i;
    row.name = k.timed_name.empty() ? k.name : k.timed_name;
    row.registers = k.resources.registers;
    row.shared_bytes = k.resources.shared_bytes;
    row.spills = k.summary.spill_stores() + k.summary.spill_loads();
    row.instructions = k.summary.instructions;
    row.global_loads = k.summary.count(InstructionKind::kGlobalLoad);
    row.global_loads_128 = k.summary.global_loads_128;
    row.special_functions = k.summary.count(InstructionKind::kSpecialFunction);
    row.shared_loads = k.summary.count(InstructionKind::kSharedLoad);
    row.multiply_adds = k.summary.multiply_adds;
    if (row.shared_loads > 0) {
      row.multiply_adds_per_shared_load =
          static_cast<double>(row.multiply_adds) / static_cast<double>(row.shared_loads);
    }
    state_.side_by_side.push_back(std::move(row));
  }
  std::size_t first = 0;
  for (std::size_t i = 0; i < state_.kernels.size(); ++i) {
    if (!current_kernel_.empty() && state_.kernels[i].timed_name == current_kernel_) first = i;
  }
  select_kernel(first);
}

void CompiledViewController::select_kernel(std::size_t index) {
  if (index >= state_.kernels.size()) return;
  state_.kernel = index;
  lay_out_kernel();
}

void CompiledViewController::lay_out_kernel() {
  const CompiledKernelEntry& k = state_.kernels[state_.kernel];
  state_.summary = summary_text(k);
  state_.spills = k.summary.spill_stores() + k.summary.spill_loads() > 0;
  state_.source.clear();
  state_.sass.clear();
  state_.ptx.clear();
  state_.ptx_unavailable.clear();
  state_.sass_unavailable.clear();
  state_.source_path.clear();
  state_.selected_line = 0;
  state_.selected_instruction.reset();
  // A file of the listings is the source shown: the learner's own (NVRTC names it kernel.cu, and
  // `lab inspect` may have renamed it), or, for a lesson, the one chosen below.
  const auto is_learners = [&](std::string_view path) {
    return learner_ != nullptr && (path == "kernel.cu" || path == learner_->source_name);
  };
  const compiled::SassListing& listing = units_[k.unit].sass;
  const compiled::SassFunction* f = listing.find(k.symbol);
  if (f == nullptr && learner_ == nullptr) return;
  int shown_file = -1;
  if (learner_ != nullptr) {
    state_.source_path = learner_->source_name;
    for (std::size_t i = 0; i < listing.files.size(); ++i) {
      if (is_learners(listing.files[i])) shown_file = static_cast<int>(i);
    }
    if (f == nullptr) state_.sass_unavailable = learner_->sass_unavailable;
  } else {
    // The file most instructions come from, the trace helper's only if alone.
    std::map<int, std::size_t> per_file;
    for (const compiled::SassInstruction& i : f->instructions) {
      if (i.file >= 0) ++per_file[i.file];
    }
    std::size_t most = 0;
    for (const auto& [file, count] : per_file) {
      const bool helper = listing.files[static_cast<std::size_t>(file)].ends_with("trace.cuh");
      const std::size_t weight = helper ? 0 : count;
      if (shown_file < 0 || weight > most) {
        shown_file = file;
        most = weight;
      }
    }
    if (shown_file >= 0) state_.source_path = listing.files[static_cast<std::size_t>(shown_file)];
  }
  std::map<int, std::size_t> per_line;
  for (std::size_t n = 0; f != nullptr && n < f->instructions.size(); ++n) {
    const compiled::SassInstruction& i = f->instructions[n];
    CompiledSassRow row;
    row.index = n;
    char offset[16];
    std::snprintf(offset, sizeof offset, "%04x", i.offset);
    row.offset = offset;
    row.text = i.text;
    row.kind = i.kind;
    row.gloss = compiled::gloss(i.opcode);
    if (i.file >= 0) {
      row.where =
          file_name(listing.files[static_cast<std::size_t>(i.file)]) + ":" + std::to_string(i.line);
    }
    if (i.file == shown_file && shown_file >= 0) {
      row.line = i.line;
      ++per_line[i.line];
    }
    state_.sass.push_back(std::move(row));
  }
  if (const compiled::PtxFunction* p = units_[k.unit].ptx.find(k.symbol)) {
    const compiled::PtxListing& ptx = units_[k.unit].ptx;
    for (const compiled::PtxLine& l : p->lines) {
      CompiledPtxRow row;
      row.text = l.text;
      // The PTX numbers its files apart from the SASS: the shown file is matched by its path.
      if (l.file >= 0) {
        const std::string& path = ptx.files[static_cast<std::size_t>(l.file)];
        if (learner_ != nullptr
                ? is_learners(path)
                : !state_.source_path.empty() && path.ends_with(state_.source_path)) {
          row.line = l.line;
        }
      }
      state_.ptx.push_back(std::move(row));
    }
  } else {
    state_.ptx_unavailable = "No PTX of " + k.arch +
                             " in this build: it keeps the PTX of the last architecture it "
                             "compiles for only (the SASS of every one).";
  }
  std::optional<std::string_view> text;
  if (learner_ != nullptr) {
    text = learner_->source;
  } else {
    text = lesson_texts::find_text(state_.source_path);
  }
  if (text) {
    std::string_view rest = *text;
    int line = 1;
    while (!rest.empty()) {
      const std::size_t end = rest.find('\n');
      const std::string_view l = rest.substr(0, end);
      const auto count = per_line.find(line);
      state_.source.push_back({line, std::string(l), count == per_line.end() ? 0 : count->second});
      if (end == std::string_view::npos) break;
      rest.remove_prefix(end + 1);
      ++line;
    }
  }
  // The kernel's first line that made instructions, so that both panes open on it.
  for (const CompiledSassRow& row : state_.sass) {
    if (row.line > 0) {
      select_line(row.line);
      return;
    }
  }
  for (const CompiledPtxRow& row : state_.ptx) {
    if (row.line > 0) {
      select_line(row.line);
      return;
    }
  }
}

void CompiledViewController::show_learner(std::shared_ptr<const lab::LearnerListing> listing) {
  learner_ = std::move(listing);
  current_kernel_.clear();
  state_ = CompiledViewState{};
  units_.clear();
  if (learner_ == nullptr) return;
  units_.push_back({learner_->arch_name(), learner_->sass, learner_->ptx});
  CompiledKernelEntry entry;
  entry.symbol = learner_->symbol;
  entry.name = compiled::short_name(learner_->symbol);
  entry.timed_name = entry.name;
  entry.arch = learner_->arch_name();
  if (learner_->report) {
    entry.resources.registers = learner_->report->registers;
    entry.resources.stack_bytes = learner_->report->stack_bytes;
    entry.resources.shared_bytes = learner_->report->shared_bytes;
  }
  if (const compiled::SassFunction* f = learner_->sass_function()) {
    entry.summary = compiled::summarize(*f);
  }
  state_.kernels.push_back(std::move(entry));
  select_kernel(0);
}

void CompiledViewController::light_rows() {
  for (CompiledSassRow& row : state_.sass) {
    row.lit = state_.selected_line > 0 && row.line == state_.selected_line;
  }
  state_.first_lit_ptx.reset();
  for (std::size_t i = 0; i < state_.ptx.size(); ++i) {
    CompiledPtxRow& row = state_.ptx[i];
    row.lit = state_.selected_line > 0 && row.line == state_.selected_line;
    if (row.lit && !state_.first_lit_ptx) state_.first_lit_ptx = i;
  }
}

void CompiledViewController::show_listing(CompiledListingShown listing) {
  if (state_.listing == listing) return;
  state_.listing = listing;
  ++state_.selections;  // scroll the new pane to the selected line
}

void CompiledViewController::select_ptx_row(std::size_t row) {
  if (row >= state_.ptx.size() || state_.ptx[row].line <= 0) return;
  select_line(state_.ptx[row].line);
}

void CompiledViewController::select_line(int line) {
  state_.selected_line = line;
  state_.selected_instruction.reset();
  for (std::size_t i = 0; i < state_.sass.size(); ++i) {
    if (line > 0 && state_.sass[i].line == line) {
      state_.selected_instruction = i;
      break;
    }
  }
  ++state_.selections;
  light_rows();
}

void CompiledViewController::select_instruction(std::size_t row) {
  if (row >= state_.sass.size()) return;
  state_.selected_line = state_.sass[row].line;
  state_.selected_instruction = row;
  ++state_.selections;
  light_rows();
}

}  // namespace tl::ui
