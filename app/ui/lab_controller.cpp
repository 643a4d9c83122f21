#include "lab_controller.hpp"

#include <algorithm>
#include <cstdlib>
#include <exception>

#include "compute/lessons/lesson_registry.hpp"
#include "core/format.hpp"
#include "core/user_files.hpp"
#include "lab/exercise_registry.hpp"
#include "lab/lab_inspect.hpp"

namespace tl::ui {
namespace {

// The file name the Lab's compilers give the learner's source in their messages.
constexpr std::string_view kSourceFile = "kernel.cu";
// 1D traces are wrapped into rows about this much wider than tall, like the lessons' pictures.
constexpr double kLayoutAspect = 1.6;

std::string lesson_title(std::string_view lesson_id) {
  for (const compute::LessonModule* module : compute::registered_lessons()) {
    if (module->info.id == lesson_id) return std::string(module->info.title);
  }
  return {};
}

bool judged(lab::Outcome outcome) {
  return outcome == lab::Outcome::kPassed || outcome == lab::Outcome::kFailed ||
         outcome == lab::Outcome::kCompileError;
}

// The exercise's arrays where the recording's worker had them, named as its parameters.
std::vector<MemoryViewArray> recorded_arrays(const lab::Exercise& exercise,
                                             const lab::MemoryReply& reply) {
  std::vector<MemoryViewArray> arrays;
  for (const lab::MemoryReply::RecordedArray& a : reply.arrays) {
    if (a.argument < 0 || static_cast<std::size_t>(a.argument) >= exercise.parameters.size()) {
      continue;
    }
    const lab::ParameterSpec& parameter = exercise.parameters[static_cast<std::size_t>(a.argument)];
    arrays.push_back(
        {parameter.name, a.address, a.bytes, a.element_bytes, parameter.matrix ? a.cols : 0});
  }
  return arrays;
}

// Request `index` of the selected line, or its first full warp's where `index` is none; or why
// the line has no picture.
void select_memory_view(LabMemoryState& memory, const lab::Exercise& exercise,
                        const lab::MemoryFindings& findings, std::optional<std::size_t> index) {
  memory.request.reset();
  memory.no_picture.clear();
  const lab::MemoryReply& reply = findings.reply;
  if (memory.line >= reply.table.rows.size()) return;
  const memory::LineTotals& row = reply.table.rows[memory.line];
  const std::vector<memory::WarpRequest>* requests =
      memory.line < reply.row_requests.size() ? &reply.row_requests[memory.line] : nullptr;
  if (requests == nullptr || requests->empty()) {
    memory.no_picture = "No request of this line came back to be drawn.";
    return;
  }
  if (!index) {
    std::vector<std::size_t> lanes;
    for (const memory::WarpRequest& r : *requests) lanes.push_back(r.lanes.size());
    index = request_to_draw_first(lanes);
  }
  const std::size_t chosen = std::min(*index, requests->size() - 1);
  const std::vector<MemoryViewArray> arrays = recorded_arrays(exercise, reply);
  MemoryRequestContext context;
  context.config = {findings.launch.grid, findings.launch.block};
  context.arrays = arrays;
  context.line = row.line;
  context.access =
      memory.line < memory.lines.size() ? memory.lines[memory.line].access : std::string("access");
  memory.request = memory_request_view((*requests)[chosen], context, chosen, requests->size());
  if (requests->size() < row.requests) {
    memory.request->cut = "The first " + std::to_string(requests->size()) + " of this line's " +
                          std::to_string(row.requests) +
                          " requests in the recorded blocks came back to be drawn; the figures "
                          "count them all.";
  }
}

}  // namespace

struct LabController::Session {
  const lab::Exercise* exercise = nullptr;
  editor::TextModel source;
  editor::TextModel solution;
  CodeEditorState source_editor;
  CodeEditorState solution_editor;
  editor::AutosaveSchedule autosave;
  bool showing_solution = false;
  std::string block_text;
  std::optional<Dim3> block;
  std::string block_problem;
  std::string grid_text;
  std::optional<Dim3> grid;
  std::string grid_problem;
  std::shared_ptr<const lab::CheckVerdict> verdict;
  // The verdict's compiler messages on the source as checked, and where they are on the source
  // now (editor::follow_edits, redone when the text's version moves): a mark follows its line and
  // goes once that line is edited.
  std::vector<editor::Diagnostic> checked_diagnostics;
  std::vector<std::string> checked_lines;
  std::vector<editor::Diagnostic> diagnostics;
  std::uint64_t diagnostics_version = 0;
  std::optional<std::size_t> drawn_case;
  bool showing_diff = false;
  std::vector<editor::DiffLine> diff;
  std::uint64_t diff_version = 0;
  LabMemoryState memory;
  LabCompiledState compiled;
  markdown::Document statement;
  std::string statement_error;
};

struct LabController::PendingCheck {
  std::string exercise_id;
  std::string source;  // as checked: the Memory panel quotes its lines
  std::chrono::steady_clock::time_point started;
  std::future<lab::CheckVerdict> verdict;
};

const lab::KnownWrongSubmission* find_known_wrong(const lab::Exercise& exercise,
                                                  std::string_view name) {
  for (const lab::KnownWrongSubmission& wrong : exercise.known_wrong) {
    if (std::filesystem::path(wrong.path).stem() == name) return &wrong;
  }
  return nullptr;
}

std::string known_wrong_source(const lab::KnownWrongSubmission& wrong) {
  constexpr std::string_view kMarker = "// expect:";
  if (wrong.source.rfind(kMarker, 0) != 0) return wrong.source;
  const std::size_t end = wrong.source.find('\n');
  return end == std::string::npos ? std::string() : wrong.source.substr(end + 1);
}

std::optional<std::size_t> case_to_draw(const lab::CheckVerdict& verdict) {
  std::optional<std::size_t> largest_passing;
  std::size_t largest = 0;
  for (std::size_t i = 0; i < verdict.cases.size(); ++i) {
    const lab::CaseResult& c = verdict.cases[i];
    if (c.trace.empty()) continue;
    if (!c.passed) return i;
    if (!largest_passing || c.trace.size() > largest) {
      largest_passing = i;
      largest = c.trace.size();
    }
  }
  return largest_passing;
}

Result<std::unique_ptr<LabController>> LabController::create(LabControllerOptions options) {
  std::unique_ptr<LabController> lab(new LabController());
  auto mapping = MappingViewController::create(lab->state_.mapping.camera);
  if (!mapping) return mapping.error();
  lab->mapping_ = std::move(*mapping);
  if (!options.check) options.check = &lab::check_submission;
  lab->store_ = std::make_unique<LabProgressStore>(options.folder);
  lab->options_ = std::move(options);
  // Unreadable progress is reported in the Lab, never a reason for the window not to open.
  lab->note_storage(lab->store_->load());
  lab->refresh_entries();
  return lab;
}

LabController::~LabController() {
  save_now();
  // A running check ends by its own timeouts (the worker is killed after them); its future waits.
  if (pending_) pending_->verdict.wait();
}

double LabController::now_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - epoch_).count();
}

