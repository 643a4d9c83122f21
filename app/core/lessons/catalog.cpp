#include "catalog.hpp"

namespace tl::lessons {
namespace {

constexpr LessonInfo kLessons[] = {
    {1, "vector-add", "Vector add",
     "C = A + B, one thread per element: blocks, threads and the i < n guard", "01_vector_add",
     true},
    {2, "thread-hierarchy", "Thread hierarchy",
     "grid, blocks, warps and threads; grid-stride loops; SMs and waves", "02_thread_hierarchy",
     true},
    {3, "2d-blocks", "2D blocks", "dim3 grids on a matrix; coalesced against strided indexing",
     "03_2d_blocks", true},
    {4, "matmul", "Matrix multiply", "naive, shared-memory tiled and cuBLAS", "04_matmul", true},
    {5, "dense-layer", "Dense layer", "y = sigmoid(Wx + b): unfused, fused and cuBLAS",
     "05_dense_layer", true},
};

}  // namespace

std::span<const LessonInfo> catalog() {
  return kLessons;
}

std::optional<LessonInfo> find_lesson(std::string_view id) {
  for (const LessonInfo& lesson : kLessons) {
    if (lesson.id == id) return lesson;
  }
  return std::nullopt;
}

}  // namespace tl::lessons
