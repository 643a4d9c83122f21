// Exercise: a shared-memory tree per block, one atomic per block.
#include "common/exercise_kit.hpp"
#include "lab/exercise_registry.hpp"

namespace tl::exercise_modules {

const lab::Exercise& exercise_11_sum_tree() {
  static const lab::Exercise exercise = [] {
    using lab::SourceRule;
    lab::Exercise e = sum_exercise(
        "sum-tree", "Sum with a shared-memory tree", "sum_tree",
        {SourceRule::kUsesSharedMemory, SourceRule::kUsesSyncthreads, SourceRule::kUsesAtomics},
        /*block_is_fixed=*/true);
    lab::attach_exercise_files(e, "exercises/11_sum_tree");
    return e;
  }();
  return exercise;
}

}  // namespace tl::exercise_modules
