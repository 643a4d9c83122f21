// Memory recording on the Lab's emulator path: a kernel built with record_memory reports every
// lane's global and shared accesses with their sites and lines, grouped into warp-level requests
// and counted by core/memory's model exactly as computed by hand.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "core/memory/memory_model.hpp"
#include "core/memory/warp_requests.hpp"
#include "lab/emulator/access_lines.hpp"
#include "lab/emulator/learner_compiler.hpp"
#include "lab/emulator/learner_module.hpp"

namespace tl::lab {
namespace {

namespace fs = std::filesystem;
using memory::AccessKind;
using memory::LineTotals;
using memory::MemorySpace;
using memory::MemoryTable;

class MemoryRecording : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* base = std::getenv("TMPDIR");
    cache_ = fs::path(base != nullptr ? base : "/tmp") /
             ("threadlab-memory-recording-test-" + std::to_string(::getpid()));
    fs::remove_all(cache_);
  }
  void TearDown() override { fs::remove_all(cache_); }

  EmulatedLearnerModule build(const std::string& source, const std::string& kernel) {
    LearnerCompileOptions options;
    options.record_memory = true;
    const LearnerCompileResult compiled = compile_learner_kernel(source, kernel, cache_, options);
    if (!compiled) {
      ADD_FAILURE() << compiled.failure().message << "\n" << compiled.failure().diagnostics;
      std::abort();
    }
    Result<EmulatedLearnerModule> module =
        EmulatedLearnerModule::load(compiled.build().shared_object);
    if (!module) {
      ADD_FAILURE() << module.message();
      std::abort();
    }
    return std::move(*module);
  }

  static MemoryTable table(const EmulatedLearnerModule::MemoryRecording& r) {
    const auto requests = memory::group_warp_requests(r.records);
    return memory::tabulate_by_line(requests, r.site_lines, r.recorded_blocks, r.grid_blocks);
  }

  static const LineTotals* row(const MemoryTable& t, int line, MemorySpace space, AccessKind kind) {
    for (const LineTotals& r : t.rows) {
      if (r.line == line && r.space == space && r.kind == kind) return &r;
    }
    return nullptr;
  }

  fs::path cache_;
};

// A cudaMalloc-like buffer: 256-byte aligned, so the sectors are those a GPU would count.
struct DeviceLikeBuffer {
  explicit DeviceLikeBuffer(std::size_t floats)
      : data(static_cast<float*>(std::aligned_alloc(256, (floats * 4 + 255) / 256 * 256))),
        count(floats) {
    for (std::size_t i = 0; i < floats; ++i) data[i] = static_cast<float>(i);
  }
  ~DeviceLikeBuffer() { std::free(data); }
  EmulatedLearnerModule::MemoryRange range() const {
    return {reinterpret_cast<std::uint64_t>(data), count * 4};
  }
  float* data;
  std::size_t count;
};

TEST_F(MemoryRecording, CoalescedAndStridedLoadsCountTheirSectorsPerLine) {
  const std::string source = R"(#include <cuda_runtime.h>
__global__ void k(const float* a, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[i];
  float y = a[(i * 32) % n];
  out[i] = x + y;
}
)";
  EmulatedLearnerModule module = build(source, "k");
  ASSERT_TRUE(module.records_memory());
  DeviceLikeBuffer a(8192), out(256);
  const float* pa = a.data;
  float* pout = out.data;
  int n = 8192;
  void* args[] = {&pa, &pout, &n};
  EmulatedLearnerModule::MemoryRecordingOptions options;
  options.global = {a.range(), out.range()};
  auto recorded = module.launch_recording_memory({4, 1, 1}, {64, 1, 1}, 0, args, options);
  ASSERT_TRUE(recorded.is_ok()) << recorded.message();
  EXPECT_EQ(out.data[5], 5.0f + 160.0f);  // the kernel ran as usual
  EXPECT_EQ(recorded->recorded_blocks, 4u);
  EXPECT_EQ(recorded->grid_blocks, 4u);
  if (!recorded->lines_note.empty()) GTEST_SKIP() << recorded->lines_note;
  const MemoryTable t = table(*recorded);
  EXPECT_FALSE(t.extrapolated());
  const LineTotals* coalesced = row(t, 4, MemorySpace::kGlobal, AccessKind::kLoad);
  const LineTotals* strided = row(t, 5, MemorySpace::kGlobal, AccessKind::kLoad);
  const LineTotals* store = row(t, 6, MemorySpace::kGlobal, AccessKind::kStore);
  ASSERT_NE(coalesced, nullptr);
  ASSERT_NE(strided, nullptr);
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(coalesced->requests, 8u);  // 4 blocks x 2 warps
  EXPECT_EQ(coalesced->lanes, 256u);
  EXPECT_DOUBLE_EQ(coalesced->sectors_per_request(), 4.0);
  EXPECT_EQ(strided->requests, 8u);
  EXPECT_DOUBLE_EQ(strided->sectors_per_request(), 32.0);
  EXPECT_DOUBLE_EQ(strided->ideal_sectors_per_request(), 4.0);
  EXPECT_DOUBLE_EQ(store->sectors_per_request(), 4.0);
  EXPECT_EQ(t.rows.size(), 3u) << "only the kernel's own accesses to its arrays";
}

