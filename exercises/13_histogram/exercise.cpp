// Exercise: a histogram with global atomics on skewed data.
#include "common/exercise_kit.hpp"
#include "lab/exercise_registry.hpp"

namespace tl::exercise_modules {

const lab::Exercise& exercise_13_histogram() {
  static const lab::Exercise exercise = [] {
    using namespace lab;
    Exercise e;
    e.id = "histogram";
    e.title = "Histogram with atomics";
    e.lesson_id = "reductions";
    e.kernel_name = "histogram";
    e.parameters = {{"values", ParameterKind::kInputArray, ElementType::kInt32},
                    {"counts", ParameterKind::kOutputArray, ElementType::kInt32},
                    {"n", ParameterKind::kInt},
                    {"bins", ParameterKind::kInt}};
    e.rules = {SourceRule::kUsesAtomics};
    e.shared_outputs = true;
    e.default_block = {256, 1, 1};
    const std::vector<ParameterSpec> parameters = e.parameters;
    e.make_cases = [parameters](std::uint64_t seed, Dim3 block) {
      constexpr std::int32_t kBins = 64;
      Exercise shape;
      shape.parameters = parameters;
      std::vector<CheckCase> cases;
      for (std::int64_t n : kAwkwardLengths) {
        CheckData data(seed * 71 + static_cast<std::uint64_t>(n));
        const std::int32_t crowded = data.integer(0, kBins - 1);
        std::vector<std::int32_t> values(static_cast<std::size_t>(n));
        std::vector<std::int32_t> counts(kBins, 0);
        for (std::int32_t& v : values) {
          v = data.integer(0, 1) == 0 ? crowded : data.integer(0, kBins - 1);
          ++counts[static_cast<std::size_t>(v)];
        }
        CheckCase check = empty_case(shape, "n = " + std::to_string(n) + ", 64 bins");
        check.arguments[0].array = ArrayData::ints(1, n, values);
        const std::vector<std::int32_t> zeros(kBins, 0);
        check.arguments[1].array = ArrayData::ints(1, kBins, zeros);
        check.arguments[2].int_value = static_cast<std::int32_t>(n);
        check.arguments[3].int_value = kBins;
        check.expected[1] = ArrayData::ints(1, kBins, counts);
        check.launch = {{blocks_for(n, block.x), 1, 1}, {block.x, 1, 1}, 0};
        cases.push_back(std::move(check));
      }
      return cases;
    };
    attach_exercise_files(e, "exercises/13_histogram");
    return e;
  }();
  return exercise;
}

}  // namespace tl::exercise_modules
