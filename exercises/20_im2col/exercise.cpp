// Exercise: im2col, the unfolding that turns a convolution into one matrix product (lesson 11's
// third rung).
#include "common/exercise_kit.hpp"
#include "lab/exercise_registry.hpp"

namespace tl::exercise_modules {

const lab::Exercise& exercise_20_im2col() {
  static const lab::Exercise exercise = [] {
    using namespace lab;
    Exercise e;
    e.id = "im2col";
    e.title = "im2col: every 3 × 3 window as a column";
    e.lesson_id = "convolution";
    e.kernel_name = "im2col";
    e.parameters = {{"in", ParameterKind::kInputArray},
                    {"col", ParameterKind::kOutputArray},
                    {"channels", ParameterKind::kInt},
                    {"height", ParameterKind::kInt},
                    {"width", ParameterKind::kInt}};
    // A copy: every element is one input value or 0, exactly.
    e.tolerance = {0.0, 0.0};
    e.default_block = {256, 1, 1};
    const std::vector<ParameterSpec> parameters = e.parameters;
    e.make_cases = [parameters](std::uint64_t seed, Dim3 block) {
      Exercise shape;
      shape.parameters = parameters;
      struct Size {
        std::int64_t c, h, w;
      };
      std::vector<CheckCase> cases;
      for (const Size& size :
           {Size{1, 1, 1}, Size{3, 7, 5}, Size{2, 31, 33}, Size{5, 33, 17}, Size{16, 64, 57}}) {
        const auto [c, h, w] = size;
        CheckData data(seed * 811 + static_cast<std::uint64_t>(c * 11 + h * 3 + w));
        CheckCase check =
            empty_case(shape, std::to_string(c) + " channels of " + shape_label(h, w));
        check.arguments[0].array = random_floats(data, c * h, w, -1.0f, 1.0f);
        check.arguments[1].array = unwritten(ElementType::kFloat32, c * 9, h * w);
        check.arguments[2].int_value = static_cast<std::int32_t>(c);
        check.arguments[3].int_value = static_cast<std::int32_t>(h);
        check.arguments[4].int_value = static_cast<std::int32_t>(w);
        const ArrayData& in = check.arguments[0].array;
        std::vector<float> col(static_cast<std::size_t>(c * 9 * h * w));
        for (std::int64_t ch = 0; ch < c; ++ch) {
          for (int r = 0; r < 3; ++r) {
            for (int s = 0; s < 3; ++s) {
              for (std::int64_t y = 0; y < h; ++y) {
                for (std::int64_t x = 0; x < w; ++x) {
                  const std::int64_t yy = y + r - 1;
                  const std::int64_t xx = x + s - 1;
                  const bool inside = yy >= 0 && yy < h && xx >= 0 && xx < w;
                  col[static_cast<std::size_t>(((ch * 3 + r) * 3 + s) * h * w + y * w + x)] =
                      inside ? in.float_at((ch * h + yy) * w + xx) : 0.0f;
                }
              }
            }
          }
        }
        check.expected[1] = ArrayData::floats(c * 9, h * w, col);
        check.launch = {{blocks_for(c * 9 * h * w, block.x), 1, 1}, block, 0};
        cases.push_back(std::move(check));
      }
      return cases;
    };
    attach_exercise_files(e, "exercises/20_im2col");
    return e;
  }();
  return exercise;
}

}  // namespace tl::exercise_modules
