// Exercise: row-wise softmax, stable against overflow (the reductions lesson).
#include <algorithm>
#include <cmath>

#include "common/exercise_kit.hpp"
#include "lab/exercise_registry.hpp"

namespace tl::exercise_modules {

const lab::Exercise& exercise_14_softmax() {
  static const lab::Exercise exercise = [] {
    using namespace lab;
    Exercise e;
    e.id = "softmax";
    e.title = "Row-wise softmax, numerically stable";
    e.lesson_id = "reductions";
    e.kernel_name = "softmax_rows";
    e.parameters = {{"in", ParameterKind::kInputArray, ElementType::kFloat32, true},
                    {"out", ParameterKind::kOutputArray, ElementType::kFloat32, true},
                    {"rows", ParameterKind::kInt},
                    {"cols", ParameterKind::kInt}};
    e.tolerance = {1e-6, 1e-4};
    e.default_block = {128, 1, 1};
    e.block_is_fixed = true;
    const std::vector<ParameterSpec> parameters = e.parameters;
    e.make_cases = [parameters](std::uint64_t seed, Dim3 block) {
      Exercise shape;
      shape.parameters = parameters;
      std::vector<CheckCase> cases;
      for (const auto& [rows, cols] : {std::pair<std::int64_t, std::int64_t>{1, 1},
                                       {31, 33},
                                       {33, 31},
                                       {100, 1000},
                                       {64, 5000}}) {
        CheckData data(seed * 613 + static_cast<std::uint64_t>(rows * 11 + cols));
        CheckCase check = empty_case(shape, "in " + shape_label(rows, cols));
        // Values up to 100: exp overflows a float past ~88.7, so only a stable kernel passes.
        check.arguments[0].array = random_floats(data, rows, cols, -20.0f, 100.0f);
        check.arguments[1].array = unwritten(ElementType::kFloat32, rows, cols);
        check.arguments[2].int_value = static_cast<std::int32_t>(rows);
        check.arguments[3].int_value = static_cast<std::int32_t>(cols);
        std::vector<float> softmax(static_cast<std::size_t>(rows * cols));
        for (std::int64_t r = 0; r < rows; ++r) {
          double m = -INFINITY;
          for (std::int64_t c = 0; c < cols; ++c) {
            m = std::max<double>(m, check.arguments[0].array.float_at(r * cols + c));
          }
          double sum = 0.0;
          for (std::int64_t c = 0; c < cols; ++c) {
            sum += std::exp(check.arguments[0].array.float_at(r * cols + c) - m);
          }
          for (std::int64_t c = 0; c < cols; ++c) {
            softmax[static_cast<std::size_t>(r * cols + c)] = static_cast<float>(
                std::exp(check.arguments[0].array.float_at(r * cols + c) - m) / sum);
          }
        }
        check.expected[1] = ArrayData::floats(rows, cols, softmax);
        check.launch = {{static_cast<std::uint32_t>(rows), 1, 1}, {block.x, 1, 1}, 0};
        cases.push_back(std::move(check));
      }
      return cases;
    };
    attach_exercise_files(e, "exercises/14_softmax");
    return e;
  }();
  return exercise;
}

}  // namespace tl::exercise_modules
