// Exercise: a grid-stride loop (lesson 1's --grid-stride).
#include "lab/exercise_registry.hpp"

namespace tl::exercise_modules {

const lab::Exercise& exercise_02_grid_stride() {
  static const lab::Exercise exercise = [] {
    using namespace lab;
    Exercise e;
    e.id = "grid-stride";
    e.title = "Vector add with a grid-stride loop";
    e.lesson_id = "vector-add";
    e.kernel_name = "vector_add_grid_stride";
    e.parameters = {{"a", ParameterKind::kInputArray},
                    {"b", ParameterKind::kInputArray},
                    {"c", ParameterKind::kOutputArray},
                    {"n", ParameterKind::kInt}};
    e.tolerance = {0.0, 1e-6};
    e.default_block = {256, 1, 1};
    e.make_cases = [](std::uint64_t seed, Dim3 block) {
      std::vector<CheckCase> cases;
      for (std::int64_t n : {1ll, 31ll, 33ll, 1000ll, (1ll << 20) + 7}) {
        CheckData data(seed + 7 * static_cast<std::uint64_t>(n));
        const std::vector<float> a = data.floats(n, -100.0f, 100.0f);
        const std::vector<float> b = data.floats(n, -100.0f, 100.0f);
        std::vector<float> c(a.size());
        for (std::size_t i = 0; i < c.size(); ++i) c[i] = a[i] + b[i];
        CheckCase check;
        check.label = "n = " + std::to_string(n);  // the launch, <<<4, B>>>, is shown beside it
        check.arguments.resize(4);
        check.arguments[0].array = ArrayData::floats(1, n, a);
        check.arguments[1].array = ArrayData::floats(1, n, b);
        check.arguments[2].array = ArrayData::filled(ElementType::kFloat32, 1, n, kUnwrittenFloat);
        check.arguments[3].int_value = static_cast<std::int32_t>(n);
        check.expected.resize(4);
        check.expected[2] = ArrayData::floats(1, n, c);
        check.launch = {{4, 1, 1}, {block.x, 1, 1}, 0};
        cases.push_back(std::move(check));
      }
      return cases;
    };
    attach_exercise_files(e, "exercises/02_grid_stride");
    return e;
  }();
  return exercise;
}

}  // namespace tl::exercise_modules
