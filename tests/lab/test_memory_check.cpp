// A Lab check with record_memory on the CPU emulator, through `threadlab worker`: the passing
// kernel's per-line memory table, counted from every lane of the recorded blocks, and its notes.
// The numbers are those worked out by hand (a coalesced against a strided load), and those the
// transpose exercises teach: the naive kernel's strided stores, the tiled one's coalesced ones,
// and the tile's 32-way bank conflict that the 33rd column removes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>

#include "lab/exercise_registry.hpp"
#include "lab/lab_check.hpp"

namespace tl::lab {
namespace {

LabOptions memory_options() {
  LabOptions options;
  options.backend = LabBackend::kEmulator;
  const char* executable = std::getenv("THREADLAB_EXECUTABLE");
  options.worker_executable = executable != nullptr ? executable : THREADLAB_EXECUTABLE;
  const char* shared_cache = std::getenv("THREADLAB_TEST_LAB_CACHE");
  options.cache_dir = shared_cache != nullptr && *shared_cache != '\0'
                          ? std::string(shared_cache) + "/memory-check"
                          : ::testing::TempDir() + "threadlab-lab-memory-cache";
  options.timed_repeats = 0;
  options.compare_with_solution = false;
  options.timeout = std::chrono::milliseconds(20000);
  options.record_memory = true;
  return options;
}

// out[i] = in[i] + in[(32 i) mod n]: one coalesced and one strided load of the same array.
const Exercise& gather_exercise() {
  static const Exercise exercise = [] {
    Exercise e;
    e.id = "gather";
    e.kernel_name = "gather";
    e.parameters = {{"in", ParameterKind::kInputArray},
                    {"out", ParameterKind::kOutputArray},
                    {"n", ParameterKind::kInt}};
    e.default_block = {256, 1, 1};
    e.block_is_fixed = true;
    e.make_cases = [](std::uint64_t seed, Dim3 block) {
      constexpr std::int64_t n = 4096;
      CheckData data(seed);
      const std::vector<float> in = data.floats(n, -1.0f, 1.0f);
      std::vector<float> out(n);
      for (std::int64_t i = 0; i < n; ++i) out[i] = in[i] + in[(i * 32) % n];
      CheckCase c;
      c.label = "n = 4096";
      c.arguments = {{ArrayData::floats(1, n, in)},
                     {ArrayData::filled(ElementType::kFloat32, 1, n, kUnwrittenFloat)},
                     {ArrayData{}, static_cast<std::int32_t>(n)}};
      c.expected = {ArrayData{}, ArrayData::floats(1, n, out), ArrayData{}};
      c.launch = {{blocks_for(n, block.x), 1, 1}, block, 0};
      return std::vector<CheckCase>{c};
    };
    return e;
  }();
  return exercise;
}

const memory::LineTotals* row_of(const MemoryFindings& f, int line, memory::MemorySpace space,
                                 memory::AccessKind kind, std::size_t* index = nullptr) {
  for (std::size_t i = 0; i < f.reply.table.rows.size(); ++i) {
    const memory::LineTotals& r = f.reply.table.rows[i];
    if (r.line == line && r.space == space && r.kind == kind) {
      if (index != nullptr) *index = i;
      return &r;
    }
  }
  return nullptr;
}

using memory::AccessKind;
using memory::MemorySpace;

TEST(LabMemoryCheck, CoalescedAndStridedLoadsOfOneArrayCountAsWorkedOutByHand) {
  const std::string source = R"(__global__ void gather(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float near = in[i];
  const float far = in[(i * 32) % n];
  out[i] = near + far;
}
)";
  const CheckVerdict verdict = check_submission(gather_exercise(), source, memory_options());
  if (verdict.outcome == Outcome::kUnavailable) GTEST_SKIP() << verdict.reason;
  ASSERT_EQ(verdict.outcome, Outcome::kPassed) << verdict.reason << "\n" << verdict.compiler_log;
  ASSERT_TRUE(verdict.memory.has_value());
  const MemoryFindings& f = *verdict.memory;
  ASSERT_EQ(f.unavailable, "");
  if (!f.reply.lines_note.empty()) GTEST_SKIP() << f.reply.lines_note;
  // 16 blocks; the model's default records 4 of them, every warp: 4 × 8 = 32 requests a line.
  EXPECT_EQ(f.reply.table.recorded_blocks, 4u);
  EXPECT_EQ(f.reply.table.grid_blocks, 16u);
  EXPECT_TRUE(f.reply.table.extrapolated());
  EXPECT_FALSE(f.beside_gpu);
  std::size_t near_index = 0, far_index = 0, store_index = 0;
  const auto* near = row_of(f, 3, MemorySpace::kGlobal, AccessKind::kLoad, &near_index);
  const auto* far = row_of(f, 4, MemorySpace::kGlobal, AccessKind::kLoad, &far_index);
  const auto* store = row_of(f, 5, MemorySpace::kGlobal, AccessKind::kStore, &store_index);
  ASSERT_NE(near, nullptr);
  ASSERT_NE(far, nullptr);
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(f.reply.table.rows.size(), 3u) << "the kernel's own accesses only";
  EXPECT_EQ(near->requests, 32u);
  EXPECT_EQ(near->sectors, 32u * 4u);  // 32 floats in a row: 128 bytes, 4 sectors
  EXPECT_EQ(near->ideal_sectors, 32u * 4u);
  EXPECT_EQ(far->requests, 32u);
  EXPECT_EQ(far->sectors, 32u * 32u);  // 128 bytes apart: a sector for every lane
  EXPECT_EQ(far->ideal_sectors, 32u * 4u);
  EXPECT_EQ(store->sectors, 32u * 4u);
  EXPECT_EQ(f.reply.row_argument[near_index], 0);
  EXPECT_EQ(f.reply.row_argument[far_index], 0);
  EXPECT_EQ(f.reply.row_argument[store_index], 1);
  ASSERT_EQ(f.notes.size(), 3u);
  EXPECT_EQ(f.notes[far_index].text,
            "your loads of `in` move 32 sectors for every 4 used (8× the bytes needed) — line 4");
  EXPECT_TRUE(f.notes[near_index].ideal);
  EXPECT_FALSE(f.notes[far_index].ideal);
}

