// The model's figures put beside a GPU's counters (lab/lesson_memory.hpp): the recorded blocks'
// requests, sectors and bank conflicts scaled to the whole grid, and the one line `run
// --memory-table --counters` prints and the Memory tab shows, from tables and counters made by
// hand.
#include <gtest/gtest.h>

#include <string>

#include "lab/lesson_memory.hpp"

namespace tl::lab {
namespace {

memory::LineTotals global_row(int line, memory::AccessKind kind, std::uint64_t requests,
                              std::uint64_t sectors) {
  memory::LineTotals row;
  row.line = line;
  row.kind = kind;
  row.requests = requests;
  row.sectors = sectors;
  row.ideal_sectors = requests * 4;
  return row;
}

memory::LineTotals shared_row(int line, memory::AccessKind kind, std::uint64_t requests,
                              std::uint64_t wavefronts) {
  memory::LineTotals row;
  row.line = line;
  row.space = memory::MemorySpace::kShared;
  row.kind = kind;
  row.requests = requests;
  row.wavefronts = wavefronts;
  row.ideal_wavefronts = requests;
  return row;
}

// Lesson 3's x → row kernel as recorded: 4 of 1024 blocks, two loads and a store per thread,
// each request 32 sectors (one row of the block per lane).
memory::MemoryTable strided_table() {
  memory::MemoryTable table;
  table.recorded_blocks = 4;
  table.grid_blocks = 1024;
  table.rows = {global_row(9, memory::AccessKind::kLoad, 64, 2048),
                global_row(9, memory::AccessKind::kStore, 32, 1024)};
  return table;
}

TEST(ModelGridCounters, ScalesTheRecordedBlocksToTheGrid) {
  const MemoryInstructionCounters model = model_grid_counters(strided_table());
  EXPECT_TRUE(model.measured);
  // 1024 / 4 = 256 times the recorded blocks' counts.
  EXPECT_DOUBLE_EQ(model.global_load_requests, 64.0 * 256);
  EXPECT_DOUBLE_EQ(model.global_load_sectors, 2048.0 * 256);
  EXPECT_DOUBLE_EQ(model.global_store_requests, 32.0 * 256);
  EXPECT_DOUBLE_EQ(model.global_store_sectors, 1024.0 * 256);
  EXPECT_DOUBLE_EQ(model.load_sectors_per_request(), 32.0);
  EXPECT_DOUBLE_EQ(model.shared_load_bank_conflicts, 0.0);
}

TEST(ModelGridCounters, CountsBankConflictsAsWavefrontsBeyondTheIdeal) {
  memory::MemoryTable table;
  table.recorded_blocks = 2;
  table.grid_blocks = 2;  // every block: not scaled
  // An unpadded 32 × 32 tile read down a column: 32 wavefronts a request, 31 of them conflicts.
  table.rows = {shared_row(7, memory::AccessKind::kStore, 64, 64),
                shared_row(8, memory::AccessKind::kLoad, 64, 64 * 32),
                global_row(8, memory::AccessKind::kStore, 64, 256)};
  const MemoryInstructionCounters model = model_grid_counters(table);
  EXPECT_DOUBLE_EQ(model.shared_load_bank_conflicts, 64.0 * 31);
  EXPECT_DOUBLE_EQ(model.shared_store_bank_conflicts, 0.0);
  EXPECT_DOUBLE_EQ(model.global_load_requests, 0.0);
  EXPECT_DOUBLE_EQ(model.global_store_sectors, 256.0);
}

TEST(MemoryBesideCounters, NamesBothFiguresAndTheGpu) {
  const MemoryInstructionCounters model = model_grid_counters(strided_table());
  MemoryInstructionCounters measured = model;
  const std::string line = memory_beside_counters("x → row (strided)", model, measured, "H200");
  EXPECT_EQ(line,
            "x → row (strided) on H200: global loads 32 sectors per request measured, 32 in the "
            "model (16,384 and 16,384 requests); stores 32 and 32 (8,192 and 8,192 requests)");
}

TEST(MemoryBesideCounters, ShowsADifferenceAsItIs) {
  const MemoryInstructionCounters model = model_grid_counters(strided_table());
  MemoryInstructionCounters measured = model;
  measured.global_load_sectors = model.global_load_requests * 4;  // as if coalesced
  const std::string line = memory_beside_counters("x → row", model, measured, "GPU");
  EXPECT_NE(line.find("global loads 4 sectors per request measured, 32 in the model"),
            std::string::npos)
      << line;
}

TEST(MemoryBesideCounters, ExplainsAHardwareBankConflictCountAboveTheModel) {
  MemoryInstructionCounters model;
  model.measured = true;
  model.global_load_requests = 100;
  model.global_load_sectors = 400;
  MemoryInstructionCounters measured = model;
  // The model's shared loads are conflict-free; the hardware counter also counts cycles the
  // banks lost to other traffic.
  measured.shared_load_bank_conflicts = 12;
  const std::string line = memory_beside_counters("tiled", model, measured, "H200");
  EXPECT_NE(line.find("shared-memory bank conflicts 12 counted, 0 in the model"), std::string::npos)
      << line;
  EXPECT_NE(line.find("also counts the banks' cycles lost"), std::string::npos) << line;
  // No shared memory on either side: nothing said about banks.
  measured.shared_load_bank_conflicts = 0;
  EXPECT_EQ(memory_beside_counters("tiled", model, measured, "H200").find("bank"),
            std::string::npos);
}

TEST(MemoryBesideCounters, NoStoresReadAsADash) {
  MemoryInstructionCounters model;
  model.measured = true;
  model.global_load_requests = 8;
  model.global_load_sectors = 32;
  const std::string line = memory_beside_counters("sum", model, model, "H200");
  EXPECT_NE(line.find("stores - and - (0 and 0 requests)"), std::string::npos) << line;
}

}  // namespace
}  // namespace tl::lab
