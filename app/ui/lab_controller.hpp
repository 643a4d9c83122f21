#pragma once
// The Kernel Lab in the window: the exercises of the current lesson, the learner's source in an
// editor model (autosaved per exercise under the XDG data directory), the check run in the
// background on the app's backend, its verdict, and the mapping view of the learner's kernel with
// its wrong elements marked. Owned by the AppController; panels read state() and call the
// commands. Needs the OpenGL context current on the calling thread (it owns a trace buffer and a
// mapping view of its own, so the lesson's mapping view is never disturbed).

#include <chrono>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "compiled_view_controller.hpp"
#include "core/editor/autosave.hpp"
#include "core/editor/text_model.hpp"
#include "core/lab_progress.hpp"
#include "lab/exercise.hpp"
#include "lab/lab_check.hpp"
#include "lab_state.hpp"
#include "mapping_view_controller.hpp"
#include "render/cell_marks.hpp"
#include "render/trace_buffer.hpp"
#include "ui/widgets/code_editor.hpp"

namespace tl::ui {

// Runs one check; called on a background thread. The app's is lab::check_submission; the GUI
// tests give one that needs no GPU and no worker.
using LabCheckFunction = std::function<lab::CheckVerdict(
    const lab::Exercise& exercise, const std::string& source, const lab::LabOptions& options)>;

struct LabControllerOptions {
  // Where progress and sources are kept; none: in memory only.
  std::optional<std::filesystem::path> folder = LabProgressStore::default_folder();
  LabCheckFunction check;  // null: lab::check_submission
  editor::AutosaveOptions autosave{};
};

// Which case of a verdict the mapping view draws: the first failing case that has a trace, else
// the largest passing one; none when no case came back with a trace.
[[nodiscard]] std::optional<std::size_t> case_to_draw(const lab::CheckVerdict& verdict);

// The exercise's known-wrong submission named `name` (its file's name without folder or .cu).
[[nodiscard]] const lab::KnownWrongSubmission* find_known_wrong(const lab::Exercise& exercise,
                                                                std::string_view name);

// Its source as the editor shows it: without the `// expect: ...` line the tests read.
[[nodiscard]] std::string known_wrong_source(const lab::KnownWrongSubmission& wrong);

class LabController {
 public:
  static Result<std::unique_ptr<LabController>> create(LabControllerOptions options);
  ~LabController();
  LabController(const LabController&) = delete;
  LabController& operator=(const LabController&) = delete;

  [[nodiscard]] const LabState& state() const { return state_; }
  // What NVRTC made of the current exercise's last passing kernel: its source beside its SASS or
  // PTX (the verdict column's Compiled section draws it; empty until a Check passes).
  [[nodiscard]] CompiledViewController& compiled_view() { return compiled_view_; }

  // The window's lesson changed: the Lab lists its exercises and opens the first of them (the
  // exercise open now stays where the lesson has none).
  void set_lesson(const std::string& lesson_id, bool gpu_backend);
  // The app's backend changed (the emulator took over after a fault): checks follow it.
  void set_gpu_backend(bool gpu_backend);
  // Opens an exercise; `remember`: the learner chose it, and the next session opens it again.
  void select_exercise(const std::string& id, bool remember = true);

  // The editor's text (the learner's source, or the read-only solution while it is shown). The
  // editor widget edits it; autosave and checks read it.
  editor::TextModel& editor_model();
  // What the editor widget keeps between frames for that text (one per model: the widget caches
  // its highlighting by the model's version).
  CodeEditorState& editor_state();
  // The learner's source now (not the solution).
  [[nodiscard]] std::string source() const;

