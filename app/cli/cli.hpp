#pragma once
// The command line: the same core, devices and renderer as the window, without one. Every failure
// ends in one line on stderr and a non-zero exit status: 2 for a bad command line, 1 for a request
// that could not be carried out (CUDA error, failed check, unwritable file).

#include <functional>
#include <string>
#include <vector>

namespace tl::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

struct GuiOptions {
  bool headless = false;   // EGL offscreen instead of a window: same UI, no display needed
  int frames = 0;          // stop after this many frames (0: run until the window closes)
  std::string screenshot;  // PNG of the last frame, written on exit
  int width = 0;           // 0: the remembered window size (window), 1600 (headless)
  int height = 0;          // 0: the remembered window size (window), 1000 (headless)
  float scale = 0;         // UI scale; 0 follows the monitor's content scale
  std::string backend = "auto";
  bool fullscreen = false;
  // Lesson actions applied at start-up, e.g. "threadlab:set?n=2^24&sweep" (as the lesson's links).
  std::vector<std::string> actions;
  // `threadlab demo FILE`: the demo script to play, and with --headless the folder that gets one
  // PNG per step.
  std::string demo_script;
  std::string out_dir;
};

// The graphical app, started when no subcommand (or `gui`) is given; supplied by the app so that
// the command line does not depend on the UI.
struct GuiLauncher {
  std::function<int(const GuiOptions& options)> run;
};

int run_cli(int argc, char** argv, const GuiLauncher& gui);

}  // namespace tl::cli