TEST_F(MemoryRecording, ATileColumnConflictsThirtyTwoWaysAndThePaddedOneNot) {
  const std::string source = R"(#include <cuda_runtime.h>
__global__ void t(const float* in, float* out) {
  __shared__ float tile[32][32];
  __shared__ float padded[32][33];
  int x = threadIdx.x, y = threadIdx.y;
  tile[y][x] = in[y * 32 + x];
  padded[y][x] = in[y * 32 + x];
  __syncthreads();
  float a = tile[x][y];
  float b = padded[x][y];
  out[y * 32 + x] = a + b;
}
)";
  EmulatedLearnerModule module = build(source, "t");
  DeviceLikeBuffer in(1024), out(1024);
  const float* pin = in.data;
  float* pout = out.data;
  void* args[] = {&pin, &pout};
  EmulatedLearnerModule::MemoryRecordingOptions options;
  options.global = {in.range(), out.range()};
  auto recorded = module.launch_recording_memory({1, 1, 1}, {32, 32, 1}, 0, args, options);
  ASSERT_TRUE(recorded.is_ok()) << recorded.message();
  EXPECT_EQ(out.data[1], 2.0f * 32.0f);  // out[0][1] = in[1][0] twice
  if (!recorded->lines_note.empty()) GTEST_SKIP() << recorded->lines_note;
  const MemoryTable t = table(*recorded);
  const LineTotals* row_store = row(t, 6, MemorySpace::kShared, AccessKind::kStore);
  const LineTotals* column = row(t, 9, MemorySpace::kShared, AccessKind::kLoad);
  const LineTotals* padded = row(t, 10, MemorySpace::kShared, AccessKind::kLoad);
  ASSERT_NE(row_store, nullptr);
  ASSERT_NE(column, nullptr);
  ASSERT_NE(padded, nullptr);
  EXPECT_EQ(row_store->requests, 32u);
  EXPECT_EQ(row_store->bank_conflicts(), 0u);
  EXPECT_EQ(column->requests, 32u);
  EXPECT_EQ(column->worst_conflict_degree, 32u);
  EXPECT_EQ(column->bank_conflicts(), 32u * 31u);
  EXPECT_EQ(padded->requests, 32u);
  EXPECT_EQ(padded->bank_conflicts(), 0u);
}

TEST_F(MemoryRecording, ALargeGridRecordsAFewBlocksAndSaysTheRestIsExtrapolated) {
  const std::string source = R"(#include <cuda_runtime.h>
__global__ void copy(const float* a, float* b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  b[i] = a[i];
}
)";
  EmulatedLearnerModule module = build(source, "copy");
  DeviceLikeBuffer a(100 * 128), b(100 * 128);
  const float* pa = a.data;
  float* pb = b.data;
  void* args[] = {&pa, &pb};
  EmulatedLearnerModule::MemoryRecordingOptions options;
  options.global = {a.range(), b.range()};
  auto recorded = module.launch_recording_memory({100, 1, 1}, {128, 1, 1}, 0, args, options);
  ASSERT_TRUE(recorded.is_ok()) << recorded.message();
  EXPECT_EQ(b.data[100 * 128 - 1], 100.0f * 128 - 1);
  EXPECT_EQ(recorded->recorded_blocks, 4u);
  const MemoryTable t = table(*recorded);
  EXPECT_TRUE(t.extrapolated());
  EXPECT_DOUBLE_EQ(t.grid_scale(), 25.0);
  std::uint64_t loads = 0;
  for (const LineTotals& r : t.rows) {
    if (r.kind == AccessKind::kLoad) loads += r.requests;
  }
  EXPECT_EQ(loads, 4u * 4u);  // 4 recorded blocks x 4 warps
}

TEST_F(MemoryRecording, ABuildThatDoesNotRecordIsRefused) {
  const std::string source = "__global__ void k(float* a) { a[threadIdx.x] = 1; }\n";
  const LearnerCompileResult compiled = compile_learner_kernel(source, "k", cache_);
  ASSERT_TRUE(compiled.ok());
  auto module = EmulatedLearnerModule::load(compiled.build().shared_object);
  ASSERT_TRUE(module.is_ok());
  EXPECT_FALSE(module->records_memory());
  float a[32];
  float* pa = a;
  void* args[] = {&pa};
  auto recorded = module->launch_recording_memory({1, 1, 1}, {32, 1, 1}, 0, args, {});
  EXPECT_FALSE(recorded.is_ok());

  LearnerCompileOptions both;
  both.record_memory = true;
  both.check_shared_races = true;
  const LearnerCompileResult refused = compile_learner_kernel(source, "k", cache_, both);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.failure().kind, LearnerCompileFailure::Kind::kBadRequest);
}

TEST(ParseAddr2line, TakesTheInnermostFrameInTheKernelsFile) {
  const std::string output =
      "0x0000000000001234\n"
      "/cache/ab/threadlab_lab.cuh:150\n"
      "/cache/ab/kernel.cu:7 (discriminator 2)\n"
      "/cache/ab/kernel.cu:12\n"
      "0x0000000000001300\n"
      "??:0\n"
      "0x0000000000001310\n"
      "/cache/ab/kernel.cu:9\n";
  EXPECT_EQ(parse_addr2line(output, 3, "kernel.cu"), (std::vector<int>{7, 0, 9}));
  EXPECT_EQ(parse_addr2line("", 2, "kernel.cu"), (std::vector<int>{0, 0}));
}

}  // namespace
}  // namespace tl::lab
