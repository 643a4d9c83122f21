#include "soak_runner.hpp"

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <thread>

#include "app_controller.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "core/format.hpp"
#include "core/parse.hpp"
#include "core/soak/soak_plan.hpp"
#include "headless_ui.hpp"
#include "lesson_views.hpp"

namespace tl::ui {
namespace {

constexpr int kWidth = 1280;
constexpr int kHeight = 800;
// Every so many actions the run waits for the background work, as a user who looks at the result
// would; in between, actions pile up on running measurements (and are refused), as impatient
// clicks do.
constexpr int kSettleEvery = 16;
constexpr auto kSettleLimit = std::chrono::seconds(120);

using Clock = std::chrono::steady_clock;

void settle(AppController& app, HeadlessUi& frames) {
  const auto deadline = Clock::now() + kSettleLimit;
  while (app.busy() && Clock::now() < deadline) {
    frames.draw_frame(app);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  frames.draw_frame(app);
}

void act(AppController& app, HeadlessUi& frames, const soak::Action& action) {
  switch (action.kind) {
    case soak::ActionKind::kLink:
      app.apply_lesson_action(action.link);
      break;
    case soak::ActionKind::kSweepAndCancel:
      app.start_sweep(SweepKind::kSize);
      for (int i = 0; i < 3; ++i) frames.draw_frame(app);
      app.cancel_sweep();
      break;
    case soak::ActionKind::kSweepToTheEnd:
      app.start_sweep(SweepKind::kBlock);
      settle(app, frames);
      break;
    case soak::ActionKind::kNextStep:
      app.next_step();
      break;
    case soak::ActionKind::kPreviousStep:
      app.previous_step();
      break;
    case soak::ActionKind::kTogglePresenter:
      app.set_presenter(!app.state().classroom.presenter);
      break;
  }
  frames.draw_frame(app);
}

double mib(double bytes) {
  return bytes / (1024.0 * 1024.0);
}

// What the soak says, from the registry: every lesson's id, the union of their parameters and
// every view a link can name. A count tries values up to a few times the largest value any lesson
// starts with on this backend (the emulator's own defaults there), so sizes stay quick to run.
soak::SoakVocabulary soak_vocabulary(soak::SoakScale scale) {
  soak::SoakVocabulary vocabulary;
  // Not "memory": the Memory tab records by building each lesson kernel with the system compiler
  // and loading it (seconds, and a shared object per build), not the window's own work the soak
  // watches for growth; tests/gui/test_memory_tab.cpp drives that tab.
  vocabulary.views = {"plot", "roofline", "grid", "timeline", "occupancy"};
  for (const compute::LessonModule* module : compute::registered_lessons()) {
    vocabulary.lessons.emplace_back(module->info.id);
    const auto lesson = module->make();
    const lessons::ParamValues emulator = lesson->emulator_defaults();
    for (const lessons::ParamSpec& spec : lesson->params()) {
      std::string start = spec.default_value;
      if (const auto it = emulator.find(spec.name);
          scale == soak::SoakScale::kEmulator && it != emulator.end()) {
        start = it->second;
      }
      const auto value = parse_count(start);
      const std::uint64_t factor = scale == soak::SoakScale::kGpu ? 4 : 2;
      const std::uint64_t largest = value ? std::max<std::uint64_t>(factor * *value, 16) : 256;
      auto known = std::find_if(vocabulary.params.begin(), vocabulary.params.end(),
                                [&](const soak::SoakParam& p) { return p.spec.name == spec.name; });
      if (known == vocabulary.params.end()) {
        vocabulary.params.push_back({spec, largest});
      } else {
        known->largest_count = std::max(known->largest_count, largest);
      }
    }
    for (const LessonTab& tab : lesson_views(module->info).tabs)
      vocabulary.views.emplace_back(tab.id);
  }
  return vocabulary;
}

}  // namespace

int run_soak(const SoakOptions& options) {
  auto backend = interop::parse_backend_preference(options.backend);
  if (!backend)
    return std::cerr << "threadlab: --backend: " << one_line(backend.message()) << '\n', 2;
  auto ui = HeadlessUi::create(kWidth, kHeight, 1.0f);
  if (!ui) return std::cerr << "threadlab: " << one_line(ui.message()) << '\n', 1;
  HeadlessUi& frames = **ui;
  ControllerOptions controller_options{
      .backend = *backend, .gl_renderer = frames.renderer(), .ceilings_cache = std::nullopt};
  // A scripted run never touches the learner's Lab sources or progress: the Lab stays in memory.
  controller_options.lab.folder = std::nullopt;
  auto controller = AppController::create(controller_options);
  if (!controller) return std::cerr << "threadlab: " << one_line(controller.message()) << '\n', 1;
  AppController& app = **controller;
  const BackendKind started_on = app.state().backend;
  std::cout << "soak: " << options.seconds << " s on " << to_string(started_on) << " ("
            << app.state().device.name << "), seed " << options.seed << '\n';
  std::printf("%8s %9s %9s %12s %14s\n", "seconds", "actions", "launches", "host MiB",
              "device MiB");

  const soak::SoakScale scale =
      is_gpu(started_on) ? soak::SoakScale::kGpu : soak::SoakScale::kEmulator;
  soak::ActionStream actions(options.seed, scale, soak_vocabulary(scale));
  std::vector<soak::MemorySample> samples;
  const auto start = Clock::now();
  auto next_sample = start;
  std::uint64_t done = 0;
  auto seconds_since_start = [&] {
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  while (seconds_since_start() < options.seconds) {
    act(app, frames, actions.next());
    if (++done % kSettleEvery == 0) settle(app, frames);
    if (app.state().backend != started_on) break;  // the GPU was lost: a failure
    if (Clock::now() >= next_sample) {
      settle(app, frames);  // sample between measurements, not in the middle of one
      // Freed memory back to the system first: resident memory then follows what is live, not
      // the allocator's high-water mark (a 2^24 trace freed long ago is not a leak).
      malloc_trim(0);
      soak::MemorySample sample{seconds_since_start(), soak::resident_bytes(), 0};
      if (auto memory = app.device_memory(); memory && is_gpu(started_on)) {
        sample.device_used_bytes = static_cast<double>(memory->total_bytes - memory->free_bytes);
      }
      samples.push_back(sample);
      std::printf("%8.0f %9llu %9llu %12.1f %14.1f\n", sample.seconds,
                  static_cast<unsigned long long>(done),
                  static_cast<unsigned long long>(app.state().trace.launch_number),
                  mib(sample.host_bytes), mib(sample.device_used_bytes));
      std::fflush(stdout);
      next_sample += std::chrono::duration_cast<Clock::duration>(
          std::chrono::duration<double>(options.sample_every_seconds));
    }
  }
  settle(app, frames);
  soak::MemoryAllowance allowance;
  allowance.warmup_seconds = std::min(60.0, options.seconds / 5);
  allowance.window_seconds = std::min(60.0, options.seconds / 5);
  const soak::MemoryVerdict verdict = soak::judge_memory(samples, allowance);
  std::cout << "soak: " << done << " actions, " << app.state().trace.launch_number
            << " traced launches; memory " << verdict.summary << '\n';
  if (app.busy()) {
    // The final settle waited kSettleLimit: background work that never ends is a hang.
    std::cerr << "threadlab: soak: background work still running "
              << std::chrono::duration_cast<std::chrono::seconds>(kSettleLimit).count()
              << " s after the last action\n";
    return 1;
  }
  if (app.state().backend != started_on) {
    std::cerr << "threadlab: soak: the backend fell from " << to_string(started_on) << " to "
              << to_string(app.state().backend) << ": " << app.state().backend_reason << '\n';
    return 1;
  }
  if (!verdict.flat) {
    std::cerr << "threadlab: soak: memory grew: " << verdict.summary << '\n';
    return 1;
  }
  return 0;
}

}  // namespace tl::ui
