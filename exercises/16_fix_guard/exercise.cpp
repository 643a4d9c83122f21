// Exercise: the missing guard in lesson 10's adjacent difference (find and fix).
#include "common/exercise_kit.hpp"
#include "lab/exercise_registry.hpp"

namespace tl::exercise_modules {

const lab::Exercise& exercise_16_fix_guard() {
  static const lab::Exercise exercise = [] {
    using lab::SourceRule;
    lab::Exercise e =
        difference_exercise("fix-guard", "Find and fix: the missing guard",
                            {SourceRule::kUsesSharedMemory, SourceRule::kUsesSyncthreads});
    lab::attach_exercise_files(e, "exercises/16_fix_guard");
    return e;
  }();
  return exercise;
}

}  // namespace tl::exercise_modules
