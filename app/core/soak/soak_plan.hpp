#pragma once
// The soak run's ingredients, kept apart from the app so they are tested here: a reproducible
// stream of random user actions (valid and invalid settings, launches, lesson switches, sweeps
// started and cancelled, steps, presenter mode), and the verdict on memory sampled along the way
// (flat, or growing: a leak).

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/lessons/lesson_params.hpp"

namespace tl::soak {

enum class ActionKind {
  kLink,            // apply a "threadlab:set?..." link: settings (maybe invalid), maybe a launch
  kSweepAndCancel,  // start a size sweep, cancel it a moment later
  kSweepToTheEnd,   // start a block-size sweep and let it finish
  kNextStep,        // the clicker
  kPreviousStep,
  kTogglePresenter,  // rebuilds the font atlas
};

struct Action {
  ActionKind kind = ActionKind::kLink;
  std::string link;  // for kLink
};

// Sizes stay small on the emulator (which runs every thread on the CPU) and go large on a GPU.
enum class SoakScale { kEmulator, kGpu };

// A lesson parameter the soak sets: its spec, and for a count the largest value it tries (the
// caller derives it from the lessons' defaults on the backend, so sizes stay quick to run).
struct SoakParam {
  lessons::ParamSpec spec;
  std::uint64_t largest_count = 256;
};

// What the soak can say: the registered lessons' ids, the union of their parameters and the views.
// The app builds it from the lesson registry (app/ui/soak_runner.cpp); the stream names no lesson
// itself.
struct SoakVocabulary {
  std::vector<std::string> lessons;
  std::vector<SoakParam> params;
  std::vector<std::string> views;  // what "view=" takes: the generic views and the lessons' tabs
};

class ActionStream {
 public:
  ActionStream(std::uint64_t seed, SoakScale scale, SoakVocabulary vocabulary)
      : random_(seed), scale_(scale), vocabulary_(std::move(vocabulary)) {}
  Action next();

 private:
  std::string random_value(const SoakParam& param);
  std::mt19937_64 random_;
  SoakScale scale_;
  SoakVocabulary vocabulary_;
};

struct MemorySample {
  double seconds = 0;
  double host_bytes = 0;         // resident set of the process
  double device_used_bytes = 0;  // total - free on the GPU (0 on the emulator)
};

struct MemoryVerdict {
  bool flat = true;
  double host_growth_bytes = 0;
  double device_growth_bytes = 0;
  std::string summary;  // one line: the growth of each, and why it counts as flat or not
};

// Compares the median of the samples in the first `window_seconds` after `warmup_seconds` with the
// median of the last `window_seconds`. Growth within the allowance (caches settling, the allocator
// keeping freed pages) is flat; more is a leak.
struct MemoryAllowance {
  double warmup_seconds = 60;
  double window_seconds = 60;
  double host_bytes = 64.0 * 1024 * 1024;
  double host_fraction = 0.10;
  double device_bytes = 64.0 * 1024 * 1024;
};
MemoryVerdict judge_memory(const std::vector<MemorySample>& samples,
                           const MemoryAllowance& allowance = {});

// This process's resident memory, from /proc/self/statm (0 where there is none).
double resident_bytes();

}  // namespace tl::soak
