// The timed and the traced kernel of every pair map threads to elements identically
// (kernels/mapping_probe.hpp), and the probe catches a pair that does not: the planted change of
// issue 15, a timed x_to_row made coalesced while the drawn one stayed strided.

#include "kernels/mapping_probe.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels/emulator/cuda_emulation.hpp"
#include "kernels/emulator/emulate.hpp"
#include "kernels/kernel_registry.hpp"
#include "kernels/trace.cuh"

namespace planted {
// The drawn kernel still maps x to rows, as the lesson explains...
template <class Trace>
__global__ void add_x_to_row(const float* a, const float* b, float* c, int rows, int cols,
                             Trace trace) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  const int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) {
    c[row * cols + col] = a[row * cols + col] + b[row * cols + col];
    trace.wrote(row * cols + col);
  }
}
// ...while the timed one was changed to map x to columns: coalesced, and several times faster.
__global__ void add_x_to_col(const float* a, const float* b, float* c, int rows, int cols) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) c[row * cols + col] = a[row * cols + col] + b[row * cols + col];
}
}  // namespace planted

namespace tl::kernels {
namespace {

// Every registered kernel set, by name, for the parametrised suite below: the registry is the list,
// so a new lesson's set is probed without a line here.
std::vector<MappingProbeSet> probe_sets() {
  const auto sets = registered_mapping_probes();
  return {sets.begin(), sets.end()};
}

class EveryKernelSet : public ::testing::TestWithParam<MappingProbeSet> {};

// Each set's timed and traced kernels agree on every probe configuration; a set without probes
// says why (its lesson's line in lessons/CMakeLists.txt), and has no probe file that went unlisted.
TEST_P(EveryKernelSet, TimedAndTracedKernelsMapThreadsAlike) {
  const MappingProbeSet& set = GetParam();
  if (set.probes == nullptr) {
    EXPECT_GT(set.no_probes_because.size(), 20u)
        << set.set << " has no mapping probes and does not say why";
    GTEST_SKIP() << set.set << " has no mapping probes: " << set.no_probes_because;
  }
  const std::vector<MappingProbe> probes = set.probes();
  ASSERT_FALSE(probes.empty()) << set.set << " registers a probe list that is empty";
  for (const MappingProbe& probe : probes) {
    SCOPED_TRACE(probe.name);
    auto report = compare_mappings(probe);
    ASSERT_TRUE(report.is_ok()) << report.message();
    EXPECT_TRUE(report->same()) << report->mismatch;
    // The probe saw something: every element written by the timed kernel, every thread of the grid
    // stepped at least once, and two launches, the timed kernel's and the traced one's.
    EXPECT_EQ(report->elements, probe.rows * probe.cols);
    EXPECT_EQ(report->timed_written, report->elements);
    EXPECT_GE(report->thread_steps, probe.config.total_threads());
    ASSERT_EQ(report->kernels.size(), 2u);
    EXPECT_EQ(report->kernels[0].find("_traced"), std::string::npos) << report->kernels[0];
  }
}

INSTANTIATE_TEST_SUITE_P(Registered, EveryKernelSet, ::testing::ValuesIn(probe_sets()),
                         [](const ::testing::TestParamInfo<MappingProbeSet>& info) {
                           return std::string(info.param.set);
                         });

// The probe list and the emulator's kernel registry come from the same lesson lines: one entry
// each, in the same order.
TEST(MappingProbe, EveryRegisteredKernelSetIsInTheProbeList) {
  const auto sets = emulator_kernels().sets();
  const auto probes = registered_mapping_probes();
  ASSERT_EQ(sets.size(), probes.size());
  for (std::size_t i = 0; i < sets.size(); ++i) {
    EXPECT_EQ(sets[i].set, probes[i].set);
    EXPECT_EQ(sets[i].lesson, probes[i].lesson);
  }
}

MappingProbe planted_probe() {
  const int rows = 16, cols = 16;
  const LaunchConfig config{{2, 4, 1}, {8, 4, 1}};  // covers 16 × 16 either way round
  auto a = probe_inputs(rows * cols, 1), b = probe_inputs(rows * cols, 2);
  MappingProbe probe;
  probe.name = "planted x_to_row";
  probe.config = config;
  probe.rows = rows;
  probe.cols = cols;
  probe.timed = [=](float* c) {
    return emu::emulate("add_x_to_col", config, {},
                        [&] { planted::add_x_to_col(a->data(), b->data(), c, rows, cols); });
  };
  probe.traced = [=](float* c, TraceRecord* trace) {
    return emu::emulate("add_x_to_row_traced", config, {}, [&] {
      planted::add_x_to_row(a->data(), b->data(), c, rows, cols, Traced{trace});
    });
  };
  return probe;
}

TEST(MappingProbe, CatchesATimedKernelThatNoLongerMapsLikeTheDrawnOne) {
  auto report = compare_mappings(planted_probe());
  ASSERT_TRUE(report.is_ok()) << report.message();
  ASSERT_FALSE(report->same());
  // Element (0, 0) is thread 0 of block 0 either way. Element (0, 1) is the timed kernel's thread
  // x = 1 (linear 1) but the drawn kernel's thread y = 1 (linear 1 · 8 = 8).
  EXPECT_EQ(report->mismatch,
            "planted x_to_row: element (0, 1): timed written by block 0 thread 1, traced by "
            "block 0 thread 8");
}

TEST(MappingProbe, AgreesWhenTheTimedKernelIsTheDrawnOnesOwnSource) {
  MappingProbe probe = planted_probe();
  const LaunchConfig config = probe.config;
  auto a = probe_inputs(16 * 16, 1), b = probe_inputs(16 * 16, 2);
  probe.timed = [=](float* c) {
    return emu::emulate("add_x_to_row", config, {}, [&] {
      planted::add_x_to_row(a->data(), b->data(), c, 16, 16, Untraced{});
    });
  };
  auto report = compare_mappings(probe);
  ASSERT_TRUE(report.is_ok()) << report.message();
  EXPECT_TRUE(report->same()) << report->mismatch;
}

TEST(MappingProbe, NamesAnElementWrittenTwice) {
  MappingProbe probe = planted_probe();
  const LaunchConfig config = probe.config;
  auto a = probe_inputs(16 * 16, 1), b = probe_inputs(16 * 16, 2);
  // The drawn kernel's mapping, and one more write of element (3, 5) by thread 0 of block 7.
  probe.timed = [=](float* c) {
    return emu::emulate("add_x_to_row_twice", config, {}, [&] {
      planted::add_x_to_row(a->data(), b->data(), c, 16, 16, Untraced{});
      if (blockIdx.x == 1 && blockIdx.y == 3 && threadIdx.x == 0 && threadIdx.y == 0) {
        c[3 * 16 + 5] = 1.0f;
      }
    });
  };
  auto report = compare_mappings(probe);
  ASSERT_TRUE(report.is_ok()) << report.message();
  EXPECT_NE(report->mismatch.find("element (3, 5): timed written by block 7 thread 0 (2 writes"),
            std::string::npos)
      << report->mismatch;
}

TEST(MappingProbe, ReportsAFailedLaunch) {
  MappingProbe probe = planted_probe();
  probe.config = {{1, 1, 1}, {2048, 1, 1}};
  const LaunchConfig refused = probe.config;
  probe.timed = [=](float*) { return emu::emulate("too_big", refused, {}, [] {}); };
  auto report = compare_mappings(probe);
  ASSERT_FALSE(report.is_ok());
  EXPECT_NE(report.message().find("too_big"), std::string::npos) << report.message();
}

// A watched grid steps every thread once without barriers, and once per stretch between barriers
// with them, naming each (block, thread) pair.
TEST(MappingProbe, WatchedGridStepsThreadByThread) {
  const LaunchConfig config{{3, 2, 1}, {4, 2, 1}};
  std::vector<int> steps(config.total_threads(), 0);
  auto count = [&](std::uint64_t block, std::uint32_t thread) { ++steps[block * 8 + thread]; };
  emu::GridOptions options;
  options.after_step = count;
  ASSERT_TRUE(emu::run_grid(config, options, [] {}).is_ok());
  for (int s : steps) EXPECT_EQ(s, 1);
  options.barriers = emu::Barriers::kUsed;
  ASSERT_TRUE(emu::run_grid(config, options, [] {
                __syncthreads();
                __syncthreads();
              }).is_ok());
  for (int s : steps) EXPECT_EQ(s, 1 + 3);  // three stretches: before, between and after
}

}  // namespace
}  // namespace tl::kernels
