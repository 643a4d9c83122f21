#pragma once
// What the lesson workspace's Memory tab shows, as plain data: the lesson's kernels recorded on
// the emulator (lab/lesson_memory.hpp), each one's per-line table, and one warp's request of the
// selected line laid out for its picture (memory_request_view.hpp). The controller
// (lesson_memory_controller.hpp) writes it; the panel (panels/memory_panel.cpp) only draws it.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/dim3.hpp"
#include "core/kernel_counters.hpp"
#include "core/launch_config.hpp"
#include "core/lessons/lesson_params.hpp"
#include "core/memory/memory_model.hpp"
#include "core/memory/request_picture.hpp"
#include "core/memory/warp_requests.hpp"
#include "memory_request_view.hpp"

namespace tl::ui {

// One row of a kernel's per-line table.
struct MemoryTabRow {
  memory::LineTotals totals;
  std::string source;                 // the line's text in the kernel's .cuh, trimmed
  std::string access;                 // "global load", "shared store"
  std::string arrays;                 // what the row's requests touch: "a, b", "c", "shared memory"
  std::string badge;                  // "4 sectors / request — ideal", "8-way bank conflict"
  bool ideal = false;                 // the fewest sectors, or no bank conflict
  std::vector<std::size_t> requests;  // indices into MemoryTabKernel::requests, recorded order
};

// Where a kernel array lay during the recording, to name the element a lane touched.
using MemoryTabArray = MemoryViewArray;

struct MemoryTabKernel {
  std::string label;   // the lesson's name for it: "x → column (coalesced)"
  std::string kernel;  // "matrix_add_x_to_col", with its template arguments
  std::string source;  // the .cuh its lines are of
  LaunchConfig config;
  std::string scope;        // which blocks were recorded, and whether the counts are extrapolated
  std::string scope_short;  // the same in a few words, for the line beside the kernels' names
  std::string note;         // why some lines are unknown, if any are
  // The GPU's own figures beside the model's (the timed run's hardware counters of the same
  // kernel at the same settings), or why there are none; empty on the emulator.
  std::string counted_key;                 // the kernel's row among the lesson's counted kernels
  MemoryInstructionCounters model_counts;  // the model's, for the whole grid
  std::string measured;
  bool measured_read = false;  // `measured` holds counters, not a reason
  std::vector<MemoryTabRow> rows;
  std::vector<memory::WarpRequest> requests;
  std::vector<MemoryTabArray> arrays;
};

struct LessonMemoryState {
  // What the shown kernels were recorded for (or are being recorded for, while `recording`).
  std::string lesson_id;
  lessons::ParamValues values;
  bool recording = false;
  std::size_t kernels_done = 0;   // of the recording in flight
  std::size_t kernels_total = 0;  // of the recording in flight
  std::string recording_kernel;   // the one being built and run now
  double seconds = 0;             // since the recording started, refreshed every frame
  bool cancelled = false;         // the learner stopped the last recording
  // The lesson's settings differ from what the shown kernels were recorded with (a new recording
  // is on its way, or was cancelled): the table is drawn greyed.
  bool stale = false;
  std::string unavailable;  // why this lesson has no table: drawn greyed in place of it
  std::string error;        // why the last recording failed
  std::vector<MemoryTabKernel> kernels;
  std::size_t kernel = 0;  // the selected kernel
  std::size_t row = 0;     // the selected row of its table
  std::optional<MemoryRequestView> request;
  std::uint64_t recordings_finished = 0;  // counts results received, so tests and views see one
};

}  // namespace tl::ui
