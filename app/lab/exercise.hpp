#pragma once
// A Kernel Lab exercise: what the learner is asked to write, how it is launched, and the hidden
// checks that judge it. Exercises live in exercises/NN_name/ (one folder and one line in
// exercises/CMakeLists.txt, like lessons); this header is the interface they fill.

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/dim3.hpp"

namespace tl::lab {

// Every Lab array holds 4-byte elements, so buffers travel as 32-bit words whatever their type.
enum class ElementType { kFloat32, kInt32 };
[[nodiscard]] const char* to_string(ElementType type);

// One parameter of the kernel the learner writes, in order.
enum class ParameterKind { kInputArray, kOutputArray, kInt, kFloat };
struct ParameterSpec {
  std::string name;  // as in the statement and the starter
  ParameterKind kind = ParameterKind::kInt;
  ElementType element = ElementType::kFloat32;  // arrays only
  bool matrix = false;  // arrays only: read as (rows, cols), may be passed as a Matrix<T>
};
[[nodiscard]] bool is_array(const ParameterSpec& parameter);

// The values of one array: rows × cols elements, row-major (rows = 1 for a vector).
struct ArrayData {
  ElementType type = ElementType::kFloat32;
  std::int64_t rows = 1;
  std::int64_t cols = 0;
  std::vector<std::uint32_t> words;

  [[nodiscard]] std::int64_t size() const { return rows * cols; }
  [[nodiscard]] float float_at(std::int64_t i) const;
  [[nodiscard]] std::int32_t int_at(std::int64_t i) const;
  // "1.5" or "-3": the element printed as its type.
  [[nodiscard]] std::string format_at(std::int64_t i) const;

  static ArrayData floats(std::int64_t rows, std::int64_t cols, std::span<const float> values);
  static ArrayData ints(std::int64_t rows, std::int64_t cols, std::span<const std::int32_t> values);
  static ArrayData filled(ElementType type, std::int64_t rows, std::int64_t cols,
                          std::uint32_t word);
};

// What an output holds before the kernel runs: a quiet NaN no correct kernel leaves behind, so an
// element nobody wrote is wrong even where the expected value is 0.
inline constexpr std::uint32_t kUnwrittenFloat = 0x7FC0DEADu;
inline constexpr std::uint32_t kUnwrittenInt = 0x80000001u;

// One argument of a check's launch: an array, or a scalar.
struct Argument {
  ArrayData array;  // arrays: the input, or an output's initial contents
  std::int32_t int_value = 0;
  float float_value = 0.0f;
};

struct LaunchShape {
  Dim3 grid;
  Dim3 block;
  std::uint32_t dynamic_shared_bytes = 0;
};

// How close an output must be: |got - expected| <= absolute + relative * |expected| (floats);
// integers must be equal.
struct Tolerance {
  double absolute = 0.0;
  double relative = 0.0;
};

// One hidden check: the kernel's arguments, its launch and what its outputs must hold.
struct CheckCase {
  std::string label;                // "n = 33", "A 31×33, B 33×17"
  std::vector<Argument> arguments;  // one per parameter, in order
  LaunchShape launch;
  std::vector<ArrayData> expected;  // one per parameter; filled for outputs only
  // Floating-point operations the computation needs (2·M·N·K for a matrix product), for the rate
  // of a passing kernel; 0 where the exercise does not count them (memory-bound ones).
  double flops = 0.0;
};

// Rules a submission must follow beyond its results, checked on its source text where they can be.
enum class SourceRule { kUsesSharedMemory, kUsesSyncthreads, kUsesAtomics, kUsesWarpShuffle };
[[nodiscard]] const char* describe(SourceRule rule);

// A submission the exercise must reject, with the words its verdict must contain (for the tests).
struct KnownWrongSubmission {
  std::string path;  // e.g. exercises/01_vector_add/wrong/missing_guard.cu
  std::string source;
  std::string expected_words;  // from the file's first line: `// expect: <words>`
};

struct Exercise {
  std::string id;         // "vector-add"
  std::string title;      // "Vector add with a guard"
  std::string lesson_id;  // the lesson whose Lab tab shows it
  std::string kernel_name;
  std::vector<ParameterSpec> parameters;
  std::vector<SourceRule> rules;
  // Outputs written by many threads on purpose (a sum through atomics): not flagged as written
  // twice.
  bool shared_outputs = false;
  Tolerance tolerance;
  // The launch the checks use for a given block (the learner's, where the exercise lets them
  // choose it), and whether they may choose it.
  Dim3 default_block;
  bool block_is_fixed = false;
  std::function<std::vector<CheckCase>(std::uint64_t seed, Dim3 block)> make_cases;
  // A library routine that computes the same thing, timed beside a passing kernel on the GPU
  // (the worker's RunRequest::library, e.g. "cublas-sgemm"); empty: none.
  std::string library_reference;

  // What a good solution's blocks load per element of an input array from global memory, and
  // how it gets there (memory::load_budgets): phrases the access-budget hint beside a passing
  // kernel's own figure ("through 16 × 16 shared-memory tiles it needs about 1"). A hint, never a
  // check. Empty: the figure alone.
  struct AccessBudget {
    std::string array;  // the input parameter's name
    double loads_per_element = 1.0;
    std::string how;  // "through 16 × 16 shared-memory tiles"
  };
  std::vector<AccessBudget> access_budgets;

  std::string statement;  // markdown
  std::string starter;
  std::string solution;
  std::vector<KnownWrongSubmission> known_wrong;
  // A ladder of hints (markdown each, from the folder's hints.md, separated by lines of `---`),
  // from a nudge to nearly the answer: the Lab shows them one at a time after a failed check,
  // before it offers the solution.
  std::vector<std::string> hints;
};

// The output parameters' indices, in order.
[[nodiscard]] std::vector<std::size_t> output_parameters(const Exercise& exercise);

// The least traffic a kernel solving `check` can make: every input array read once, every output
// written once, in bytes (4 per element). Its time at the device's copy rate is the memory
// ceiling a passing kernel is measured against.
[[nodiscard]] std::uint64_t least_traffic_bytes(const Exercise& exercise, const CheckCase& check);

// Blocks needed to cover `count` items with `per_block` per block.
[[nodiscard]] constexpr std::uint32_t blocks_for(std::int64_t count, std::uint32_t per_block) {
  return static_cast<std::uint32_t>((count + per_block - 1) / per_block);
}

// Deterministic pseudo-random data for the checks: the same seed gives the same data on every
// machine (std::uniform_real_distribution is not portable across standard libraries).
class CheckData {
 public:
  explicit CheckData(std::uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 1) {}
  std::uint64_t next();
  float uniform(float low, float high);
  std::int32_t integer(std::int32_t low, std::int32_t high_inclusive);
  std::vector<float> floats(std::int64_t count, float low, float high);

 private:
  std::uint64_t state_;
};

}  // namespace tl::lab
