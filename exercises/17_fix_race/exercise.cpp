// Exercise: the race in lesson 10's adjacent difference (find and fix).
#include "common/exercise_kit.hpp"
#include "lab/exercise_registry.hpp"

namespace tl::exercise_modules {

const lab::Exercise& exercise_17_fix_race() {
  static const lab::Exercise exercise = [] {
    using lab::SourceRule;
    lab::Exercise e =
        difference_exercise("fix-race", "Find and fix: the race",
                            {SourceRule::kUsesSharedMemory, SourceRule::kUsesSyncthreads});
    lab::attach_exercise_files(e, "exercises/17_fix_race");
    return e;
  }();
  return exercise;
}

}  // namespace tl::exercise_modules
