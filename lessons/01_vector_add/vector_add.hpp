#pragma once
// Lesson 1, vector add C = A + B: the parameters, the CPU references and the check. No CUDA here:
// the kernels live in lessons/01_vector_add/kernels/vector_add.cuh and run through app/compute.

#include <cstdint>
#include <span>
#include <string>

#include "core/launch_config.hpp"
#include "core/lessons/catalog.hpp"
#include "core/lessons/random_inputs.hpp"
#include "core/result.hpp"

namespace tl::lessons {

// Who this lesson is, as its module registers it (module.cpp).
inline constexpr LessonInfo kVectorAddInfo{
    1, "vector-add", "Vector add",
    "C = A + B, one thread per element: blocks, threads and the i < n guard", "01_vector_add"};
inline constexpr std::string_view kVectorAddId = kVectorAddInfo.id;

// Bytes and floating-point operations of one C = A + B over n floats: read A and B, write C.
[[nodiscard]] inline double vector_add_bytes(std::uint64_t n) {
  return 12.0 * static_cast<double>(n);
}
[[nodiscard]] inline double vector_add_flops(std::uint64_t n) {
  return static_cast<double>(n);
}

// The kernel indexes with a 32-bit int, as the source article writes it.
inline constexpr std::uint64_t kVectorAddMaxN = 0x7FFFFFFFull;

// n must be at least 1, fit the kernel's int index and, with its three float arrays `copies` times
// (2: the host's and the emulator's, which share this computer's memory), the memory available
// (max_bytes; 0 skips that check).
Status validate_vector_add_size(std::uint64_t n, std::uint64_t max_bytes, int copies = 1);

// The kernel computes i = blockIdx.x * blockDim.x + threadIdx.x in a 32-bit int. With more than
// 2^31 threads along x that wraps to negative values that pass `i < n` and write outside the
// arrays, so such launches are refused with the reason (a grid-stride loop, lesson 2, covers any N
// instead).
Status check_vector_add_index_range(const LaunchConfig& config);

// The source article's first launch: one block of n threads.
[[nodiscard]] LaunchConfig single_block_config(std::uint64_t n);
// Enough blocks of `threads_per_block` threads to give every element its own thread.
[[nodiscard]] LaunchConfig covering_config(std::uint64_t n, std::uint32_t threads_per_block);

// The launch of the vectorized kernel (lessons/01_vector_add/kernels/vector_add.cuh,
// vector_add_vectorized): blocks of 256 threads, enough for one float4 per thread (ceil(N / 4)
// threads). A grid sized to the device (a few blocks per SM, the threads looping) measured 0.5-5 %
// slower on an H200 (docs/PERFORMANCE.md, "Vector add").
[[nodiscard]] LaunchConfig vectorized_vector_add_config(std::uint64_t n);

// The plain loop a beginner writes: one thread, one element after another.
void vector_add_reference(std::span<const float> a, std::span<const float> b, std::span<float> c);
// The same work split over `threads` std::threads (0: all hardware threads). Small inputs use fewer
// threads, since starting one costs more than its share of adds; returns how many were used.
unsigned vector_add_reference_parallel(std::span<const float> a, std::span<const float> b,
                                       std::span<float> c, unsigned threads = 0);

struct CheckResult {
  bool passed = true;
  std::uint64_t wrong_count = 0;
  std::uint64_t first_wrong = 0;  // meaningful when !passed
  float expected = 0;
  float actual = 0;
  [[nodiscard]] std::string describe() const;
};

// Compares c against a + b element by element. Float addition is exact to compare here: GPU,
// emulator and CPU all compute one correctly rounded add per element.
CheckResult check_vector_add(std::span<const float> a, std::span<const float> b,
                             std::span<const float> c);

}  // namespace tl::lessons