TEST(LabMemoryCheck, AllBlocksRecordedAreExactAndAFailingKernelGetsNoTable) {
  LabOptions options = memory_options();
  options.record_blocks = 16;
  const std::string source = R"(__global__ void gather(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] + in[(i * 32) % n];
}
)";
  const CheckVerdict all = check_submission(gather_exercise(), source, options);
  if (all.outcome == Outcome::kUnavailable) GTEST_SKIP() << all.reason;
  ASSERT_EQ(all.outcome, Outcome::kPassed) << all.reason;
  ASSERT_TRUE(all.memory.has_value());
  EXPECT_EQ(all.memory->reply.table.recorded_blocks, 16u);
  EXPECT_FALSE(all.memory->reply.table.extrapolated());
  std::uint64_t load_requests = 0;
  for (const auto& r : all.memory->reply.table.rows) {
    if (r.kind == AccessKind::kLoad) load_requests += r.requests;
  }
  EXPECT_EQ(load_requests, 2u * 16u * 8u);  // two loads per warp, 128 warps

  const std::string wrong = R"(__global__ void gather(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
)";
  const CheckVerdict failed = check_submission(gather_exercise(), wrong, options);
  EXPECT_EQ(failed.outcome, Outcome::kFailed) << failed.reason;
  EXPECT_FALSE(failed.memory.has_value());
}

// The transpose exercises, on their example case: the naive kernel's stores walk a column of
// `out` (a sector per row the warp touches), the tiled kernel's walk a row.
TEST(LabMemoryCheck, TheNaiveTransposeStoresStridedTheTiledOneCoalesced) {
  const Exercise& naive = *find_exercise("transpose");
  const Exercise& tiled = *find_exercise("transpose-shared");
  const CheckVerdict a = check_submission(naive, naive.solution, memory_options());
  if (a.outcome == Outcome::kUnavailable) GTEST_SKIP() << a.reason;
  ASSERT_EQ(a.outcome, Outcome::kPassed) << a.reason;
  const CheckVerdict b = check_submission(tiled, tiled.solution, memory_options());
  ASSERT_EQ(b.outcome, Outcome::kPassed) << b.reason;
  ASSERT_TRUE(a.memory && b.memory);
  if (!a.memory->reply.lines_note.empty()) GTEST_SKIP() << a.memory->reply.lines_note;
  const auto* naive_store = row_of(*a.memory, 5, MemorySpace::kGlobal, AccessKind::kStore);
  const auto* tiled_store = row_of(*b.memory, 11, MemorySpace::kGlobal, AccessKind::kStore);
  ASSERT_NE(naive_store, nullptr);
  ASSERT_NE(tiled_store, nullptr);
  // 16×16 blocks: a warp is 2 rows of 16 threads; its 32 stores land in 16 columns' worth of
  // rows of `out`, a sector for nearly each (edge warps have fewer lanes), against 4 ideal.
  EXPECT_GT(naive_store->sectors_per_request(), 12.0);
  EXPECT_GT(naive_store->sectors, 3 * naive_store->ideal_sectors);
  // A warp of the tile stores 32 consecutive floats of a row of `out`: 4 or 5 sectors.
  EXPECT_LE(tiled_store->sectors_per_request(), 5.0);
  // Against each one's ideal (the two record different blocks, so totals do not compare).
  EXPECT_LT(2 * tiled_store->sectors, 3 * tiled_store->ideal_sectors);
  // The tile is padded to 33 columns: reading its column touches 32 banks.
  const auto* tile_read = row_of(*b.memory, 11, MemorySpace::kShared, AccessKind::kLoad);
  ASSERT_NE(tile_read, nullptr);
  EXPECT_EQ(tile_read->bank_conflicts(), 0u);
  EXPECT_EQ(tile_read->worst_conflict_degree, 1u);
}

