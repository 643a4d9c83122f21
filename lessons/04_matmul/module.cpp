// Registers lesson 4 (matmul): lessons/CMakeLists.txt names this folder, and the build's
// generated registry calls the function below.

#include "compute/lessons/lesson_registry.hpp"
#include "lessons/04_matmul/matmul.hpp"
#include "matmul_benchmark.hpp"
#include "matmul_lesson.hpp"

namespace tl::lesson_modules {
namespace {

// Where this lesson on the CPU emulator differs from a GPU, and why (shown only on the emulator).
constexpr lessons::EmulatorNote kEmulatorNotes[] = {
    {"", "Emulator: no GPU wins here",
     "The emulator runs every thread on the CPU. Shared memory is ordinary CPU memory that the "
     "caches already serve, so tiling adds copies and a switch through the block's threads at "
     "every __syncthreads(), and the tensor-core rungs need a GPU. The rungs' order here, and "
     "the GPU pulling away from the CPU, say nothing about a GPU's."},
    {"The GPU gains more as the matrices grow", "Emulator: no GPU to pull ahead",
     "The \"kernel\" series is the emulated kernel on this CPU, with the emulator's "
     "cost of running each thread on top: it does not climb away from the CPU's triple "
     "loop as a GPU's does."},
    {"Shared memory and tiles", "Emulator: tiled is slower here",
     "Its __shared__ tile is ordinary CPU memory, no faster than the caches the naive "
     "kernel already reads through, and every __syncthreads() switches through all the "
     "block's threads. On a GPU the tile sits in the SM and cuts the reads from global "
     "memory TILE times."},
};

}  // namespace

const compute::LessonModule& lesson_04_matmul() {
  static const compute::LessonModule kModule{lessons::kMatmulInfo, &compute::make_matmul_lesson,
                                             &compute::matmul_benchmark, nullptr, kEmulatorNotes};
  return kModule;
}

}  // namespace tl::lesson_modules