void LabController::note_storage(const Status& status) {
  if (!status) state_.storage_problem = status.message();
}

LabController::Session& LabController::session(const std::string& id) {
  auto found = sessions_.find(id);
  if (found != sessions_.end()) return *found->second;
  auto created = std::make_unique<Session>();
  Session& s = *created;
  s.exercise = lab::find_exercise(id);
  s.autosave = editor::AutosaveSchedule(options_.autosave);
  const ExerciseProgress* progress = store_->find(id);
  // The learner's last source, else the starter.
  s.source.set_text(progress != nullptr && progress->source ? *progress->source
                                                            : s.exercise->starter);
  if (auto statement = markdown::parse(s.exercise->statement)) {
    s.statement = std::move(*statement);
  } else {
    s.statement_error = "the statement of " + id + ": " + statement.message();
  }
  s.solution.set_text(s.exercise->solution);
  s.solution.set_read_only(true);
  // Tab, Enter and '}' indent by the starter's own step (2 spaces), not the editor's default 4;
  // brackets come in pairs.
  const int indent = editor::indent_width(s.exercise->starter);
  for (editor::TextModel* model : {&s.source, &s.solution}) model->set_tab_size(indent);
  s.source.set_auto_close(true);
  s.block = s.exercise->default_block;
  s.block_text = to_string(s.exercise->default_block);
  return *sessions_.emplace(id, std::move(created)).first->second;
}