TEST(LabMemoryCheck, AnUnpaddedTileConflictsThirtyTwoWaysAndTheNoteSaysSo) {
  const Exercise& tiled = *find_exercise("transpose-shared");
  std::string unpadded = tiled.solution;
  const std::size_t at = unpadded.find("tile[32][33]");
  ASSERT_NE(at, std::string::npos);
  unpadded.replace(at, 12, "tile[32][32]");
  const CheckVerdict v = check_submission(tiled, unpadded, memory_options());
  if (v.outcome == Outcome::kUnavailable) GTEST_SKIP() << v.reason;
  ASSERT_EQ(v.outcome, Outcome::kPassed) << v.reason;  // conflicts are slow, not wrong
  ASSERT_TRUE(v.memory.has_value());
  if (!v.memory->reply.lines_note.empty()) GTEST_SKIP() << v.memory->reply.lines_note;
  std::size_t index = 0;
  const auto* read = row_of(*v.memory, 11, MemorySpace::kShared, AccessKind::kLoad, &index);
  ASSERT_NE(read, nullptr);
  EXPECT_EQ(read->worst_conflict_degree, 32u);
  // Each full warp reads one column: 32 words of one bank, 32 wavefronts where 1 would do.
  EXPECT_GT(read->bank_conflicts(), 25 * read->requests);
  const auto* write = row_of(*v.memory, 6, MemorySpace::kShared, AccessKind::kStore);
  ASSERT_NE(write, nullptr);
  EXPECT_EQ(write->bank_conflicts(), 0u);  // a row of the tile: 32 banks
  EXPECT_NE(v.memory->notes[index].text.find("32-way bank conflict"), std::string::npos)
      << v.memory->notes[index].text;
  EXPECT_NE(v.memory->notes[index].text.find("line 11"), std::string::npos);
}

// The access budgets of the matrix product on its example case (A 257×300, B 300×129, 16 × 16
// blocks: a 9 × 17 grid, of which blocks 0, 50, 101 and 152 are recorded). The first three are
// full: the naive kernel's 256 threads each load a row of 300 elements of A and a column of B, so
// each of a block's 16 × 300 elements of A is loaded 16 times (76800 loads of 4800); the last
// block holds one thread (row 256, column 128): 300 loads of 300. (3 × 76800 + 300) /
// (3 × 4800 + 300) = 230700 / 14700 ≈ 15.7, the same for B. Through the tiles, every element a
// block uses is loaded once, the edge block's too.
TEST(LabMemoryCheck, TheNaiveProductLoadsEachElementSixteenTimesPerBlockTheTiledOneOnce) {
  const Exercise& naive = *find_exercise("matmul");
  const Exercise& tiled = *find_exercise("matmul-tiled");
  const CheckVerdict a = check_submission(naive, naive.solution, memory_options());
  if (a.outcome == Outcome::kUnavailable) GTEST_SKIP() << a.reason;
  ASSERT_EQ(a.outcome, Outcome::kPassed) << a.reason;
  const CheckVerdict b = check_submission(tiled, tiled.solution, memory_options());
  ASSERT_EQ(b.outcome, Outcome::kPassed) << b.reason;
  ASSERT_TRUE(a.memory && b.memory);
  ASSERT_EQ(a.memory->unavailable, "");
  EXPECT_EQ(a.memory->case_label, "A 257 × 300, B 300 × 129");
  EXPECT_EQ(a.memory->reply.table.recorded_blocks, 4u);
  ASSERT_EQ(a.memory->budgets.size(), 2u) << "A and B; C is an output";
  ASSERT_EQ(b.memory->budgets.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const LoadBudgetNote& slow = a.memory->budgets[i];
    const LoadBudgetNote& fast = b.memory->budgets[i];
    EXPECT_EQ(slow.array, i == 0 ? "A" : "B");
    EXPECT_EQ(slow.blocks, 4u);
    EXPECT_NEAR(slow.loads_per_element, 230700.0 / 14700.0, 1e-9) << slow.array;
    EXPECT_FALSE(slow.within);
    EXPECT_EQ(slow.expected, 1.0);
    EXPECT_DOUBLE_EQ(fast.loads_per_element, 1.0) << fast.array;
    EXPECT_TRUE(fast.within);
  }
  EXPECT_EQ(a.memory->budgets[0].text,
            "each block reads each element of `A` it uses 15.7 times from global memory (on "
            "average over the 4 recorded blocks); through 16 × 16 shared-memory tiles (the next "
            "exercise) it needs about 1");
  EXPECT_EQ(b.memory->budgets[1].text,
            "each block reads each element of `B` it uses once from global memory (on average "
            "over the 4 recorded blocks), within the budget: through 16 × 16 shared-memory tiles "
            "it needs about 1");
}

