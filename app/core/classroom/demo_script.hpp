#pragma once
// Demo scripts: a TOML file that plays a classroom demo the same way every time. For example
//
//   title = "Why blocks?"
//   presenter = true              # play in presenter mode (large, high contrast)
//
//   [[step]]
//   caption = "One block of 1000 threads: it works"
//   lesson = "vector-add"
//   set = { n = 1000, grid = 1, block = 1000 }
//   color = "thread"
//   launch = true
//   wait = 4                      # seconds on screen before the next step (none: wait for a key)
//   shot = "one-block"            # the PNG's name with --headless --out (default step-01)
//
// Other step keys: view (plot, grid, timeline, reads, layer, occupancy), plot (time, gbps, gflops),
// pick ("row,col"), sweep ("size" or "block"); the Kernel Lab's exercise (an id), submission
// (one of its known-wrong files, e.g. "missing_guard", or "solution"), lab_grid ("2"), run (true)
// and check (true). Every mistake is an error "file:line: what", found before anything plays.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/lessons/lesson_action.hpp"
#include "core/result.hpp"

namespace tl::classroom {

struct DemoStep {
  std::size_t line = 0;          // where the step starts in the file, for later errors
  std::string caption;           // shown large over the app; may be empty
  lessons::LessonAction action;  // the controls it sets, and whether it launches or sweeps
  std::optional<double> wait_seconds;
  std::string shot;  // file name (without .png) of its picture
};

struct DemoScript {
  std::string file;  // as given, for messages
  std::string title;
  bool presenter = false;
  std::vector<DemoStep> steps;
};

inline constexpr double kMaxWaitSeconds = 600;
// Limits that keep a script from aborting or stalling the app: the longest caption a slide draws,
// and the largest script file read (far above any real one).
inline constexpr std::size_t kMaxCaptionBytes = 2000;
inline constexpr std::size_t kMaxDemoScriptBytes = std::size_t{4} << 20;

Result<DemoScript> parse_demo_script(std::string_view text, const std::string& file);
Result<DemoScript> load_demo_script(const std::string& path);

// "file:line: step N: what", for a problem found later (a lesson refusing a value).
std::string step_error(const DemoScript& script, std::size_t index, const std::string& what);

}  // namespace tl::classroom
