#pragma once
// What the controller tests share: emulator options whose ceilings cache lives in the test's own
// folder (never the user's), and waiting for background work before looking at the state.

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "app_controller.hpp"

namespace tl::ui::test_support {

inline ControllerOptions emulator_options(const std::string& gl_renderer,
                                          const std::string& test_folder) {
  ControllerOptions options{
      interop::BackendPreference::kEmulator, gl_renderer,
      std::filesystem::path(::testing::TempDir()) / test_folder / "ceilings.json"};
  // The Lab's progress in the test's folder too, never the user's.
  options.lab.folder = std::filesystem::path(::testing::TempDir()) / test_folder / "lab";
  // The Memory tab's recording builds in the cache tests/emulator uses (keyed by their inputs'
  // hash), never the user's.
  options.memory.cache_dir =
      (std::filesystem::temp_directory_path() / "threadlab-lesson-memory-tests").string();
  return options;
}

// Timed runs and sweeps run in the background: wait for them (two minutes at most), then collect.
inline void wait_until_idle(AppController& controller) {
  controller.wait_until_idle(std::chrono::minutes(2));
}

}  // namespace tl::ui::test_support
