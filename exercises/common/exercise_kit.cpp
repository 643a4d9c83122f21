#include "common/exercise_kit.hpp"

namespace tl::exercise_modules {

using namespace lab;

ArrayData random_floats(CheckData& data, std::int64_t rows, std::int64_t cols, float low,
                        float high) {
  return ArrayData::floats(rows, cols, data.floats(rows * cols, low, high));
}

ArrayData unwritten(ElementType type, std::int64_t rows, std::int64_t cols) {
  return ArrayData::filled(type, rows, cols,
                           type == ElementType::kFloat32 ? kUnwrittenFloat : kUnwrittenInt);
}

CheckCase empty_case(const Exercise& exercise, std::string label) {
  CheckCase check;
  check.label = std::move(label);
  check.arguments.resize(exercise.parameters.size());
  check.expected.resize(exercise.parameters.size());
  return check;
}

std::string shape_label(std::int64_t rows, std::int64_t cols) {
  return std::to_string(rows) + " × " + std::to_string(cols);
}

Exercise matrix_add_exercise(bool x_walks_columns) {
  Exercise e;
  e.id = x_walks_columns ? "matrix-add" : "matrix-add-by-rows";
  e.title = x_walks_columns ? "Matrix add: x walks the columns" : "Matrix add: x walks the rows";
  e.lesson_id = "2d-blocks";
  e.kernel_name = x_walks_columns ? "matrix_add" : "matrix_add_by_rows";
  e.parameters = {{"A", ParameterKind::kInputArray, ElementType::kFloat32, true},
                  {"B", ParameterKind::kInputArray, ElementType::kFloat32, true},
                  {"C", ParameterKind::kOutputArray, ElementType::kFloat32, true},
                  {"rows", ParameterKind::kInt},
                  {"cols", ParameterKind::kInt}};
  e.tolerance = {0.0, 1e-6};
  e.default_block = {16, 16, 1};
  e.block_is_fixed = true;
  e.make_cases = [e_parameters = e.parameters, x_walks_columns](std::uint64_t seed, Dim3 block) {
    Exercise shape;
    shape.parameters = e_parameters;
    std::vector<CheckCase> cases;
    for (const auto& [rows, cols] : kAwkwardShapes) {
      CheckData data(seed * 31 + static_cast<std::uint64_t>(rows * 7 + cols));
      CheckCase check = empty_case(shape, "A, B, C " + shape_label(rows, cols));
      check.arguments[0].array = random_floats(data, rows, cols, -100.0f, 100.0f);
      check.arguments[1].array = random_floats(data, rows, cols, -100.0f, 100.0f);
      check.arguments[2].array = unwritten(ElementType::kFloat32, rows, cols);
      check.arguments[3].int_value = static_cast<std::int32_t>(rows);
      check.arguments[4].int_value = static_cast<std::int32_t>(cols);
      std::vector<float> sum(static_cast<std::size_t>(rows * cols));
      for (std::size_t i = 0; i < sum.size(); ++i) {
        sum[i] = check.arguments[0].array.float_at(static_cast<std::int64_t>(i)) +
                 check.arguments[1].array.float_at(static_cast<std::int64_t>(i));
      }
      check.expected[2] = ArrayData::floats(rows, cols, sum);
      const Dim3 grid = x_walks_columns
                            ? Dim3{blocks_for(cols, block.x), blocks_for(rows, block.y), 1}
                            : Dim3{blocks_for(rows, block.x), blocks_for(cols, block.y), 1};
      check.launch = {grid, block, 0};
      cases.push_back(std::move(check));
    }
    return cases;
  };
  return e;
}

Exercise transpose_exercise(bool tiled) {
  Exercise e;
  e.id = tiled ? "transpose-shared" : "transpose";
  e.title = tiled ? "Transpose through shared memory" : "Transpose";
  e.lesson_id = "2d-blocks";
  e.kernel_name = tiled ? "transpose_shared" : "transpose";
  e.parameters = {{"in", ParameterKind::kInputArray, ElementType::kFloat32, true},
                  {"out", ParameterKind::kOutputArray, ElementType::kFloat32, true},
                  {"rows", ParameterKind::kInt},
                  {"cols", ParameterKind::kInt}};
  if (tiled) e.rules = {SourceRule::kUsesSharedMemory, SourceRule::kUsesSyncthreads};
  e.default_block = tiled ? Dim3{32, 32, 1} : Dim3{16, 16, 1};
  e.block_is_fixed = true;
  const std::vector<ParameterSpec> parameters = e.parameters;
  e.make_cases = [parameters](std::uint64_t seed, Dim3 block) {
    Exercise shape;
    shape.parameters = parameters;
    std::vector<CheckCase> cases;
    for (const auto& [rows, cols] : kAwkwardShapes) {
      CheckData data(seed * 131 + static_cast<std::uint64_t>(rows * 3 + cols));
      CheckCase check = empty_case(shape, "in " + shape_label(rows, cols));
      check.arguments[0].array = random_floats(data, rows, cols, -100.0f, 100.0f);
      check.arguments[1].array = unwritten(ElementType::kFloat32, cols, rows);
      check.arguments[2].int_value = static_cast<std::int32_t>(rows);
      check.arguments[3].int_value = static_cast<std::int32_t>(cols);
      std::vector<float> transposed(static_cast<std::size_t>(rows * cols));
      for (std::int64_t r = 0; r < rows; ++r) {
        for (std::int64_t c = 0; c < cols; ++c) {
          transposed[static_cast<std::size_t>(c * rows + r)] =
              check.arguments[0].array.float_at(r * cols + c);
        }
      }
      check.expected[1] = ArrayData::floats(cols, rows, transposed);
      check.launch = {{blocks_for(cols, block.x), blocks_for(rows, block.y), 1}, block, 0};
      cases.push_back(std::move(check));
    }
    return cases;
  };
  return e;
}

Exercise matmul_exercise(bool tiled) {
  Exercise e;
  e.id = tiled ? "matmul-tiled" : "matmul";
  e.title = tiled ? "Matrix multiply with shared-memory tiles"
                  : "Matrix multiply, one thread per element";
  e.lesson_id = "matmul";
  e.kernel_name = tiled ? "matmul_tiled" : "matmul";
  e.parameters = {{"A", ParameterKind::kInputArray, ElementType::kFloat32, true},
                  {"B", ParameterKind::kInputArray, ElementType::kFloat32, true},
                  {"C", ParameterKind::kOutputArray, ElementType::kFloat32, true},
                  {"M", ParameterKind::kInt},
                  {"N", ParameterKind::kInt},
                  {"K", ParameterKind::kInt}};
  if (tiled) e.rules = {SourceRule::kUsesSharedMemory, SourceRule::kUsesSyncthreads};
  e.library_reference = "cublas-sgemm";
  // A block of the naive kernel loads each element of its rows of A and its columns of B once per
  // thread that needs it, 16 times; staged through the tiles, once.
  const std::string tiles = tiled ? "through 16 × 16 shared-memory tiles"
                                  : "through 16 × 16 shared-memory tiles (the next exercise)";
  e.access_budgets = {{"A", 1.0, tiles}, {"B", 1.0, tiles}};
  // Float sums of up to 300 products of values in [-1, 1], in any order, against a double
  // reference: a wrong index is off by about 1, rounding by about 1e-5.
  e.tolerance = {2e-3, 1e-4};
  e.default_block = {16, 16, 1};
  e.block_is_fixed = true;
  const std::vector<ParameterSpec> parameters = e.parameters;
  e.make_cases = [parameters](std::uint64_t seed, Dim3 block) {
    Exercise shape;
    shape.parameters = parameters;
    struct Size {
      std::int64_t m, k, n;
    };
    std::vector<CheckCase> cases;
    for (const Size& size : {Size{1, 1, 1}, Size{31, 33, 17}, Size{33, 31, 65}, Size{100, 257, 70},
                             Size{257, 300, 129}}) {
      const auto [m, k, n] = size;
      CheckData data(seed * 977 + static_cast<std::uint64_t>(m * 13 + k * 7 + n));
      CheckCase check = empty_case(shape, "A " + shape_label(m, k) + ", B " + shape_label(k, n));
      check.arguments[0].array = random_floats(data, m, k, -1.0f, 1.0f);
      check.arguments[1].array = random_floats(data, k, n, -1.0f, 1.0f);
      check.arguments[2].array = unwritten(ElementType::kFloat32, m, n);
      check.arguments[3].int_value = static_cast<std::int32_t>(m);
      check.arguments[4].int_value = static_cast<std::int32_t>(n);
      check.arguments[5].int_value = static_cast<std::int32_t>(k);
      std::vector<float> product(static_cast<std::size_t>(m * n));
      for (std::int64_t r = 0; r < m; ++r) {
        for (std::int64_t c = 0; c < n; ++c) {
          double sum = 0.0;
          for (std::int64_t i = 0; i < k; ++i) {
            sum += static_cast<double>(check.arguments[0].array.float_at(r * k + i)) *
                   check.arguments[1].array.float_at(i * n + c);
          }
          product[static_cast<std::size_t>(r * n + c)] = static_cast<float>(sum);
        }
      }
      check.expected[2] = ArrayData::floats(m, n, product);
      check.launch = {{blocks_for(n, block.x), blocks_for(m, block.y), 1}, block, 0};
      check.flops = 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
      cases.push_back(std::move(check));
    }
    return cases;
  };
  return e;
}

std::vector<CheckCase> sum_cases(const std::vector<ParameterSpec>& parameters, std::uint64_t seed,
                                 Dim3 block) {
  Exercise shape;
  shape.parameters = parameters;
  std::vector<CheckCase> cases;
  for (std::int64_t n : kAwkwardLengths) {
    CheckData data(seed * 53 + static_cast<std::uint64_t>(n));
    CheckCase check = empty_case(shape, "n = " + std::to_string(n));
    // Non-negative values: the sum grows with n, so a lost update or a missed element shows
    // far above the rounding of float additions in any order.
    check.arguments[0].array = random_floats(data, 1, n, 0.0f, 1.0f);
    const float zero = 0.0f;
    check.arguments[1].array = ArrayData::floats(1, 1, std::span<const float>(&zero, 1));
    check.arguments[2].int_value = static_cast<std::int32_t>(n);
    double sum = 0.0;
    for (std::int64_t i = 0; i < n; ++i) sum += check.arguments[0].array.float_at(i);
    const float total = static_cast<float>(sum);
    check.expected[1] = ArrayData::floats(1, 1, std::span<const float>(&total, 1));
    check.launch = {{blocks_for(n, block.x), 1, 1}, {block.x, 1, 1}, 0};
    cases.push_back(std::move(check));
  }
  return cases;
}

Exercise sum_exercise(std::string id, std::string title, std::string kernel,
                      std::vector<SourceRule> rules, bool block_is_fixed) {
  Exercise e;
  e.id = std::move(id);
  e.title = std::move(title);
  e.lesson_id = "reductions";
  e.kernel_name = std::move(kernel);
  e.parameters = {{"x", ParameterKind::kInputArray},
                  {"sum", ParameterKind::kOutputArray},
                  {"n", ParameterKind::kInt}};
  e.rules = std::move(rules);
  e.shared_outputs = true;  // every block adds into sum[0]
  // Float additions in an order of the GPU's choosing, against a double reference: about
  // sqrt(n) roundings of the running sum (about 6e-5 of it at n = 2^20 through atomics).
  // The small cases, exact to a few ulps, catch a missed tail element.
  e.tolerance = {1e-4, 5e-4};
  e.default_block = {256, 1, 1};
  e.block_is_fixed = block_is_fixed;
  const std::vector<ParameterSpec> parameters = e.parameters;
  e.make_cases = [parameters](std::uint64_t seed, Dim3 block) {
    return sum_cases(parameters, seed, block);
  };
  return e;
}

}  // namespace tl::exercise_modules

