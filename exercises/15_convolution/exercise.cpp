// Exercise: a 3 × 3 convolution through a shared-memory tile with a halo.
#include "common/exercise_kit.hpp"
#include "lab/exercise_registry.hpp"

namespace tl::exercise_modules {

const lab::Exercise& exercise_15_convolution() {
  static const lab::Exercise exercise = [] {
    using namespace lab;
    Exercise e;
    e.id = "convolution";
    e.title = "2D convolution with a shared-memory halo";
    e.lesson_id = "2d-blocks";
    e.kernel_name = "convolution";
    e.parameters = {{"in", ParameterKind::kInputArray, ElementType::kFloat32, true},
                    {"w", ParameterKind::kInputArray},
                    {"out", ParameterKind::kOutputArray, ElementType::kFloat32, true},
                    {"rows", ParameterKind::kInt},
                    {"cols", ParameterKind::kInt}};
    e.rules = {SourceRule::kUsesSharedMemory, SourceRule::kUsesSyncthreads};
    e.tolerance = {1e-4, 1e-5};
    e.default_block = {16, 16, 1};
    e.block_is_fixed = true;
    const std::vector<ParameterSpec> parameters = e.parameters;
    e.make_cases = [parameters](std::uint64_t seed, Dim3 block) {
      Exercise shape;
      shape.parameters = parameters;
      std::vector<CheckCase> cases;
      for (const auto& [rows, cols] : kAwkwardShapes) {
        CheckData data(seed * 409 + static_cast<std::uint64_t>(rows * 5 + cols));
        CheckCase check = empty_case(shape, "image " + shape_label(rows, cols));
        check.arguments[0].array = random_floats(data, rows, cols, -1.0f, 1.0f);
        // No two weights alike: a kernel flipped or shifted by one gives a different sum.
        check.arguments[1].array = random_floats(data, 1, 9, -1.0f, 1.0f);
        check.arguments[2].array = unwritten(ElementType::kFloat32, rows, cols);
        check.arguments[3].int_value = static_cast<std::int32_t>(rows);
        check.arguments[4].int_value = static_cast<std::int32_t>(cols);
        const ArrayData& in = check.arguments[0].array;
        const ArrayData& w = check.arguments[1].array;
        std::vector<float> out(static_cast<std::size_t>(rows * cols));
        for (std::int64_t r = 0; r < rows; ++r) {
          for (std::int64_t c = 0; c < cols; ++c) {
            double sum = 0.0;
            for (int dr = -1; dr <= 1; ++dr) {
              for (int dc = -1; dc <= 1; ++dc) {
                const std::int64_t rr = r + dr;
                const std::int64_t cc = c + dc;
                if (rr < 0 || rr >= rows || cc < 0 || cc >= cols) continue;
                sum += static_cast<double>(w.float_at((dr + 1) * 3 + dc + 1)) *
                       in.float_at(rr * cols + cc);
              }
            }
            out[static_cast<std::size_t>(r * cols + c)] = static_cast<float>(sum);
          }
        }
        check.expected[2] = ArrayData::floats(rows, cols, out);
        check.launch = {{blocks_for(cols, block.x), blocks_for(rows, block.y), 1}, block, 0};
        // Nine multiply-adds per output pixel (fewer at the border, counted as nine).
        check.flops = 18.0 * static_cast<double>(rows) * static_cast<double>(cols);
        cases.push_back(std::move(check));
      }
      return cases;
    };
    attach_exercise_files(e, "exercises/15_convolution");
    return e;
  }();
  return exercise;
}

}  // namespace tl::exercise_modules
