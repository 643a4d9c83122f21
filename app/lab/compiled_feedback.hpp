#pragma once
// What a passing kernel's compiled form says to the learner (lab_inspect.hpp makes it): a word on
// spilled registers and on occupancy held low by the kernel's own resources.

#include <optional>
#include <string>
#include <vector>

#include "core/occupancy.hpp"

namespace tl::lab {

// What the compiled form says to a learner whose kernel passed: spills (with the lines they come
// from, where the SASS has line information, and the __launch_bounds__ that caps the registers,
// where there is one), and occupancy held low by registers or shared memory at the launch's block,
// modelled on the reference GPU of the architecture (an sm_90 build: an H100 SXM).
struct CompiledFeedback {
  std::string arch;  // "sm_90"
  int registers = 0;
  int spill_store_bytes = 0;
  int spill_load_bytes = 0;
  std::vector<int> spill_lines;  // kernel.cu lines of the local stores and loads, ascending
  int launch_bounds_line = 0;    // the line of a __launch_bounds__, 0: none
  std::optional<Occupancy> occupancy;
  std::string occupancy_gpu;  // the reference GPU it was modelled on
  // Sentences for the learner, most important first; empty: nothing to warn about.
  std::vector<std::string> warnings;
  std::string unavailable;  // why there is no feedback at all (no NVRTC); then the rest is empty
};

// Occupancy below this share of an SM's warp slots, set by registers or shared memory, is worth a
// word: latency hiding starts to thin there for a memory-bound kernel (a rule of thumb, not a law:
// the Occupancy tab says why occupancy is not speed).
inline constexpr double kLowOccupancy = 0.5;

}  // namespace tl::lab
