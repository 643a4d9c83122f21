// Exercise: a multi-channel 2D convolution, one thread per output (lesson 11's first rung).
#include "common/exercise_kit.hpp"
#include "lab/exercise_registry.hpp"

namespace tl::exercise_modules {

const lab::Exercise& exercise_19_convolution_channels() {
  static const lab::Exercise exercise = [] {
    using namespace lab;
    Exercise e;
    e.id = "convolution-channels";
    e.title = "Convolution over channels, one thread per output";
    e.lesson_id = "convolution";
    e.kernel_name = "conv_channels";
    e.parameters = {{"in", ParameterKind::kInputArray},   {"w", ParameterKind::kInputArray},
                    {"out", ParameterKind::kOutputArray}, {"channels", ParameterKind::kInt},
                    {"height", ParameterKind::kInt},      {"width", ParameterKind::kInt},
                    {"filters", ParameterKind::kInt}};
    // Float sums of up to 16 · 9 = 144 products of values in [-1, 1] against a double reference:
    // a wrong window or channel is off by about 1, rounding by about 1e-5.
    e.tolerance = {1e-3, 1e-4};
    e.default_block = {16, 16, 1};
    e.block_is_fixed = true;
    const std::vector<ParameterSpec> parameters = e.parameters;
    e.make_cases = [parameters](std::uint64_t seed, Dim3 block) {
      Exercise shape;
      shape.parameters = parameters;
      struct Size {
        std::int64_t c, h, w, k;
      };
      std::vector<CheckCase> cases;
      for (const Size& size : {Size{1, 1, 1, 1}, Size{3, 31, 33, 5}, Size{4, 33, 31, 2},
                               Size{2, 17, 100, 3}, Size{16, 64, 48, 8}}) {
        const auto [c, h, w, k] = size;
        CheckData data(seed * 613 + static_cast<std::uint64_t>(c * 7 + h * 5 + w * 3 + k));
        CheckCase check =
            empty_case(shape, std::to_string(c) + " channels of " + shape_label(h, w) + ", " +
                                  std::to_string(k) + " filters");
        check.arguments[0].array = random_floats(data, c * h, w, -1.0f, 1.0f);
        check.arguments[1].array = random_floats(data, k * c, 9, -1.0f, 1.0f);
        check.arguments[2].array = unwritten(ElementType::kFloat32, k * h, w);
        check.arguments[3].int_value = static_cast<std::int32_t>(c);
        check.arguments[4].int_value = static_cast<std::int32_t>(h);
        check.arguments[5].int_value = static_cast<std::int32_t>(w);
        check.arguments[6].int_value = static_cast<std::int32_t>(k);
        const ArrayData& in = check.arguments[0].array;
        const ArrayData& wt = check.arguments[1].array;
        std::vector<float> out(static_cast<std::size_t>(k * h * w));
        for (std::int64_t f = 0; f < k; ++f) {
          for (std::int64_t y = 0; y < h; ++y) {
            for (std::int64_t x = 0; x < w; ++x) {
              double sum = 0.0;
              for (std::int64_t ch = 0; ch < c; ++ch) {
                for (int r = 0; r < 3; ++r) {
                  for (int s = 0; s < 3; ++s) {
                    const std::int64_t yy = y + r - 1;
                    const std::int64_t xx = x + s - 1;
                    if (yy < 0 || yy >= h || xx < 0 || xx >= w) continue;
                    sum += static_cast<double>(wt.float_at(((f * c + ch) * 3 + r) * 3 + s)) *
                           in.float_at((ch * h + yy) * w + xx);
                  }
                }
              }
              out[static_cast<std::size_t>((f * h + y) * w + x)] = static_cast<float>(sum);
            }
          }
        }
        check.expected[2] = ArrayData::floats(k * h, w, out);
        check.launch = {
            {blocks_for(w, block.x), blocks_for(h, block.y), static_cast<std::uint32_t>(k)},
            block,
            0};
        // C · 9 multiply-adds per output (fewer at the border, counted as C · 9).
        check.flops = 18.0 * static_cast<double>(c * k * h * w);
        cases.push_back(std::move(check));
      }
      return cases;
    };
    attach_exercise_files(e, "exercises/19_convolution_channels");
    return e;
  }();
  return exercise;
}

}  // namespace tl::exercise_modules