LabController::Session* LabController::current_session() {
  auto found = sessions_.find(state_.current);
  return found == sessions_.end() ? nullptr : found->second.get();
}

const LabController::Session* LabController::current_session() const {
  auto found = sessions_.find(state_.current);
  return found == sessions_.end() ? nullptr : found->second.get();
}

void LabController::refresh_entries() {
  state_.exercises.clear();
  state_.lesson_exercises = 0;
  state_.passed_total = 0;
  state_.passed_in_lesson = 0;
  for (const lab::Exercise* exercise : lab::registered_exercises()) {
    LabExerciseEntry entry;
    entry.id = exercise->id;
    entry.title = exercise->title;
    entry.lesson_id = exercise->lesson_id;
    entry.lesson_title = lesson_title(exercise->lesson_id);
    if (const ExerciseProgress* progress = store_->find(exercise->id)) {
      entry.passed = progress->passed;
      entry.best_ms = progress->best_ms;
    }
    if (entry.lesson_id == state_.lesson_id) ++state_.lesson_exercises;
    if (entry.passed) {
      ++state_.passed_total;
      if (entry.lesson_id == state_.lesson_id) ++state_.passed_in_lesson;
    }
    state_.exercises.push_back(std::move(entry));
  }
}

void LabController::refresh_current() {
  const Session* s = current_session();
  if (s == nullptr) return;
  state_.statement_title = s->exercise->title;
  state_.statement = s->statement;
  state_.statement_error = s->statement_error;
  state_.block_is_fixed = s->exercise->block_is_fixed;
  state_.block_text = s->block_text;
  state_.block_problem = s->block_problem;
  state_.grid_text = s->grid_text;
  state_.grid_problem = s->grid_problem;
  state_.showing_solution = s->showing_solution;
  const ExerciseProgress* progress = store_->find(state_.current);
  // The ladder: after a failed check, one hint at a time; the solution once they are all shown.
  const bool failed_once = progress != nullptr && progress->failed_checks > 0;
  const std::size_t shown = std::min<std::size_t>(
      progress != nullptr ? static_cast<std::size_t>(std::max(progress->hints_shown, 0)) : 0,
      s->exercise->hints.size());
  state_.hints_total = s->exercise->hints.size();
  state_.hints_shown.clear();
  for (std::size_t i = 0; i < shown; ++i) {
    if (auto parsed = markdown::parse(s->exercise->hints[i])) {
      state_.hints_shown.push_back(std::move(*parsed));
    }
  }
  state_.can_show_hint = failed_once && shown < state_.hints_total;
  state_.can_show_solution = failed_once && shown >= state_.hints_total;
  state_.earlier_verdict = !s->verdict && progress != nullptr ? progress->last : std::nullopt;
  state_.showing_diff = s->showing_diff;
  state_.diff = s->diff;
  state_.verdict = s->verdict;
  state_.diagnostics = s->diagnostics;
  state_.diagnostics_gone = s->checked_diagnostics.size() - s->diagnostics.size();
  state_.memory = s->memory;
  state_.compiled = s->compiled;
  // The Compiled section's listing follows the exercise on show and its last verdict.
  std::shared_ptr<const lab::LearnerListing> listing;
  if (s->verdict && s->verdict->compiled) listing = s->verdict->compiled->listing;
  if (listing.get() != compiled_listing_shown_) {
    compiled_listing_shown_ = listing.get();
    compiled_view_.show_learner(std::move(listing));
    // Open on the first line that spills, where one does: the instructions the warning means.
    if (!s->compiled.spill_lines.empty()) {
      compiled_view_.select_line(s->compiled.spill_lines.front());
    }
  }
  state_.backend = gpu_backend_ ? "GPU" : "emulator";
}

