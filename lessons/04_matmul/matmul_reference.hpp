#pragma once
// Lesson 4's CPU references for C = A · B (row-major, A M×K, B K×N, C M×N). Both add the K terms
// of each element in the same order, l = 0, 1, ..., K - 1, as the naive kernel does.

#include <span>

#include "lessons/04_matmul/matmul.hpp"

namespace tl::lessons {

// The article's triple loop, on one thread: for each element of C, a dot product of a row of A and
// a column of B. Walking down a column of B touches a new cache line for every term, which is why
// it is slow even for a CPU.
void matmul_reference(std::span<const float> a, std::span<const float> b, std::span<float> c,
                      const MatmulSize& size);

// What a CPU library does first: the rows of C split over `threads` std::threads (0: all hardware
// threads), and the loops reordered and blocked so that each thread streams rows of B and C that
// stay in cache, which the compiler can vectorise. Small products use fewer threads, since
// starting one costs more than its share; returns how many were used.
unsigned matmul_reference_blocked(std::span<const float> a, std::span<const float> b,
                                  std::span<float> c, const MatmulSize& size, unsigned threads = 0);

// The thread count matmul_reference_blocked picks for `size` when asked for `threads`.
[[nodiscard]] unsigned matmul_reference_threads(const MatmulSize& size, unsigned threads = 0);

}  // namespace tl::lessons
