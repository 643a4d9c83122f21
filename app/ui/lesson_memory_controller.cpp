#include "lesson_memory_controller.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <mutex>
#include <set>

#include "compute/lessons/memory_lesson.hpp"
#include "core/format.hpp"
#include "lab/memory_findings.hpp"

namespace tl::ui {
namespace {

using Clock = std::chrono::steady_clock;
using Recorded = Result<std::vector<lab::LessonKernelMemory>>;

// The lessons whose kernels declare their experiments (compute/lessons/memory_lesson.hpp), for
// the reason a lesson without them shows.
constexpr const char* kRecordingLessons =
    "lesson 1 (vector add), 3 (2D blocks), 4 (matrix multiply) and 6 (reductions)";

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

// The source line a request's site is on (0: unknown), as the table counts it.
int line_of(const lab::LessonKernelMemory& k, const memory::WarpRequest& r) {
  return r.site < k.site_lines.size() ? k.site_lines[r.site] : 0;
}

std::string scope_text(const memory::MemoryTable& t) {
  std::string text = "the emulator's model (no cache, the host compiler's accesses): " +
                     std::to_string(t.recorded_blocks) + " of " + std::to_string(t.grid_blocks) +
                     " blocks recorded, every warp of them";
  if (t.extrapolated()) {
    text += "; the counts are those blocks', the grid's are about " + fixed(t.grid_scale()) +
            "× them (extrapolated: blocks at the data's edge may differ)";
  } else {
    text += ": exact";
  }
  return text;
}

}  // namespace

MemoryTabKernel memory_tab_kernel(lab::LessonKernelMemory k) {
  MemoryTabKernel kernel;
  kernel.label = k.label;
  kernel.kernel = k.kernel;
  kernel.source = k.source;
  kernel.config = k.config;
  kernel.scope = scope_text(k.table);
  kernel.scope_short =
      std::to_string(k.table.recorded_blocks) + " of " + std::to_string(k.table.grid_blocks) +
      " blocks recorded" +
      (k.table.extrapolated() ? ", the grid's counts ≈ " + fixed(k.table.grid_scale()) + "× these"
                              : ", exact");
  kernel.note = k.note;
  kernel.counted_key = k.counted_key;
  kernel.model_counts = lab::model_grid_counters(k.table);
  for (const lab::LessonKernelMemory::Array& a : k.arrays) {
    // The lessons' recorded arrays are floats (memory::KernelArgument::kFloatArray).
    kernel.arrays.push_back({a.name, a.address, a.bytes, sizeof(float), 0});
  }
  for (std::size_t i = 0; i < k.table.rows.size(); ++i) {
    const memory::LineTotals& totals = k.table.rows[i];
    MemoryTabRow row;
    row.totals = totals;
    row.source = i < k.line_texts.size() ? k.line_texts[i] : std::string();
    row.access = std::string(space_name(totals.space)) + " " + kind_name(totals.kind);
    row.badge = lab::memory_badge(totals);
    row.ideal = totals.space == memory::MemorySpace::kGlobal
                    ? totals.sectors <= totals.ideal_sectors
                    : totals.bank_conflicts() == 0;
    std::vector<std::string> names;
    for (std::size_t r = 0; r < k.requests.size(); ++r) {
      const memory::WarpRequest& request = k.requests[r];
      if (line_of(k, request) != totals.line || request.space != totals.space ||
          request.kind != totals.kind || request.lanes.empty()) {
        continue;
      }
      row.requests.push_back(r);
      if (request.space == memory::MemorySpace::kShared) continue;
      const MemoryTabArray* a = array_at(kernel.arrays, request.lanes.front().address);
      const std::string name = a != nullptr ? a->name : "an array outside the kernel's";
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
    if (totals.space == memory::MemorySpace::kShared) {
      row.arrays = "shared memory";
    } else {
      for (const std::string& name : names) row.arrays += (row.arrays.empty() ? "" : ", ") + name;
    }
    kernel.rows.push_back(std::move(row));
  }
  kernel.requests = std::move(k.requests);
  return kernel;
}

MemoryRequestView memory_request_view(const MemoryTabKernel& kernel, const MemoryTabRow& row,
                                      std::size_t index) {
  MemoryRequestContext context;
  context.config = kernel.config;
  context.arrays = kernel.arrays;
  context.line = row.totals.line;
  context.access = row.access;
  return memory_request_view(kernel.requests[row.requests[index]], context, index,
                             row.requests.size());
}

struct LessonMemoryController::Job {
  std::string lesson_id;
  lessons::ParamValues values;
  std::vector<memory::MemoryExperiment> experiments;
  Clock::time_point started;
  std::atomic<bool> cancel{false};
  std::atomic<std::size_t> done{0};
  std::future<Recorded> result;  // not valid until launched
};

LessonMemoryController::LessonMemoryController(LessonMemoryOptions options)
    : options_(std::move(options)) {
  if (!options_.record) options_.record = &lab::record_lesson_kernel;
}

LessonMemoryController::~LessonMemoryController() {
  if (job_) job_->cancel = true;
  for (const auto& job : finishing_) job->result.wait();
  if (job_ && job_->result.valid()) job_->result.wait();
}

void LessonMemoryController::shown(const compute::Lesson& lesson) {
  const std::string id(lesson.info().id);
  const lessons::ParamValues values = lesson.values();
  if (compute::memory_lesson(lesson) == nullptr) {
    if (state_.lesson_id == id && !state_.unavailable.empty()) return;
    cancel();
    const std::uint64_t finished = state_.recordings_finished;
    state_ = LessonMemoryState{};
    state_.lesson_id = id;
    state_.values = values;
    state_.cancelled = false;
    state_.recordings_finished = finished;
    state_.unavailable = std::string(lesson.info().title) +
                         " does not record its kernels' memory accesses: the Memory tab shows " +
                         kRecordingLessons + ".";
    shown_lesson_ = id;
    shown_values_ = values;
    return;
  }
  const bool wanted = job_ ? job_->lesson_id == id && job_->values == values
                           : shown_lesson_ == id && shown_values_ == values;
  state_.stale = !(shown_lesson_ == id && shown_values_ == values);
  if (wanted) return;
  if (cancelled_ && cancelled_->first == id && cancelled_->second == values) return;
  start(lesson);
}

void LessonMemoryController::record(const compute::Lesson& lesson) {
  if (compute::memory_lesson(lesson) == nullptr) {
    shown(lesson);
    return;
  }
  start(lesson);
}

void LessonMemoryController::start(const compute::Lesson& lesson) {
  // The experiments are read here, on the UI thread, from the lesson the window shows (plain data);
  // the thread never touches the lesson.
  auto job = std::make_shared<Job>();
  job->lesson_id = std::string(lesson.info().id);
  job->values = lesson.values();
  job->experiments = compute::memory_lesson(lesson)->memory_experiments();
  if (job_) {
    job_->cancel = true;
    if (job_->result.valid()) finishing_.push_back(std::move(job_));
  }
  cancelled_.reset();
  job_ = std::move(job);
  state_.recording = true;
  state_.cancelled = false;
  state_.unavailable.clear();
  state_.kernels_done = 0;
  state_.kernels_total = job_->experiments.size();
  state_.recording_kernel.clear();
  state_.seconds = 0;
  state_.stale = true;
  if (shown_lesson_ != job_->lesson_id) {
    // Another lesson's kernels say nothing about this one's: they go (a recording of the same
    // lesson at other settings stays, greyed, until the new one is there).
    state_.kernels.clear();
    state_.request.reset();
    state_.error.clear();
  }
  if (finishing_.empty()) launch(*job_);
}

void LessonMemoryController::launch(Job& job) {
  job.started = Clock::now();
  job.result =
      std::async(std::launch::async,
                 [&job, record = options_.record, cache = options_.cache_dir]() -> Recorded {
                   std::vector<lab::LessonKernelMemory> kernels;
                   for (const memory::MemoryExperiment& e : job.experiments) {
                     if (job.cancel) break;
                     try {
                       auto recorded = record(e, cache);
                       if (!recorded) return recorded.error();
                       kernels.push_back(std::move(*recorded));
                     } catch (const std::exception& error) {
                       return Error{ErrorKind::kIoError,
                                    "recording " + e.kernel + " stopped: " + error.what()};
                     }
                     ++job.done;
                   }
                   return kernels;
                 });
}

void LessonMemoryController::cancel() {
  if (!job_) return;
  job_->cancel = true;
  cancelled_ = std::make_pair(job_->lesson_id, job_->values);
  if (job_->result.valid()) finishing_.push_back(std::move(job_));
  job_.reset();
  state_.recording = false;
  state_.cancelled = true;
}

void LessonMemoryController::update() {
  std::erase_if(finishing_, [](const std::shared_ptr<Job>& job) {
    return job->result.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
  });
  if (!job_) return;
  if (!job_->result.valid()) {
    if (finishing_.empty()) launch(*job_);
    return;
  }
  const std::size_t done = job_->done;
  state_.kernels_done = done;
  state_.recording_kernel =
      done < job_->experiments.size() ? job_->experiments[done].kernel : std::string();
  state_.seconds = std::chrono::duration<double>(Clock::now() - job_->started).count();
  if (job_->result.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
    const std::shared_ptr<Job> job = std::move(job_);
    receive(*job);
  }
}

void LessonMemoryController::wait(std::chrono::milliseconds limit) {
  const auto deadline = Clock::now() + limit;
  while (job_ && Clock::now() < deadline) {
    if (!job_->result.valid()) {
      for (const auto& job : finishing_) job->result.wait_until(deadline);
    } else {
      job_->result.wait_until(deadline);
    }
    update();
  }
}

void LessonMemoryController::receive(Job& job) {
  Recorded recorded = job.result.get();
  state_.recording = false;
  state_.stale = false;
  state_.lesson_id = job.lesson_id;
  state_.values = job.values;
  shown_lesson_ = job.lesson_id;
  shown_values_ = job.values;
  ++state_.recordings_finished;
  const std::string previous =
      state_.kernel < state_.kernels.size() ? state_.kernels[state_.kernel].label : std::string();
  state_.kernels.clear();
  state_.request.reset();
  if (!recorded) {
    state_.error = "Not recorded: " + recorded.message();
    return;
  }
  state_.error.clear();
  for (lab::LessonKernelMemory& k : *recorded)
    state_.kernels.push_back(memory_tab_kernel(std::move(k)));
  // The same kernel stays selected across settings (the one the learner was looking at).
  state_.kernel = 0;
  for (std::size_t i = 0; i < state_.kernels.size(); ++i) {
    if (state_.kernels[i].label == previous) state_.kernel = i;
  }
  select_kernel(state_.kernel);
}

void LessonMemoryController::show_counters(const HardwareCounterReading& reading, bool gpu,
                                           bool fresh, std::string_view device) {
  for (MemoryTabKernel& kernel : state_.kernels) {
    kernel.measured_read = false;
    const CountedKernel* counted = nullptr;
    for (const CountedKernel& k : reading.kernels) {
      if (!kernel.counted_key.empty() && k.key == kernel.counted_key) counted = &k;
    }
    if (!gpu || kernel.counted_key.empty()) {
      kernel.measured.clear();
    } else if (!reading.enabled) {
      kernel.measured =
          "On this GPU: tick Hardware counters under the timings and launch, and the GPU's own "
          "sectors per request and bank conflicts appear here beside the model's.";
    } else if (reading.pending) {
      kernel.measured = "Reading the GPU's counters after the timings…";
    } else if (!reading.unavailable.empty()) {
      kernel.measured = reading.unavailable;
    } else if (counted == nullptr || !counted->counters.memory.measured) {
      kernel.measured = "Launch to read the GPU's counters of this kernel beside the model's.";
    } else if (!fresh) {
      kernel.measured =
          "The GPU's counters were read at other settings: launch to read them at "
          "these.";
    } else {
      kernel.measured =
          "Measured: " + lab::memory_beside_counters(kernel.label, kernel.model_counts,
                                                     counted->counters.memory, device);
      kernel.measured_read = true;
    }
  }
}

void LessonMemoryController::select_kernel(std::size_t index) {
  if (index >= state_.kernels.size()) return;
  state_.kernel = index;
  // The first row of a kernel is usually its first load: the one lessons talk about.
  state_.row = 0;
  select_request_of_row();
}

void LessonMemoryController::select_row(std::size_t index) {
  if (state_.kernel >= state_.kernels.size()) return;
  if (index >= state_.kernels[state_.kernel].rows.size()) return;
  state_.row = index;
  select_request_of_row();
}

void LessonMemoryController::select_request_of_row() {
  state_.request.reset();
  if (state_.kernel >= state_.kernels.size()) return;
  const MemoryTabKernel& kernel = state_.kernels[state_.kernel];
  if (state_.row >= kernel.rows.size()) return;
  const MemoryTabRow& row = kernel.rows[state_.row];
  if (row.requests.empty()) return;
  std::vector<std::size_t> lanes;
  for (const std::size_t r : row.requests) lanes.push_back(kernel.requests[r].lanes.size());
  select_request(request_to_draw_first(lanes));
}

void LessonMemoryController::select_request(std::size_t index) {
  if (state_.kernel >= state_.kernels.size()) return;
  const MemoryTabKernel& kernel = state_.kernels[state_.kernel];
  if (state_.row >= kernel.rows.size()) return;
  const MemoryTabRow& row = kernel.rows[state_.row];
  if (row.requests.empty()) return;
  state_.request = memory_request_view(kernel, row, std::min(index, row.requests.size() - 1));
}

}  // namespace tl::ui
