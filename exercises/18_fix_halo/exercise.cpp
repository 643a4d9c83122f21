// Exercise: the uninitialised read in lesson 10's adjacent difference (find and fix).
#include "common/exercise_kit.hpp"
#include "lab/exercise_registry.hpp"

namespace tl::exercise_modules {

const lab::Exercise& exercise_18_fix_halo() {
  static const lab::Exercise exercise = [] {
    using lab::SourceRule;
    lab::Exercise e =
        difference_exercise("fix-halo", "Find and fix: the uninitialised read",
                            {SourceRule::kUsesSharedMemory, SourceRule::kUsesSyncthreads});
    lab::attach_exercise_files(e, "exercises/18_fix_halo");
    return e;
  }();
  return exercise;
}

}  // namespace tl::exercise_modules
