#pragma once
// The soak run: the whole app, headless, driven by a reproducible stream of random user actions
// (core/soak/soak_plan.hpp) for minutes, sampling host and device memory. Returns the exit status:
// 0 when memory stayed flat and the backend was never lost.

#include "core/gui_launcher.hpp"

namespace tl::ui {

int run_soak(const SoakOptions& options);

}  // namespace tl::ui
