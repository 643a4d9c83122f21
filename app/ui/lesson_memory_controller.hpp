#pragma once
// The lesson workspace's Memory tab: records the current lesson's kernels at its current settings
// on the emulator (lab/lesson_memory.hpp: a recording build of the kernel's .cuh, then a launch of
// a few blocks) and turns the result into the tab's state (lesson_memory_state.hpp).
//
// Why in the background: the first recording of a kernel compiles it with the system compiler,
// a second or more per kernel, several on a slow laptop; on the UI thread the window would freeze
// for that long (at 9 frames a second on software GL, every frame counts). So a recording runs on
// a thread of its own, one at a time (two builds of one kernel into one cache would race), and
// the tab shows "recording…" with the kernel it is at and a Cancel. Cancel takes effect at once
// for the tab (it shows what it showed before, greyed); the thread finishes the kernel it is
// building and records no more. Nothing here touches ImGui or OpenGL.

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app_state.hpp"
#include "compute/lessons/lesson.hpp"
#include "core/memory/memory_experiment.hpp"
#include "core/result.hpp"
#include "lab/lesson_memory.hpp"
#include "lesson_memory_state.hpp"

namespace tl::ui {

struct LessonMemoryOptions {
  // Where the recording builds are cached; empty: the Lab's cache (lab/lab_check.hpp).
  std::string cache_dir;
  // Records one experiment; empty: lab::record_lesson_kernel. Tests give one that can be held.
  std::function<Result<lab::LessonKernelMemory>(const memory::MemoryExperiment&,
                                                const std::string&)>
      record;
};

// A recorded kernel as the tab shows it (its rows, their requests, its arrays), and one request
// of a row laid out for its picture: what the controller puts in the state, and what `threadlab
// render --memory-line` draws (memory_request_render.hpp), so that both show the same.
[[nodiscard]] MemoryTabKernel memory_tab_kernel(lab::LessonKernelMemory kernel);
// `index` among the row's requests (row.requests), which must be in range.
[[nodiscard]] MemoryRequestView memory_request_view(const MemoryTabKernel& kernel,
                                                    const MemoryTabRow& row, std::size_t index);

class LessonMemoryController {
 public:
  explicit LessonMemoryController(LessonMemoryOptions options);
  ~LessonMemoryController();  // waits for a recording in flight (it ends by itself)
  LessonMemoryController(const LessonMemoryController&) = delete;
  LessonMemoryController& operator=(const LessonMemoryController&) = delete;

  [[nodiscard]] const LessonMemoryState& state() const { return state_; }

  // The tab is on show with `lesson` current: records its kernels if what is shown is not of its
  // settings (and the learner did not cancel that very recording). Cheap when nothing changed:
  // the panel calls it every frame it draws.
  void shown(const compute::Lesson& lesson);
  // Records the lesson's kernels again, even at the settings already shown (after a Cancel).
  void record(const compute::Lesson& lesson);
  void cancel();
  [[nodiscard]] bool recording() const { return state_.recording; }

  void select_kernel(std::size_t index);
  void select_row(std::size_t index);
  // Which of the selected row's requests is drawn (clamped to the row's).
  void select_request(std::size_t index);

  // Once per frame: progress, and the result when it is there.
  void update();
  // Puts the GPU's counters of the timed run beside each kernel's model (MemoryTabKernel::
  // measured): `fresh` says they were read at the lesson's current settings; `device` names the
  // GPU; on the emulator (`gpu` false) there is nothing beside the model. Cheap: the app calls it
  // every frame.
  void show_counters(const HardwareCounterReading& reading, bool gpu, bool fresh,
                     std::string_view device);
  // Blocks until the recording in flight is done (at most `limit`), then collects it: for tests
  // and scripted screenshots, never the UI.
  void wait(std::chrono::milliseconds limit);

 private:
  struct Job;
  void start(const compute::Lesson& lesson);
  void launch(Job& job);
  void receive(Job& job);
  void select_request_of_row();

  LessonMemoryOptions options_;
  LessonMemoryState state_;
  // The recording the tab waits for. Not started yet while a cancelled one still finishes its
  // kernel: it starts when that one is done.
  std::shared_ptr<Job> job_;
  std::vector<std::shared_ptr<Job>> finishing_;  // cancelled ones, still finishing their kernel
  // What the kernels on show were recorded for, and the recording the learner cancelled (not
  // started again by itself at those settings).
  std::string shown_lesson_;
  lessons::ParamValues shown_values_;
  std::optional<std::pair<std::string, lessons::ParamValues>> cancelled_;
};

}  // namespace tl::ui
