#pragma once
// The Lab kernels whose memory traffic the GPU tests hold against the emulator's model (#33 item
// 5): the transpose exercises' solutions, the tiled one's tile left unpadded (a column of it in
// one bank: 32-way conflicts) and the same tile with an XOR swizzle instead of the 33rd column.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/memory/memory_model.hpp"
#include "lab/exercise_registry.hpp"
#include "lab/lab_check.hpp"

namespace tl::testing {

struct LabComparisonKernel {
  std::string exercise_id;
  std::string label;
  std::string source;
};

// The swizzle stores element (y, x) of the tile at column x ^ y: a warp reading down a column
// finds its 32 words in 32 different banks, and one writing along a row still does.
inline constexpr const char* kSwizzledTranspose = R"(
__global__ void transpose_shared(Matrix<const float> in, Matrix<float> out, int rows, int cols) {
  __shared__ float tile[32][32];
  const int in_col = blockIdx.x * 32 + threadIdx.x;
  const int in_row = blockIdx.y * 32 + threadIdx.y;
  if (in_row < rows && in_col < cols) {
    tile[threadIdx.y][threadIdx.x ^ threadIdx.y] = in(in_row, in_col);
  }
  __syncthreads();
  const int out_col = blockIdx.y * 32 + threadIdx.x;
  const int out_row = blockIdx.x * 32 + threadIdx.y;
  if (out_row < cols && out_col < rows) {
    out(out_row, out_col) = tile[threadIdx.x][threadIdx.y ^ threadIdx.x];
  }
}
)";

// In launch order. Empty where an exercise or its padded tile is missing (the caller fails).
inline std::vector<LabComparisonKernel> lab_comparison_kernels() {
  const lab::Exercise* naive = lab::find_exercise("transpose");
  const lab::Exercise* tiled = lab::find_exercise("transpose-shared");
  if (naive == nullptr || tiled == nullptr) return {};
  const std::string padded = tiled->solution;
  const std::string tile = "tile[32][33]";
  const std::size_t at = padded.find(tile);
  if (at == std::string::npos) return {};
  std::string unpadded = padded;
  unpadded.replace(at, tile.size(), "tile[32][32]");
  return {{"transpose", "naive transpose", naive->solution},
          {"transpose-shared", "tiled transpose, 32x33 tile", padded},
          {"transpose-shared", "tiled transpose, 32x32 tile", unpadded},
          {"transpose-shared", "tiled transpose, 32x32 tile, XOR swizzle", kSwizzledTranspose}};
}

// The case a comparison launches and records: the exercise's example case (what `lab check
// --memory` records), on the hidden data of seed 1.
inline lab::CheckCase comparison_case(const lab::Exercise& exercise) {
  const std::vector<lab::CheckCase> cases = exercise.make_cases(1, exercise.default_block);
  return cases[lab::example_case(exercise, cases)];
}

// The Lab's own recording of `source` on the emulator (`lab check --memory`, through a worker),
// over every block of the comparison case, so that its counts are the grid's, edge blocks too.
inline Result<memory::MemoryTable> record_lab_kernel(const lab::Exercise& exercise,
                                                     const std::string& source) {
  lab::LabOptions options;
  options.backend = lab::LabBackend::kEmulator;
  const char* executable = std::getenv("THREADLAB_EXECUTABLE");
  options.worker_executable = executable != nullptr ? executable : THREADLAB_EXECUTABLE;
  options.cache_dir = ::testing::TempDir() + "threadlab-lab-memory-comparison";
  options.timed_repeats = 0;
  options.compare_with_solution = false;
  options.timeout = std::chrono::milliseconds(30000);
  options.record_memory = true;
  options.record_blocks = comparison_case(exercise).launch.grid.volume();
  const lab::CheckVerdict verdict = lab::check_submission(exercise, source, options);
  if (verdict.outcome != lab::Outcome::kPassed) {
    return Error{ErrorKind::kInvalidArgument, "the check did not pass: " + verdict.reason};
  }
  if (!verdict.memory || !verdict.memory->unavailable.empty()) {
    return Error{ErrorKind::kInvalidArgument,
                 "no memory table: " + (verdict.memory ? verdict.memory->unavailable : "")};
  }
  const memory::MemoryTable& table = verdict.memory->reply.table;
  if (table.extrapolated()) {
    return Error{ErrorKind::kInvalidArgument, "only " + std::to_string(table.recorded_blocks) +
                                                  " of " + std::to_string(table.grid_blocks) +
                                                  " blocks were recorded"};
  }
  return table;
}

}  // namespace tl::testing