namespace tl::exercise_modules {

using namespace lab;

Exercise difference_exercise(std::string id, std::string title, std::vector<SourceRule> rules) {
  Exercise e;
  e.id = std::move(id);
  e.title = std::move(title);
  e.lesson_id = "debugging";
  e.kernel_name = "difference";
  e.parameters = {{"in", ParameterKind::kInputArray},
                  {"out", ParameterKind::kOutputArray},
                  {"n", ParameterKind::kInt}};
  e.rules = std::move(rules);
  // One float subtraction, done the same way on the host: the values must match exactly.
  e.tolerance = {0.0, 0.0};
  e.default_block = {256, 1, 1};
  // The kernel's tile is sized for the block: the block is part of its design.
  e.block_is_fixed = true;
  e.make_cases = [parameters = e.parameters](std::uint64_t seed, Dim3 block) {
    Exercise shape;
    shape.parameters = parameters;
    std::vector<CheckCase> cases;
    for (const std::int64_t n : kAwkwardLengths) {
      CheckData data(seed * 13 + static_cast<std::uint64_t>(n));
      CheckCase check = empty_case(shape, "n = " + std::to_string(n));
      check.arguments[0].array = random_floats(data, 1, n, -100.0f, 100.0f);
      check.arguments[1].array = unwritten(ElementType::kFloat32, 1, n);
      check.arguments[2].int_value = static_cast<std::int32_t>(n);
      std::vector<float> difference(static_cast<std::size_t>(n));
      for (std::int64_t i = 0; i < n; ++i) {
        const float left = i > 0 ? check.arguments[0].array.float_at(i - 1) : 0.0f;
        difference[static_cast<std::size_t>(i)] = check.arguments[0].array.float_at(i) - left;
      }
      check.expected[1] = ArrayData::floats(1, n, difference);
      check.launch = {{blocks_for(n, block.x), 1, 1}, {block.x, 1, 1}, 0};
      cases.push_back(std::move(check));
    }
    return cases;
  };
  return e;
}

}  // namespace tl::exercise_modules
