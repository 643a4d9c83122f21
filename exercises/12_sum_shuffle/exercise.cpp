// Exercise: warp-shuffle sums, one atomic per warp.
#include "common/exercise_kit.hpp"
#include "lab/exercise_registry.hpp"

namespace tl::exercise_modules {

const lab::Exercise& exercise_12_sum_shuffle() {
  static const lab::Exercise exercise = [] {
    using lab::SourceRule;
    lab::Exercise e = sum_exercise("sum-shuffle", "Sum with warp shuffles", "sum_shuffle",
                                   {SourceRule::kUsesWarpShuffle, SourceRule::kUsesAtomics},
                                   /*block_is_fixed=*/true);
    lab::attach_exercise_files(e, "exercises/12_sum_shuffle");
    return e;
  }();
  return exercise;
}

}  // namespace tl::exercise_modules
