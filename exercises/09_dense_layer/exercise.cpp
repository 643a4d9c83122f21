// Exercise: one dense layer, y = sigmoid(W x + b) (lesson 5).
#include <cmath>

#include "common/exercise_kit.hpp"
#include "lab/exercise_registry.hpp"

namespace tl::exercise_modules {

const lab::Exercise& exercise_09_dense_layer() {
  static const lab::Exercise exercise = [] {
    using namespace lab;
    Exercise e;
    e.id = "dense-layer";
    e.title = "A dense layer: y = sigmoid(W x + b)";
    e.lesson_id = "dense-layer";
    e.kernel_name = "dense_layer";
    e.parameters = {{"W", ParameterKind::kInputArray, ElementType::kFloat32, true},
                    {"x", ParameterKind::kInputArray},
                    {"b", ParameterKind::kInputArray},
                    {"y", ParameterKind::kOutputArray},
                    {"rows", ParameterKind::kInt},
                    {"cols", ParameterKind::kInt}};
    e.tolerance = {1e-5, 0.0};
    e.default_block = {128, 1, 1};
    const std::vector<ParameterSpec> parameters = e.parameters;
    e.make_cases = [parameters](std::uint64_t seed, Dim3 block) {
      Exercise shape;
      shape.parameters = parameters;
      std::vector<CheckCase> cases;
      for (const auto& [rows, cols] : {std::pair<std::int64_t, std::int64_t>{1, 1},
                                       {31, 33},
                                       {33, 31},
                                       {1000, 257},
                                       {4097, 1000}}) {
        CheckData data(seed * 389 + static_cast<std::uint64_t>(rows + 5 * cols));
        CheckCase check = empty_case(shape, "W " + shape_label(rows, cols));
        // Weights scaled by 1/sqrt(cols) keep W x in the sigmoid's sensitive range.
        const float scale = 1.0f / std::sqrt(static_cast<float>(cols));
        check.arguments[0].array = random_floats(data, rows, cols, -2.0f * scale, 2.0f * scale);
        check.arguments[1].array = random_floats(data, 1, cols, -1.0f, 1.0f);
        check.arguments[2].array = random_floats(data, 1, rows, -1.0f, 1.0f);
        check.arguments[3].array = unwritten(ElementType::kFloat32, 1, rows);
        check.arguments[4].int_value = static_cast<std::int32_t>(rows);
        check.arguments[5].int_value = static_cast<std::int32_t>(cols);
        std::vector<float> y(static_cast<std::size_t>(rows));
        for (std::int64_t r = 0; r < rows; ++r) {
          double v = check.arguments[2].array.float_at(r);
          for (std::int64_t k = 0; k < cols; ++k) {
            v += static_cast<double>(check.arguments[0].array.float_at(r * cols + k)) *
                 check.arguments[1].array.float_at(k);
          }
          y[static_cast<std::size_t>(r)] = static_cast<float>(1.0 / (1.0 + std::exp(-v)));
        }
        check.expected[3] = ArrayData::floats(1, rows, y);
        check.launch = {{blocks_for(rows, block.x), 1, 1}, {block.x, 1, 1}, 0};
        check.flops = 2.0 * static_cast<double>(rows) * static_cast<double>(cols);
        cases.push_back(std::move(check));
      }
      return cases;
    };
    attach_exercise_files(e, "exercises/09_dense_layer");
    return e;
  }();
  return exercise;
}

}  // namespace tl::exercise_modules