void LabController::set_lesson(const std::string& lesson_id, bool gpu_backend) {
  state_.lesson_id = lesson_id;
  gpu_backend_ = gpu_backend;
  refresh_entries();
  const auto in_lesson = std::find_if(state_.exercises.begin(), state_.exercises.end(),
                                      [&](const auto& e) { return e.lesson_id == lesson_id; });
  const Session* open = current_session();
  const bool open_fits = open != nullptr && open->exercise->lesson_id == lesson_id;
  // The first time: the exercise the learner had open when the Lab was last used, wherever it is.
  if (open == nullptr && store_->last_open() && lab::find_exercise(*store_->last_open())) {
    select_exercise(*store_->last_open(), /*remember=*/false);
  } else if (in_lesson != state_.exercises.end() && !open_fits) {
    select_exercise(in_lesson->id, /*remember=*/false);
  } else if (open == nullptr && !state_.exercises.empty()) {
    select_exercise(state_.exercises.front().id, /*remember=*/false);
  } else {
    refresh_current();
  }
}

void LabController::set_gpu_backend(bool gpu_backend) {
  gpu_backend_ = gpu_backend;
  state_.backend = gpu_backend_ ? "GPU" : "emulator";
}

void LabController::select_exercise(const std::string& id, bool remember) {
  if (lab::find_exercise(id) == nullptr) return;
  // The learner's own choice is what the next session opens (a lesson change only follows it).
  if (remember) note_storage(store_->remember_open(id));
  if (id == state_.current) return;
  save_now();
  session(id);
  state_.current = id;
  state_.mapping.hover.reset();
  refresh_current();
  build_mapping();
}

editor::TextModel& LabController::editor_model() {
  Session* s = current_session();
  if (s == nullptr) {
    static editor::TextModel nothing;  // no exercise registered: an empty, read-only page
    nothing.set_read_only(true);
    return nothing;
  }
  return s->showing_solution ? s->solution : s->source;
}

CodeEditorState& LabController::editor_state() {
  Session* s = current_session();
  if (s == nullptr) {
    static CodeEditorState nothing;
    return nothing;
  }
  return s->showing_solution ? s->solution_editor : s->source_editor;
}

std::string LabController::source() const {
  const Session* s = current_session();
  return s == nullptr ? std::string() : s->source.text();
}

void LabController::reset_to_starter() {
  Session* s = current_session();
  if (s == nullptr) return;
  s->showing_solution = false;
  if (s->source.text() == s->exercise->starter) {
    refresh_current();
    return;
  }
  // One replacement of the whole text: a single Ctrl+Z brings the learner's work back.
  s->source.select_all();
  s->source.insert_text(s->exercise->starter);
  s->source.set_cursor({0, 0});
  refresh_current();
}

Status LabController::load_known_wrong(const std::string& name) {
  Session* s = current_session();
  if (s == nullptr) return invalid_argument("no exercise is open in the Lab");
  // "solution": the reference, for a teacher showing a kernel that passes (and its time against
  // the ceiling); otherwise one of the exercise's wrong/ files.
  const lab::KnownWrongSubmission* found =
      name == "solution" ? nullptr : find_known_wrong(*s->exercise, name);
  if (found == nullptr && name != "solution") {
    return invalid_argument("submission=" + name + ": " + s->exercise->id +
                            " has no such known-wrong submission");
  }
  s->showing_solution = false;
  s->source.select_all();
  s->source.insert_text(found != nullptr ? known_wrong_source(*found) : s->exercise->solution);
  s->source.set_cursor({0, 0});
  refresh_current();
  return Status::ok();
}

void LabController::show_solution(bool show) {
  Session* s = current_session();
  if (s == nullptr) return;
  refresh_current();
  s->showing_solution = show && state_.can_show_solution;
  state_.showing_solution = s->showing_solution;
  if (!s->showing_solution) show_diff(false);
}

Result<bool> LabController::save_source_as(const std::filesystem::path& path, bool replace) {
  const Session* s = current_session();
  if (s == nullptr) return invalid_argument("no exercise is open in the Lab");
  if (path.empty()) return invalid_argument("name the file to save to");
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (std::filesystem::exists(status)) {
    if (!std::filesystem::is_regular_file(status)) {
      return Error{ErrorKind::kIoError, path.string() + " is not a regular file"};
    }
    if (!replace) return false;  // the window asks before anything is replaced
  }
  std::string text = s->source.text();
  if (!text.empty() && text.back() != '\n') text.push_back('\n');
  TL_RETURN_IF_ERROR(write_file_atomically(path, text));
  state_.file_message = "Saved to " + path.string();
  return true;
}

