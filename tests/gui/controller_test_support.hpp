#pragma once
// What the controller tests share: emulator options whose ceilings cache lives in the test's own
// folder (never the user's), and waiting for background work before looking at the state.

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "app_controller.hpp"

namespace tl::ui::test_support {

inline ControllerOptions emulator_options(const std::string& gl_renderer,
                                          const std::string& test_folder) {
  return {interop::BackendPreference::kEmulator, gl_renderer,
          std::filesystem::path(::testing::TempDir()) / test_folder / "ceilings.json"};
}

// Timed runs and sweeps run in the background: wait for them (two minutes at most), then collect.
inline void wait_until_idle(AppController& controller) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (controller.busy() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  controller.update();
}

}  // namespace tl::ui::test_support
