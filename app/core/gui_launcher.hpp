#pragma once
// What the command line asks of the graphical app, and the hooks through which it asks: the app
// (app/main.cpp) hands the UI's entry points to the CLI as a GuiLauncher, so that neither of
// app/cli and app/ui includes the other. Plain data and std::function only: no UI, no CLI here.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace tl {

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
  // The class on the network (app/net): join one as a student ("HOST:PORT/CODE", with the name the
  // board shows), or host one as the presenter (a server in the window's process).
  std::string join;
  std::string name;
  bool host_class = false;
  int class_port = 8737;
  std::string class_bind;  // the address the class listens on; empty: every address (the LAN)
  std::string class_code;  // empty: a random one
};

// A measurement of whole UI frames, headless (`threadlab bench --suite ui` and `--suite perf`):
// each frame launches the traced kernel over `elements`, redraws the mapping view and the whole UI,
// and waits for the GPU to finish drawing.
struct UiFrameRequest {
  std::string backend = "auto";
  std::uint64_t elements = std::uint64_t{1} << 24;
  int frames = 120;
  int width = 1600;
  int height = 1000;
  // Where the benchmark is, for a progress line: a stage ("waiting for the first timed run") or a
  // frame and its time. Optional.
  std::function<void(const std::string& what)> progress;
};
struct UiFrameTimes {
  std::vector<double> milliseconds;  // one per frame, warm-up frames left out
  // Of each frame, the traced launch alone (the lesson's run_traced: inputs, copies, kernel,
  // delivery to OpenGL, check): where a slow frame's time goes.
  std::vector<double> traced_milliseconds;
  std::string backend;   // the trace path the frames took (interop, copy, emulator)
  std::string renderer;  // GL_RENDERER
};

// `threadlab soak`: random valid and invalid user actions against the whole app, headless, for a
// while, with host and device memory sampled; fails when memory grows or the GPU is lost.
struct SoakOptions {
  std::string backend = "auto";
  double seconds = 600;
  std::uint64_t seed = 1;
  double sample_every_seconds = 10;
};

// The graphical app, started when no subcommand (or `gui`) is given: the UI's entry points,
// supplied by the app to the command line.
struct GuiLauncher {
  std::function<int(const GuiOptions& options)> run;
  std::function<Result<UiFrameTimes>(const UiFrameRequest& request)> measure_frames;
  std::function<int(const SoakOptions& options)> soak;
};

}  // namespace tl