Status LabController::open_source(const std::filesystem::path& path) {
  Session* s = current_session();
  if (s == nullptr) return invalid_argument("no exercise is open in the Lab");
  if (s->showing_solution) show_solution(false);
  Result<std::string> text = read_input_file(path);
  if (!text) return text.error();
  Result<std::string> source = lab::normalized_source(*text, path.filename().string());
  if (!source) return source.error();
  // One replacement of the whole text, as Reset does: Ctrl+Z brings the learner's code back.
  s->source.select_all();
  s->source.insert_text(*source);
  s->source.set_cursor({0, 0});
  state_.file_message = "Opened " + path.string() + " (Ctrl+Z brings back the code it replaced)";
  refresh_current();
  return Status::ok();
}

void LabController::begin_file_dialog(bool saving) {
  LabState::FileDialog& d = state_.file_dialog;
  d.open = true;
  d.saving = saving;
  d.confirm_replace = false;
  d.problem.clear();
  if (d.path.empty()) {
    // A file in the home folder named after the exercise; the learner types another.
    const char* home = std::getenv("HOME");
    d.path = std::string(home != nullptr && *home != '\0' ? home : ".") + "/threadlab-" +
             state_.current + ".cu";
  }
}

void LabController::set_file_dialog_path(std::string path) {
  LabState::FileDialog& d = state_.file_dialog;
  if (path == d.path) return;
  d.path = std::move(path);
  // A yes to replacing was for the file named before.
  d.confirm_replace = false;
  d.problem.clear();
}

void LabController::submit_file_dialog() {
  LabState::FileDialog& d = state_.file_dialog;
  if (!d.open) return;
  const std::filesystem::path path(d.path);
  if (d.saving) {
    const Result<bool> saved = save_source_as(path, /*replace=*/d.confirm_replace);
    if (!saved) {
      d.problem = saved.message();
      d.confirm_replace = false;
    } else if (!*saved) {
      d.confirm_replace = true;  // asked first, never replaced silently
    } else {
      close_file_dialog();
    }
    return;
  }
  if (const Status opened = open_source(path); !opened) {
    d.problem = opened.message();
  } else {
    close_file_dialog();
  }
}

void LabController::close_file_dialog() {
  LabState::FileDialog& d = state_.file_dialog;
  d.open = false;
  d.confirm_replace = false;
  d.problem.clear();
}

void LabController::show_next_hint() {
  Session* s = current_session();
  if (s == nullptr) return;
  refresh_current();
  if (!state_.can_show_hint) return;
  note_storage(
      store_->record_hints_shown(state_.current, static_cast<int>(state_.hints_shown.size()) + 1));
  refresh_current();
}

void LabController::show_diff(bool show) {
  Session* s = current_session();
  if (s == nullptr) return;
  refresh_current();
  // Read only: the learner's text and the solution are compared, neither is changed.
  s->showing_diff = show && state_.can_show_solution;
  s->diff = s->showing_diff ? editor::line_diff(s->source.lines(), s->solution.lines())
                            : std::vector<editor::DiffLine>{};
  s->diff_version = s->source.version();
  state_.showing_diff = s->showing_diff;
  state_.diff = s->diff;
}

void LabController::set_block(const std::string& text) {
  Session* s = current_session();
  if (s == nullptr || s->exercise->block_is_fixed) return;
  s->block_text = text;
  Result<Dim3> block = parse_dim3(text);
  if (!block) {
    s->block_problem = block.message();
  } else if (block->volume() == 0 || block->volume() > 1024) {
    s->block_problem = "a block holds 1 to 1024 threads; " + to_string(*block) + " has " +
                       std::to_string(block->volume());
  } else {
    s->block_problem.clear();
    s->block = *block;
  }
  refresh_current();
}

