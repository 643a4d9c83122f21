#pragma once
// The lesson workspace's Compiled tab: what nvcc made of the current lesson's kernels, from the
// listings the build embedded (lessons/compiled_kernels.hpp, parsed by core/compiled/). Per
// kernel its resources and instructions by kind; its source file beside its SASS, a source line
// lighting up the instructions made from it and an instruction picking its line. All here is
// plain data the panel (panels/compiled_panel.cpp) draws; no ImGui.
//
// A lesson's listings are parsed when the tab is first shown for it (the matrix product's SASS is
// about 45,000 lines: a few tens of milliseconds), then kept until another lesson is shown.

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/compiled/compiled_listing.hpp"

namespace tl::ui {

struct CompiledKernelEntry {
  std::string name;        // "tl::gpu::matmul_tiled<16, tl::Untraced>"
  std::string timed_name;  // "matmul_tiled<16>", the listing name (timed_kernel_name); "" if traced
  std::string symbol;      // mangled
  std::string arch;        // "sm_90"
  bool traced = false;     // the mapping view's twin of a timed kernel
  compiled::ResourceUsage resources;
  compiled::SassSummary summary;
  std::size_t unit = 0;  // index into CompiledViewController's parsed units
};

struct CompiledSourceRow {
  int line = 0;
  std::string text;
  std::size_t instructions = 0;  // of the selected kernel made from this line
};

struct CompiledSassRow {
  std::size_t index = 0;  // into the kernel's instructions
  std::string offset;     // "01e0"
  std::string text;       // "@P0 LDG.E R7, desc[UR6][R6.64]"
  compiled::InstructionKind kind = compiled::InstructionKind::kOther;
  std::string where;  // "matrix_add.cuh:40", or "trace.cuh:20" for another file's line
  int line = 0;       // in the source shown, 0 when from another file or without line information
  bool lit = false;   // made from the selected source line
  std::string_view gloss;
};

// A line of the kernel's PTX (the virtual ISA nvcc hands to ptxas), with the source line of the
// last `.loc` above it.
struct CompiledPtxRow {
  std::string text;
  int line = 0;      // in the source shown, 0 when from another file or before any .loc
  bool lit = false;  // made from the selected source line
};

// Which listing sits beside the source; or, instead of both, the lesson's timed kernels side by
// side.
enum class CompiledListingShown { kSass, kPtx, kSideBySide };

// One timed kernel of the lesson in the side-by-side table: the figures that set a matrix product
// rung's pace (registers against the work each shared-memory load feeds).
struct CompiledComparisonRow {
  std::size_t kernel = 0;  // index into CompiledViewState::kernels
  std::string name;        // as the occupancy view names it: "matmul_tiled<16>"
  int registers = 0;
  int shared_bytes = 0;
  std::size_t spills = 0;  // local stores and loads
  std::size_t instructions = 0;
  std::size_t global_loads = 0;
  std::size_t global_loads_128 = 0;  // of them, 16 bytes a thread (float4)
  std::size_t shared_loads = 0;
  std::size_t special_functions = 0;  // MUFU
  std::size_t multiply_adds = 0;
  // multiply_adds / shared_loads; 0 when the kernel reads no shared memory
  double multiply_adds_per_shared_load = 0;
};

struct CompiledViewState {
  std::string lesson_id;
  std::string unavailable;  // why there is nothing to show (no listings, no GPU kernels)
  std::vector<CompiledKernelEntry> kernels;
  std::size_t kernel = 0;
  // The selected kernel's figures in words: "32 registers a thread · 3,072 B shared a block ·
  // no local memory, no spills · 120 instructions: 2 global loads, ...".
  std::string summary;
  bool spills = false;
  std::string source_path;  // the file most of its instructions come from
  std::vector<CompiledSourceRow> source;
  std::vector<CompiledSassRow> sass;
  CompiledListingShown listing = CompiledListingShown::kSass;
  std::vector<CompiledPtxRow> ptx;
  std::string ptx_unavailable;   // why the kernel has no PTX here (the build keeps one arch's)
  std::string sass_unavailable;  // the learner's kernel without a disassembler: why no SASS
  std::optional<std::size_t> first_lit_ptx;  // the selected line's first PTX row, to scroll to
  std::vector<CompiledComparisonRow> side_by_side;  // every timed kernel, in the kernels' order
  int selected_line = 0;                            // 0: none
  std::optional<std::size_t> selected_instruction;  // index into `sass`
  std::uint64_t selections = 0;  // counts selections, so the panel scrolls once to a new one
};

}  // namespace tl::ui

namespace tl::lab {
struct LearnerListing;
}

namespace tl::ui {

class CompiledViewController {
 public:
  // The Lab's use: one kernel, the learner's, from what NVRTC and the disassembler made of it in
  // the worker (lab/lab_inspect.hpp); its source is the listing's own. Replaces any lesson's.
  void show_learner(std::shared_ptr<const lab::LearnerListing> listing);
  [[nodiscard]] bool showing_learner() const { return learner_ != nullptr; }

  [[nodiscard]] const CompiledViewState& state() const { return state_; }
  // The tab is on show with this lesson (its id and folder): parses its listings if they are not
  // this lesson's. `current_kernel` is the kernel the lesson's settings time, by the name the
  // listing gives it (compute::Device::kernel_listing_name: "matmul_tiled<16>", or
  // "matmul_wmma<WmmaFp16>" for the occupancy view's "matmul_wmma_fp16"): selected when it
  // changes. Cheap otherwise: the panel calls it every frame it draws.
  void shown(std::string_view lesson_id, std::string_view lesson_folder,
             std::string_view current_kernel = {});
  void select_kernel(std::size_t index);
  // A line of the source shown: its instructions light up (0 clears).
  void select_line(int line);
  // An instruction (index into state().sass): it and its source line are selected.
  void select_instruction(std::size_t row);
  // SASS or PTX beside the source; the selected line stays lit in either.
  void show_listing(CompiledListingShown listing);
  // A PTX line (index into state().ptx): its source line is selected.
  void select_ptx_row(std::size_t row);

 private:
  struct Unit {
    std::string arch;
    compiled::SassListing sass;
    compiled::PtxListing ptx;  // empty where the build kept no PTX of this architecture
  };
  void lay_out_kernel();
  void light_rows();

  CompiledViewState state_;
  std::vector<Unit> units_;
  std::shared_ptr<const lab::LearnerListing> learner_;
  std::string current_kernel_;
};

}  // namespace tl::ui