// The reply carries the first requests of each line to draw and where the arrays lay. The naive
// product's one load line, `sum += A(row, k) * B(k, col)`, loads both arrays: in block 0, warp 0
// is threads (0..15, 0) and (0..15, 1), so its first load of A reads A(0, 0) in lanes 0-15 and
// A(1, 0), a row of 300 further, in lanes 16-31; its first load of B reads B(0, 0..15) in both
// halves.
TEST(LabMemoryCheck, TheRecordedRequestsOfALineComeBackCutToTheFirstSixtyFour) {
  const Exercise& naive = *find_exercise("matmul");
  const CheckVerdict v = check_submission(naive, naive.solution, memory_options());
  if (v.outcome == Outcome::kUnavailable) GTEST_SKIP() << v.reason;
  ASSERT_EQ(v.outcome, Outcome::kPassed) << v.reason;
  ASSERT_TRUE(v.memory.has_value());
  const MemoryReply& reply = v.memory->reply;
  ASSERT_EQ(reply.row_requests.size(), reply.table.rows.size());
  EXPECT_TRUE(reply.requests_cut()) << "4 blocks × 8 warps × 300 loads of A and of B";
  const auto array = [&](int argument) {
    return std::find_if(
        reply.arrays.begin(), reply.arrays.end(),
        [&](const MemoryReply::RecordedArray& r) { return r.argument == argument; });
  };
  const auto a = array(0);
  const auto b = array(1);
  ASSERT_NE(a, reply.arrays.end());
  ASSERT_NE(b, reply.arrays.end());
  EXPECT_EQ(a->rows, 257);
  EXPECT_EQ(a->cols, 300);
  EXPECT_EQ(a->address % 256, 0u) << "aligned as cudaMalloc aligns";
  std::optional<std::size_t> load;
  for (std::size_t i = 0; i < reply.table.rows.size(); ++i) {
    const memory::LineTotals& row = reply.table.rows[i];
    if (row.kind == AccessKind::kLoad && row.space == MemorySpace::kGlobal) load = i;
  }
  ASSERT_TRUE(load);
  EXPECT_EQ(reply.row_argument[*load], MemoryReply::kSeveralArrays);
  const std::vector<memory::WarpRequest>& requests = reply.row_requests[*load];
  ASSERT_EQ(requests.size(), MemoryReply::kRequestsPerRow);
  EXPECT_GT(reply.table.rows[*load].requests, requests.size());
  const auto first_in = [&](const MemoryReply::RecordedArray& in) {
    return std::find_if(requests.begin(), requests.end(), [&](const memory::WarpRequest& r) {
      return !r.lanes.empty() && r.lanes.front().address - in.address < in.bytes;
    });
  };
  const auto of_a = first_in(*a);
  const auto of_b = first_in(*b);
  ASSERT_NE(of_a, requests.end());
  ASSERT_NE(of_b, requests.end());
  for (const auto& r : {of_a, of_b}) {
    EXPECT_EQ(r->block, 0u);
    EXPECT_EQ(r->warp, 0u);
    EXPECT_EQ(r->occurrence, 0u);
    ASSERT_EQ(r->lanes.size(), 32u);
  }
  for (const memory::LaneAccess& lane : of_a->lanes) {
    EXPECT_EQ(lane.address, a->address + (lane.lane < 16 ? 0u : 300u * 4u)) << "lane " << lane.lane;
    EXPECT_EQ(lane.bytes, 4u);
  }
  for (const memory::LaneAccess& lane : of_b->lanes) {
    EXPECT_EQ(lane.address, b->address + 4u * (lane.lane % 16)) << "lane " << lane.lane;
  }
}

}  // namespace
}  // namespace tl::lab