void LabController::set_grid(const std::string& text) {
  Session* s = current_session();
  if (s == nullptr) return;
  s->grid_text = text;
  const bool automatic = text.find_first_not_of(" \t") == std::string::npos;
  if (automatic) {
    s->grid.reset();
    s->grid_problem.clear();
  } else if (Result<Dim3> grid = parse_dim3(text); !grid) {
    s->grid_problem = grid.message();
  } else if (grid->x == 0 || grid->y == 0 || grid->z == 0 || grid->y > 65535 || grid->z > 65535) {
    s->grid_problem =
        "a grid needs at least one block in each dimension, and at most 65,535 in "
        "y and z; got " +
        to_string(*grid);
  } else {
    s->grid_problem.clear();
    s->grid = *grid;
  }
  refresh_current();
}

bool LabController::check() {
  return start(false);
}

bool LabController::run() {
  return start(true);
}

bool LabController::start(bool run_only) {
  Session* s = current_session();
  // One at a time; and the solution on show is not the learner's to submit.
  if (pending_ || s == nullptr || s->showing_solution) return false;
  if (!s->exercise->block_is_fixed && !s->block_problem.empty()) return false;
  if (!s->grid_problem.empty()) return false;
  save_now();
  lab::LabOptions options;
  options.backend = gpu_backend_ ? lab::LabBackend::kGpu : lab::LabBackend::kEmulator;
  if (!s->exercise->block_is_fixed) options.block = s->block;
  options.grid = s->grid;
  options.run_only = run_only;
  // A passing Check's memory figures for the Memory panel (an emulator recording, on either
  // backend); a Run stays quick.
  options.record_memory = !run_only;
  // And what NVRTC made of it (registers, spills, occupancy) for the Compiled panel: one more
  // compile in a worker of its own, after the checks passed.
  options.inspect_compiled = !run_only;
  auto pending = std::make_shared<PendingCheck>();
  pending->exercise_id = state_.current;
  pending->source = s->source.text();
  pending->started = std::chrono::steady_clock::now();
  pending->verdict = std::async(std::launch::async, [check = options_.check, exercise = s->exercise,
                                                     source = s->source.text(), options]() {
    try {
      return check(*exercise, source, options);
    } catch (const std::exception& error) {
      lab::CheckVerdict failed;
      failed.reason = std::string("the check stopped: ") + error.what();
      return failed;
    }
  });
  pending_ = std::move(pending);
  state_.check = {true, run_only, state_.current, 0.0};
  return true;
}

void LabController::wait_for_check(std::chrono::milliseconds limit) {
  if (pending_) pending_->verdict.wait_for(limit);
  update();
}

void LabController::save_now() {
  Session* s = current_session();
  if (s == nullptr || !s->source.changed()) return;
  const Status saved = store_->save_source(state_.current, s->source.text());
  note_storage(saved);
  if (saved) {
    s->source.mark_saved();
    s->autosave.saved();
  }
}

void LabController::update() {
  if (Session* s = current_session()) {
    const double now = now_seconds();
    s->autosave.observe(s->source.version(), s->source.changed(), now);
    if (s->autosave.due(now)) save_now();
    if (s->showing_diff && s->diff_version != s->source.version()) show_diff(true);
    if (s->diagnostics_version != s->source.version()) {
      s->diagnostics_version = s->source.version();
      s->diagnostics =
          editor::follow_edits(s->checked_diagnostics, s->checked_lines, s->source.lines());
      state_.diagnostics = s->diagnostics;
      state_.diagnostics_gone = s->checked_diagnostics.size() - s->diagnostics.size();
    }
  }
  if (pending_) {
    state_.check.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - pending_->started).count();
    if (pending_->verdict.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
      std::shared_ptr<PendingCheck> done = std::move(pending_);
      state_.check.running = false;
      receive(done->verdict.get(), done->exercise_id, done->source);
    }
  }
}

