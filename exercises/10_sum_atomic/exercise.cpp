// Exercise: a sum through one atomic per element (the reductions lesson's first rung).
#include "common/exercise_kit.hpp"
#include "lab/exercise_registry.hpp"

namespace tl::exercise_modules {

const lab::Exercise& exercise_10_sum_atomic() {
  static const lab::Exercise exercise = [] {
    lab::Exercise e = sum_exercise("sum-atomic", "Sum with atomics", "sum_atomic",
                                   {lab::SourceRule::kUsesAtomics}, /*block_is_fixed=*/false);
    lab::attach_exercise_files(e, "exercises/10_sum_atomic");
    return e;
  }();
  return exercise;
}

}  // namespace tl::exercise_modules
