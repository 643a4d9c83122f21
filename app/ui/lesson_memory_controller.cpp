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

// A block's or thread's position in as many dimensions as its extent has: "(3, 0)" in a 2D grid.
std::string dim_text(const Dim3& d, const Dim3& extent) {
  if (extent.z > 1) {
    return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) +
           ")";
  }
  if (extent.y > 1) return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ")";
  return std::to_string(d.x);
}

std::string ordinal(std::uint32_t n) {
  const std::uint32_t tens = n % 100;
  const char* suffix = (tens >= 11 && tens <= 13) ? "th"
                       : n % 10 == 1              ? "st"
                       : n % 10 == 2              ? "nd"
                       : n % 10 == 3              ? "rd"
                                                  : "th";
  return std::to_string(n) + suffix;
}

const char* space_name(memory::MemorySpace space) {
  return space == memory::MemorySpace::kGlobal ? "global" : "shared";
}
const char* kind_name(memory::AccessKind kind) {
  return kind == memory::AccessKind::kLoad ? "load" : "store";
}

const MemoryTabArray* array_at(const MemoryTabKernel& kernel, std::uint64_t address) {
  for (const MemoryTabArray& a : kernel.arrays) {
    if (address - a.address < a.bytes) return &a;
  }
  return nullptr;
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
  for (const lab::LessonKernelMemory::Array& a : k.arrays) {
    kernel.arrays.push_back({a.name, a.address, a.bytes});
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
      const MemoryTabArray* a = array_at(kernel, request.lanes.front().address);
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

namespace {

std::string element_text(const MemoryTabKernel& kernel, memory::MemorySpace space,
                         std::uint64_t address) {
  if (space == memory::MemorySpace::kShared) {
    return "shared byte " + std::to_string(address) + " (word " +
           std::to_string(address / memory::kBankWordBytes) + ", bank " +
           std::to_string(memory::shared_bank(address)) + ")";
  }
  const MemoryTabArray* a = array_at(kernel, address);
  if (a == nullptr) return "an address outside the kernel's arrays";
  // The lessons' recorded arrays are floats (memory::KernelArgument::kFloatArray).
  return a->name + "[" + std::to_string((address - a->address) / sizeof(float)) + "]";
}

// "a[8…15]": the elements of `array` a 32-byte sector holds.
std::string sector_label(const MemoryTabKernel& kernel, std::uint64_t sector) {
  const std::uint64_t begin = sector * memory::kSectorBytes;
  const MemoryTabArray* a = array_at(kernel, begin);
  if (a == nullptr) return "sector " + std::to_string(sector);
  const std::uint64_t first = (begin - a->address) / sizeof(float);
  const std::uint64_t end = std::min(begin + memory::kSectorBytes, a->address + a->bytes);
  const std::uint64_t last = (end - a->address) / sizeof(float) - 1;
  return a->name + "[" + std::to_string(first) + "…" + std::to_string(last) + "]";
}

}  // namespace

MemoryRequestView memory_request_view(const MemoryTabKernel& kernel, const MemoryTabRow& row,
                                      std::size_t index) {
  MemoryRequestView view;
  view.index = index;
  view.count = row.requests.size();
  const memory::WarpRequest& request = kernel.requests[row.requests[index]];
  view.picture = memory::request_picture(request);
  const Dim3 block = kernel.config.grid.unlinear(request.block);
  for (const memory::PictureLane& lane : view.picture.lanes) {
    view.lanes.push_back(
        {block, kernel.config.block.unlinear(std::uint64_t{request.warp} * 32 + lane.lane),
         element_text(kernel, request.space, lane.address)});
  }
  const bool global = request.space == memory::MemorySpace::kGlobal;
  for (const memory::PictureTarget& target : view.picture.targets) {
    view.target_labels.push_back(global ? sector_label(kernel, target.id)
                                        : "bank " + std::to_string(target.id));
  }
  std::string what = row.access;
  if (global) {
    const MemoryTabArray* a = array_at(kernel, request.lanes.front().address);
    if (a != nullptr) {
      what = std::string(request.kind == memory::AccessKind::kLoad ? "load of " : "store to ") +
             a->name;
    }
  }
  view.title = "block " + dim_text(block, kernel.config.grid) + ", warp " +
               std::to_string(request.warp) + ", the " + ordinal(request.occurrence + 1) +
               " time through line " + std::to_string(row.totals.line) + ": " + what + " (" +
               std::to_string(request.lanes.size()) + " active lanes)";
  const memory::RequestPicture& p = view.picture;
  if (global) {
    const memory::GlobalRequestCost cost = memory::global_request_cost(request.lanes);
    view.summary = std::to_string(p.actual) + (p.actual == 1 ? " sector in " : " sectors in ") +
                   std::to_string(p.lines) + (p.lines == 1 ? " line: " : " lines: ") +
                   std::to_string(cost.bytes_moved()) + " bytes moved for " +
                   std::to_string(cost.distinct_bytes) + " bytes used; the ideal is " +
                   std::to_string(p.ideal) + (p.ideal == 1 ? " sector" : " sectors");
    if (p.actual > p.ideal && p.ideal > 0) {
      view.summary += " (" + lab::per_request_text(static_cast<double>(p.actual) / p.ideal) +
                      "× the bytes needed)";
    }
  } else {
    view.summary = std::to_string(p.actual) + (p.actual == 1 ? " wavefront" : " wavefronts") +
                   ", the ideal " + std::to_string(p.ideal);
    if (p.conflict_degree > 1) {
      view.summary += ": a " + std::to_string(p.conflict_degree) +
                      "-way bank conflict (distinct words of one bank are served one after "
                      "another)";
    } else if (p.broadcast) {
      view.summary += ": every lane reads one word, a broadcast, no conflict";
    } else {
      view.summary += ": no bank conflict";
    }
  }
  return view;
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
  // A full warp's request first: the 32 lanes are what the picture is about (a partial warp at the
  // data's edge comes later in the recording, or not at all).
  std::size_t chosen = 0;
  for (std::size_t i = 0; i < row.requests.size(); ++i) {
    if (kernel.requests[row.requests[i]].lanes.size() == 32) {
      chosen = i;
      break;
    }
  }
  select_request(chosen);
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