void LabController::receive(lab::CheckVerdict verdict, const std::string& exercise_id,
                            const std::string& source) {
  Session& s = session(exercise_id);
  s.memory = {};
  if (verdict.memory && verdict.memory->unavailable.empty()) {
    s.memory.lines = lab::memory_lines(*s.exercise, source, *verdict.memory);
    s.memory.scope = lab::memory_scope_label(*verdict.memory);
    s.memory.budgets = verdict.memory->budgets;
    select_memory_view(s.memory, *s.exercise, *verdict.memory, std::nullopt);
  } else if (verdict.memory) {
    s.memory.unavailable = "Not recorded: " + verdict.memory->unavailable;
  } else if (!verdict.run_only && verdict.outcome != lab::Outcome::kPassed) {
    s.memory.unavailable = "Recorded once the kernel passes its checks";
  }
  s.compiled = {};
  if (verdict.compiled && verdict.compiled->unavailable.empty()) {
    s.compiled.summary = lab::compiled_summary(*verdict.compiled);
    s.compiled.warnings = verdict.compiled->warnings;
    s.compiled.spill_lines = verdict.compiled->spill_lines;
    s.compiled.has_listing = verdict.compiled->listing != nullptr;
  } else if (verdict.compiled) {
    s.compiled.unavailable = "No word from the compiler: " + verdict.compiled->unavailable;
  } else if (!verdict.run_only && verdict.outcome != lab::Outcome::kPassed) {
    s.compiled.unavailable = "Shown once the kernel passes its checks";
  }
  // A Run is not a try at the hidden checks: it neither passes the exercise nor unlocks the
  // solution.
  if (judged(verdict.outcome) && !verdict.run_only) {
    note_storage(store_->record_check(
        exercise_id, verdict.outcome == lab::Outcome::kPassed, verdict.kernel_ms,
        verdict.solution_ms, LastVerdict{lab::to_string(verdict.outcome), verdict.reason}));
  }
  s.checked_diagnostics =
      editor::diagnostics_for_file(editor::parse_diagnostics(verdict.compiler_log), kSourceFile);
  // A runtime error whose line the run knows (an access outside an array through the views) is
  // marked on that line too, as a compile error is.
  for (const lab::CaseResult& c : verdict.cases) {
    if (c.passed || c.line <= 0) continue;
    editor::Diagnostic at_run_time;
    at_run_time.file = std::string(kSourceFile);
    at_run_time.line = c.line;
    at_run_time.message = "at run time, " + c.label + ": " + c.message;
    s.checked_diagnostics.push_back(std::move(at_run_time));
    break;
  }
  s.checked_lines = editor::TextModel(source).lines();
  s.diagnostics = editor::follow_edits(s.checked_diagnostics, s.checked_lines, s.source.lines());
  s.diagnostics_version = s.source.version();
  s.drawn_case = case_to_draw(verdict);
  s.verdict = std::make_shared<const lab::CheckVerdict>(std::move(verdict));
  ++state_.checks_finished;
  refresh_entries();
  if (exercise_id == state_.current) {
    refresh_current();
    build_mapping();
  }
}

void LabController::select_memory_line(std::size_t index) {
  Session* s = current_session();
  if (s == nullptr || !s->verdict || !s->verdict->memory) return;
  if (index >= s->memory.lines.size()) return;
  s->memory.line = index;
  select_memory_view(s->memory, *s->exercise, *s->verdict->memory, std::nullopt);
  state_.memory = s->memory;
}

void LabController::select_memory_request(std::size_t index) {
  Session* s = current_session();
  if (s == nullptr || !s->verdict || !s->verdict->memory || !s->memory.request) return;
  select_memory_view(s->memory, *s->exercise, *s->verdict->memory, index);
  state_.memory = s->memory;
}

void LabController::show_case(std::size_t index) {
  Session* s = current_session();
  if (s == nullptr || !s->verdict || index >= s->verdict->cases.size()) return;
  s->drawn_case = index;
  build_mapping();
}

