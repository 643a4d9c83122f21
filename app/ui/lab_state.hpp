#pragma once
// What the Kernel Lab's panels show, as plain data: the exercises and the learner's progress, the
// one open now, the check running or its verdict, the compiler's messages for the editor, and the
// mapping view of the learner's kernel. The LabController writes it; the panels read it and call
// the controller's commands. Nothing here touches OpenGL, ImGui or CUDA.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/color_scheme.hpp"
#include "core/editor/diagnostics.hpp"
#include "core/editor/line_diff.hpp"
#include "core/lab_progress.hpp"
#include "core/launch_config.hpp"
#include "core/mapping_layout.hpp"
#include "core/markdown/lesson_document.hpp"
#include "core/trace.hpp"
#include "lab/lab_check.hpp"
#include "mapping_camera.hpp"
#include "memory_request_view.hpp"

namespace tl::ui {

// One exercise in the picker.
struct LabExerciseEntry {
  std::string id;
  std::string title;
  std::string lesson_id;
  std::string lesson_title;  // empty where no lesson of this build has that id yet
  bool passed = false;
  std::optional<double> best_ms;
};

// The case of the last verdict drawn by the Lab's mapping view.
struct LabMappingState {
  bool valid = false;
  std::string error;  // why the case cannot be drawn
  std::size_t case_index = 0;
  std::string case_label;
  bool case_passed = false;
  DataShape shape;
  LaunchConfig config;
  MappingLayout layout;
  std::uint64_t wrong = 0;         // elements marked wrong (outlined in red)
  std::uint64_t unwritten = 0;     // never written
  std::uint64_t written_more = 0;  // written twice or more
  // Threads that accessed outside an array; those past the data are drawn hatched orange.
  std::uint64_t threads_outside = 0;
  ColorBy color_by = ColorBy::kBlock;
  MappingCamera camera;  // zoom and pan, or fitted to the panel
  // Under the mouse: the cell, its decoded record, whether it is a wrong element, and for a
  // thread past the data whether it accessed outside an array.
  struct Hover {
    CellHit hit;
    std::optional<DecodedTrace> record;
    bool wrong = false;
    bool outside = false;
  };
  std::optional<Hover> hover;
};

// The check in the background, if any.
struct LabCheckProgress {
  bool running = false;
  bool run_only = false;  // a Run (the example case), not the hidden checks
  std::string exercise_id;
  double seconds = 0;  // since it started, refreshed every frame
};

// The Memory panel: a passing kernel's access lines with their badges and its access budgets,
// worked out by the controller from the verdict's memory findings (lab/memory_findings.hpp) when
// it arrives, and one warp's request of the selected line laid out for its picture, as the lesson
// workspace's Memory tab draws it (memory_request_view.hpp).
struct LabMemoryState {
  std::vector<lab::MemoryLine> lines;
  std::string scope;        // what was recorded, whether extrapolated, whose model
  std::string unavailable;  // why there is no table (also: "recorded once a check passes")
  std::vector<lab::LoadBudgetNote> budgets;  // per input array: loads per element per block
  std::size_t line = 0;                      // the selected line (index into lines)
  std::optional<MemoryRequestView> request;  // one of its requests, drawn
  std::string no_picture;                    // why the selected line has none, if it has none
};

// The Compiled panel: what NVRTC made of a passing kernel (lab/compiled_feedback.hpp), in words
// the controller wrote when the verdict arrived: its registers, spills and occupancy, and the
// warnings (spills with their lines, occupancy held low by registers or shared memory).
struct LabCompiledState {
  std::string summary;  // lab::compiled_summary; empty when there is nothing to show
  std::vector<std::string> warnings;
  std::string unavailable;  // why there is no word (no NVRTC, not passed yet)
  std::vector<int> spill_lines;
  bool has_listing = false;  // LabController::compiled_view() holds the kernel's listings
};

struct LabState {
  std::vector<LabExerciseEntry> exercises;  // every registered exercise, in lesson order
  std::string lesson_id;                    // the lesson the window shows
  std::size_t lesson_exercises = 0;         // of which belong to that lesson
  std::string current;                      // the exercise open in the Lab; empty when none
  std::string statement_title;
  markdown::Document statement;  // the exercise's statement, parsed
  std::string statement_error;

  // The block size control, where the exercise lets the learner choose it.
  bool block_is_fixed = true;
  std::string block_text;
  std::string block_problem;  // why block_text is not a usable block
  // The grid control: empty text lets every case size its own grid; a grid applies to every case
  // of a Run or a Check (too few blocks shows as elements nobody wrote).
  std::string grid_text;
  std::string grid_problem;  // why grid_text is not a usable grid

  // Overall progress: exercises passed of all registered ("3 of 15 passed"), and of this lesson's.
  std::size_t passed_total = 0;
  std::size_t passed_in_lesson = 0;

  // The ladder of hints: after a failed check one more at a time, then the solution.
  std::size_t hints_total = 0;                  // the exercise's hints
  std::vector<markdown::Document> hints_shown;  // those the learner revealed, in order
  bool can_show_hint = false;                   // a failed check, and a hint not yet shown
  // The current exercise's last verdict from an earlier session, in words, until this session
  // has one of its own.
  std::optional<LastVerdict> earlier_verdict;

  bool showing_solution = false;
  // After a failed check of this exercise, and once every hint was shown.
  bool can_show_solution = false;
  // The learner's code beside the solution, line by line (core/editor/line_diff.hpp), while asked
  // for; their code is never changed by it.
  bool showing_diff = false;
  std::vector<editor::DiffLine> diff;
  std::string backend;  // where a check runs: "GPU" or "emulator"

  LabCheckProgress check;
  // The current exercise's last verdict (shared: its traces can be megabytes).
  std::shared_ptr<const lab::CheckVerdict> verdict;
  std::vector<editor::Diagnostic> diagnostics;  // the verdict's compiler messages about kernel.cu
  // Of the verdict's messages, those whose line was edited since the check (no longer marked).
  std::size_t diagnostics_gone = 0;
  LabMappingState mapping;
  LabMemoryState memory;  // the current exercise's
  LabCompiledState compiled;

  // The editor's share of the editor and verdict columns, as the learner set the splitter (0:
  // lab_layout.hpp's default). The verdict column is closed until a check runs or has a verdict.
  float code_share = 0;
  // Long lines wrap to the editor's width (a kernel's signature is wider than a laptop's column);
  // the toolbar's "wrap" turns it off for a horizontal scroll instead.
  bool soft_wrap = true;

  std::string storage_problem;  // the last failure to read or write the progress files
  std::string file_message;     // the last Open… or Save as…, done
  // The Open… / Save as… dialog: a path typed into a field (ImGui 1.86 has no file dialog). A file
  // already there is replaced only after a second, explicit yes (`confirm_replace`).
  struct FileDialog {
    bool open = false;
    bool saving = false;  // Save as…; else Open…
    std::string path;
    bool confirm_replace = false;  // the file is there: the next submit replaces it
    std::string problem;           // why the last submit did nothing
  };
  FileDialog file_dialog;
  std::uint64_t checks_finished = 0;  // counts verdicts received, so views and tests see a new one
};

}  // namespace tl::ui