  // Back to the starter, as one edit that Ctrl+Z undoes.
  void reset_to_starter();
  // One of the exercise's known-wrong submissions (`name`: its file under wrong/, without .cu), or
  // with "solution" the reference solution, in the editor as one undoable edit: a teacher showing
  // a common mistake, or a kernel that passes.
  Status load_known_wrong(const std::string& name);
  // The reference solution, read-only in place of the learner's source; only after a failed check.
  void show_solution(bool show);
  // The learner's source written to a file of their choosing, atomically. A file already there is
  // replaced only with `replace` (the window asks first): false, and nothing written, otherwise.
  Result<bool> save_source_as(const std::filesystem::path& path, bool replace);
  // A kernel file loaded into the editor (a regular UTF-8 file of at most 1 MiB), as one edit that
  // Ctrl+Z undoes: the code it replaces stays one undo away, and is autosaved no sooner than the
  // next edit would be.
  Status open_source(const std::filesystem::path& path);
  // The Open… / Save as… dialog (LabState::file_dialog): opened with a suggested path, the path as
  // typed, and submitted: Save as asks before it replaces a file (a first submit only sets
  // confirm_replace), Open loads the file; either closes the dialog once done, or says why not.
  void begin_file_dialog(bool saving);
  void set_file_dialog_path(std::string path);
  void submit_file_dialog();
  void close_file_dialog();
  // The next hint of the ladder, after a failed check (remembered between sessions).
  void show_next_hint();
  // The learner's code against the solution, line by line, while the solution may be shown; it
  // follows the learner's edits and changes nothing.
  void show_diff(bool show);
  // The learner's block, e.g. "256" or "16x16" (ignored where the exercise fixes it).
  void set_block(const std::string& text);

  // The learner's grid, e.g. "4" or "8x8", for every case; empty: each case's own.
  void set_grid(const std::string& text);
  // The splitter between the editor and the verdict: the editor's share (lab_layout.hpp).
  void set_code_share(float share) { state_.code_share = share; }
  // Soft wrap in the editor, on or off.
  void set_soft_wrap(bool wrap) { state_.soft_wrap = wrap; }

  // Starts the check of the current source in the background. False (and nothing started) while
  // one runs, or with nothing to check: one check at a time.
  bool check();
  // Runs the current source once on the exercise's example case (lab::LabOptions::run_only): the
  // mapping and the time, no hidden checks, nothing recorded as a try. Same rules as check().
  bool run();
  [[nodiscard]] bool checking() const { return pending_ != nullptr; }
  // Waits for the running check (at most `limit`), then collects it; for tests and scripts.
  void wait_for_check(std::chrono::milliseconds limit);

  // The mapping view of a verdict's case (a click in the case list).
  void show_case(std::size_t index);
  void set_color_by(ColorBy mode) { state_.mapping.color_by = mode; }
  void hover(std::optional<PixelPoint> pixel, Viewport viewport);
  void zoom(double factor, double pixel_x, double pixel_y);
  void pan(double dx, double dy);
  void fit_view();
  // Draws the case into the Lab's renderer at this size; returns the GL texture name.
  Result<std::uint32_t> render_mapping(Viewport viewport);
  // The last picture drawn, RGBA, top row first (for the tests).
  [[nodiscard]] Result<std::vector<std::uint8_t>> read_mapping_pixels() const {
    return mapping_->read_pixels();
  }

  // The Memory panel: the access line whose requests are drawn (its first full warp's first), and
  // which of the line's requests (clamped to those that came back).
  void select_memory_line(std::size_t index);
  void select_memory_request(std::size_t index);

  // Once per frame: autosave when due, the check's progress and its verdict.
  void update();
  // Saves the current source now if it changed (leaving an exercise, closing the app).
  void save_now();

 private:
  struct Session;
  struct PendingCheck;
  LabController() = default;
  Session& session(const std::string& id);
  Session* current_session();
  [[nodiscard]] const Session* current_session() const;
  void refresh_entries();
  void refresh_current();
  void receive(lab::CheckVerdict verdict, const std::string& exercise_id,
               const std::string& source);
  void build_mapping();
  bool start(bool run_only);
  void note_storage(const Status& status);
  double now_seconds() const;

  LabControllerOptions options_;
  std::unique_ptr<LabProgressStore> store_;
  std::map<std::string, std::unique_ptr<Session>, std::less<>> sessions_;
  std::shared_ptr<PendingCheck> pending_;
  bool gpu_backend_ = false;
  CompiledViewController compiled_view_;
  const void* compiled_listing_shown_ = nullptr;  // the listing compiled_view_ was given
  LabState state_;
  render::TraceBuffer trace_buffer_;
  render::CellMarks marks_;
  std::unique_ptr<MappingViewController> mapping_;  // moves state_.mapping.camera
  std::chrono::steady_clock::time_point epoch_ = std::chrono::steady_clock::now();
};

}  // namespace tl::ui