void LabController::build_mapping() {
  LabMappingState& m = state_.mapping;
  const ColorBy color_by = m.color_by;
  m = {};
  m.color_by = color_by;
  const Session* s = current_session();
  if (s == nullptr || !s->verdict || !s->drawn_case) return;
  const lab::CaseResult& c = s->verdict->cases[*s->drawn_case];
  m.case_index = *s->drawn_case;
  m.case_label = c.label;
  m.case_passed = c.passed;
  if (c.trace.empty()) {
    m.error = "This case came back without a trace (the kernel did not run to the end).";
    return;
  }
  m.config = {c.launch.grid, c.launch.block};
  // The drawn output is the exercise's first: a matrix is drawn as its rows × cols (a 1 × 1 one
  // too), a vector wrapped into rows with the idle threads after it.
  const std::vector<std::size_t> outputs = lab::output_parameters(*s->exercise);
  const bool matrix =
      c.rows > 1 || (!outputs.empty() && s->exercise->parameters[outputs.front()].matrix);
  m.shape = {static_cast<std::uint64_t>(std::max<std::int64_t>(c.rows, 1)),
             static_cast<std::uint64_t>(std::max<std::int64_t>(c.cols, 0))};
  const std::uint64_t elements = std::min<std::uint64_t>(m.shape.elements(), c.trace.size());
  Result<MappingLayout> layout =
      matrix ? layout_2d(m.shape.rows, m.shape.cols)
             : layout_1d(elements, m.config.total_threads(), 0, kLayoutAspect);
  if (!layout) {
    m.error = layout.message();
    return;
  }
  m.layout = *layout;
  if (const Status uploaded = trace_buffer_.upload(c.trace); !uploaded) {
    m.error = uploaded.message();
    return;
  }
  // The marks: the wrong elements, and the threads past the data that accessed outside an array
  // (the shader draws those as out of range instead of idle).
  std::vector<std::int64_t> marked = c.wrong_elements;
  for (const std::uint64_t thread : c.threads_outside) {
    if (thread >= m.layout.elements && thread < m.layout.cells()) {
      marked.push_back(static_cast<std::int64_t>(thread));
    }
  }
  if (const Status uploaded_marks = marks_.upload(marked, m.layout.cells()); !uploaded_marks) {
    m.error = uploaded_marks.message();
    return;
  }
  m.wrong = c.wrong_elements.size();
  m.threads_outside = c.threads_outside.size();
  for (std::uint64_t i = 0; i < elements; ++i) {
    const std::uint32_t writes = c.trace[i].writes;
    if (writes == 0) ++m.unwritten;
    // Outputs many threads write on purpose (a sum through atomics) are not overlaps.
    if (writes > 1 && !s->exercise->shared_outputs) ++m.written_more;
  }
  m.valid = true;
}

void LabController::hover(std::optional<PixelPoint> pixel, Viewport viewport) {
  LabMappingState& m = state_.mapping;
  const Session* s = current_session();
  if (!m.valid || s == nullptr || !s->verdict) {
    m.hover.reset();
    return;
  }
  const HoverChange change =
      mapping_->hover_change(m.layout, pixel, viewport, m.hover ? &m.hover->hit : nullptr);
  if (change.kind == HoverChange::Kind::kNoCell) {
    m.hover.reset();
    return;
  }
  // The wrong elements are searched only when the mouse reaches a new cell.
  if (change.kind == HoverChange::Kind::kSameCell) return;
  LabMappingState::Hover info;
  info.hit = change.hit;
  const CellHit& hit = change.hit;
  const lab::CaseResult& c = s->verdict->cases[m.case_index];
  if (hit.is_element() && hit.cell < c.trace.size()) {
    info.record = decode(c.trace[hit.cell], hit.cell, m.shape, m.config);
    info.wrong = std::find(c.wrong_elements.begin(), c.wrong_elements.end(),
                           static_cast<std::int64_t>(hit.cell)) != c.wrong_elements.end();
  } else if (hit.kind == CellKind::kIdleThread) {
    info.outside = std::binary_search(c.threads_outside.begin(), c.threads_outside.end(), hit.cell);
  }
  m.hover = info;
}

void LabController::zoom(double factor, double pixel_x, double pixel_y) {
  mapping_->zoom(factor, pixel_x, pixel_y);
}

void LabController::pan(double dx, double dy) {
  mapping_->pan(dx, dy);
}

void LabController::fit_view() {
  mapping_->fit();
}

Result<std::uint32_t> LabController::render_mapping(Viewport viewport) {
  const LabMappingState& m = state_.mapping;
  if (viewport.width <= 0 || viewport.height <= 0) return invalid_argument("empty view");
  if (!m.valid) return invalid_argument(m.error.empty() ? "no case to draw yet" : m.error);
  render::MappingView view;
  view.layout = m.layout;
  view.launch = m.config;
  view.color_by = m.color_by;
  view.marks = &marks_;
  if (m.hover) view.highlighted_cell = m.hover->hit.cell;
  return mapping_->render(trace_buffer_, view, viewport);
}

}  // namespace tl::ui
