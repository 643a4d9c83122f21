// `threadlab run --trace FILE`: the CSV that says which thread computed each element. Checked row
// by row against the analytic mapping i = blockIdx.x * blockDim.x + threadIdx.x.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_process.hpp"

namespace tl::cli_test {
namespace {

constexpr const char* kHeader =
    "element,row,col,block_x,block_y,block_z,thread_x,thread_y,thread_z,warp,lane,sm,iteration,"
    "writes";

// Column positions in kHeader.
enum Column {
  kElement,
  kRow,
  kCol,
  kBlockX,
  kBlockY,
  kBlockZ,
  kThreadX,
  kThreadY,
  kThreadZ,
  kWarp,
  kLane,
  kSm,
  kIteration,
  kWrites,
  kColumnCount
};

struct TraceFile {
  std::string header;
  std::vector<std::vector<std::int64_t>> rows;
  std::string error;  // non-empty when the file could not be read or parsed
};

TraceFile read_trace(const std::filesystem::path& path) {
  TraceFile trace;
  std::ifstream file(path);
  if (!file) {
    trace.error = "cannot open " + path.string();
    return trace;
  }
  std::getline(file, trace.header);
  std::string line;
  while (std::getline(file, line)) {
    std::vector<std::int64_t> row;
    std::stringstream fields(line);
    std::string field;
    while (std::getline(fields, field, ',')) {
      std::size_t used = 0;
      try {
        row.push_back(std::stoll(field, &used));
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != field.size()) {
        trace.error = "not an integer: '" + field + "' in line " + line;
        return trace;
      }
    }
    if (row.size() != kColumnCount) {
      trace.error = "expected " + std::to_string(kColumnCount) + " fields in line " + line;
      return trace;
    }
    trace.rows.push_back(std::move(row));
  }
  return trace;
}

class CliTrace : public ::testing::Test {
 protected:
  void SetUp() override {
    // A directory of our own, so parallel test processes never write the same file.
    std::string pattern =
        (std::filesystem::temp_directory_path() / "threadlab-cli-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }

  // Runs vector add for n elements with the given grid and 256-thread blocks, tracing to a file.
  TraceFile run_traced(const std::string& n, const std::string& grid, ProcessResult& result) {
    const std::filesystem::path path = dir_ / "trace.csv";
    result =
        run_threadlab({"run", "--lesson", "vector-add", "--n", n, "--grid", grid, "--block", "256",
                       "--repeats", "1", "--trace", path.string(), "--backend", "emulator"});
    return read_trace(path);
  }

  std::filesystem::path dir_;
};

// Expects `row` to be element `i` written once by the thread the analytic mapping gives it.
void expect_owner(const std::vector<std::int64_t>& row, std::int64_t i) {
  SCOPED_TRACE("element " + std::to_string(i));
  const std::int64_t thread = i % 256;
  EXPECT_EQ(row[kElement], i);
  EXPECT_EQ(row[kRow], 0);  // 1D data is one row
  EXPECT_EQ(row[kCol], i);
  EXPECT_EQ(row[kBlockX], i / 256);
  EXPECT_EQ(row[kBlockY], 0);
  EXPECT_EQ(row[kBlockZ], 0);
  EXPECT_EQ(row[kThreadX], thread);
  EXPECT_EQ(row[kThreadY], 0);
  EXPECT_EQ(row[kThreadZ], 0);
  EXPECT_EQ(row[kWarp], thread / 32);
  EXPECT_EQ(row[kLane], thread % 32);
  // No check of the SM column: the emulator has no %smid and reports it unknown (-1), by design.
  EXPECT_EQ(row[kIteration], 0);  // no grid-stride loop in this kernel
  EXPECT_EQ(row[kWrites], 1);
}

TEST_F(CliTrace, CoveringGridWritesOneRowPerElementWithItsThread) {
  ProcessResult r;
  const TraceFile trace = run_traced("1000", "4", r);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  ASSERT_EQ(trace.error, "") << r.describe();
  EXPECT_EQ(trace.header, kHeader);
  ASSERT_EQ(trace.rows.size(), 1000u);
  // Block edges, a warp edge inside a block, and the last element of the partial last block.
  for (const std::int64_t i : {0, 1, 31, 32, 255, 256, 300, 511, 512, 767, 768, 999}) {
    expect_owner(trace.rows[static_cast<std::size_t>(i)], i);
  }
  for (std::size_t i = 0; i < trace.rows.size(); ++i) {
    ASSERT_EQ(trace.rows[i][kWrites], 1) << "element " << i;
  }
}

TEST_F(CliTrace, TooSmallGridLeavesUnwrittenRowsWithoutOwner) {
  ProcessResult r;
  const TraceFile trace = run_traced("1000", "3", r);
  // Without --check a too-small grid is not a failure: seeing the gap is the point of the trace.
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  ASSERT_EQ(trace.error, "") << r.describe();
  EXPECT_EQ(trace.header, kHeader);
  ASSERT_EQ(trace.rows.size(), 1000u);
  expect_owner(trace.rows[0], 0);
  expect_owner(trace.rows[767], 767);
  for (std::size_t i = 768; i < trace.rows.size(); ++i) {
    const std::vector<std::int64_t>& row = trace.rows[i];
    ASSERT_EQ(row[kElement], static_cast<std::int64_t>(i));
    ASSERT_EQ(row[kWrites], 0) << "element " << i;
    for (int column = kBlockX; column <= kSm; ++column) {
      ASSERT_EQ(row[column], -1) << "element " << i << ", column " << column;
    }
  }
  EXPECT_THAT(r.out, ::testing::HasSubstr("232 never written")) << r.describe();
}

// Lesson 2's 3D launch: a 2 × 2 × 2 grid of 4 × 4 × 2 blocks (256 threads) over 250 elements. The
// kernel numbers blocks and threads x fastest, then y, then z, so element i belongs to block i / 32
// and to thread i % 32 of it; the trace decodes both into x, y and z.
TEST_F(CliTrace, ThreadHierarchy3DGridTracesBlockAndThreadIndicesInXYAndZ) {
  const std::filesystem::path path = dir_ / "trace3d.csv";
  const ProcessResult r = run_threadlab(
      {"run", "--lesson", "thread-hierarchy", "--n", "250", "--grid", "2,2,2", "--block", "4,4,2",
       "--check", "--repeats", "1", "--trace", path.string(), "--backend", "emulator"});
  ASSERT_TRUE(r.exited) << r.describe();
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(r.err, "") << r.describe();
  EXPECT_THAT(r.out, ::testing::HasSubstr("thread-hierarchy<<<(2, 2, 2), (4, 4, 2)>>>"))
      << r.describe();
  EXPECT_THAT(r.out, ::testing::HasSubstr("check passed")) << r.describe();
  EXPECT_THAT(r.out, ::testing::HasSubstr("0 never written, 6 idle threads")) << r.describe();

  const TraceFile trace = read_trace(path);
  ASSERT_EQ(trace.error, "") << r.describe();
  EXPECT_EQ(trace.header, kHeader);
  ASSERT_EQ(trace.rows.size(), 250u);
  bool saw_block_y = false, saw_block_z = false, saw_thread_z = false;
  for (std::size_t i = 0; i < trace.rows.size(); ++i) {
    SCOPED_TRACE("element " + std::to_string(i));
    const std::vector<std::int64_t>& row = trace.rows[i];
    const auto e = static_cast<std::int64_t>(i);
    const std::int64_t block = e / 32, thread = e % 32;
    ASSERT_EQ(row[kElement], e);
    EXPECT_EQ(row[kRow], 0);
    EXPECT_EQ(row[kCol], e);
    EXPECT_EQ(row[kBlockX], block % 2);
    EXPECT_EQ(row[kBlockY], (block / 2) % 2);
    EXPECT_EQ(row[kBlockZ], block / 4);
    EXPECT_EQ(row[kThreadX], thread % 4);
    EXPECT_EQ(row[kThreadY], (thread / 4) % 4);
    EXPECT_EQ(row[kThreadZ], thread / 16);
    // 32 threads a block: one warp, the lane being the thread's number in the block.
    EXPECT_EQ(row[kWarp], 0);
    EXPECT_EQ(row[kLane], thread);
    EXPECT_EQ(row[kIteration], 0);
    EXPECT_EQ(row[kWrites], 1);
    saw_block_y = saw_block_y || row[kBlockY] == 1;
    saw_block_z = saw_block_z || row[kBlockZ] == 1;
    saw_thread_z = saw_thread_z || row[kThreadZ] == 1;
  }
  EXPECT_TRUE(saw_block_y && saw_block_z && saw_thread_z);
  // The last block, (1, 1, 1), holds elements 224 to 249: its threads 26 to 31 are the idle ones.
  EXPECT_EQ(trace.rows[249][kBlockX], 1);
  EXPECT_EQ(trace.rows[249][kBlockY], 1);
  EXPECT_EQ(trace.rows[249][kBlockZ], 1);
}

}  // namespace
}  // namespace tl::cli_test
