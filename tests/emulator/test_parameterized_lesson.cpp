// The parameter base every lesson builds on (compute/lessons/parameterized_lesson.hpp): configure
// changes all or nothing, a size sweep sets the declared size parameters and resets, and each
// block-sweep shape visits the blocks it names.
#include <gtest/gtest.h>

#include <algorithm>

#include "compute/lessons/parameterized_lesson.hpp"

namespace tl::compute {
namespace {

const lessons::LessonInfo kToyInfo{
    .number = 99, .id = "toy", .title = "Toy", .summary = "a test lesson", .folder = "99_toy"};

const std::vector<lessons::ParamSpec>& toy_specs() {
  static const std::vector<lessons::ParamSpec> kSpecs = {
      {"n", "N", lessons::ParamKind::kCount, "100", {}, "elements", {"elements"}},
      {"grid", "blocks", lessons::ParamKind::kDim3, "auto", {}, "blocks"},
      {"block", "threads", lessons::ParamKind::kDim3, "64", {}, "threads per block"},
  };
  return kSpecs;
}

// A lesson that refuses an odd N (so that a refusal after a valid parse can be seen) and keeps
// what it read.
class ToyLesson final : public ParameterizedLesson {
 public:
  explicit ToyLesson(BlockSweepShape blocks, lessons::ParamValues resets = {{"grid", "auto"}})
      : ParameterizedLesson({.info = kToyInfo,
                             .specs = toy_specs(),
                             .size_params = {"n"},
                             .sweep_resets = std::move(resets),
                             .blocks = blocks,
                             .largest_block = {16, 8, 1},
                             .fixed_block = {128, 1, 1}}) {
    apply_defaults();
  }
  Status apply(const lessons::ParamReader& reader, const lessons::ParamValues& values) override {
    ++applied;
    auto n = reader.count("n");
    if (!n) return n.error();
    if (*n % 2 != 0) return invalid_argument("toy: N must be even");
    auto block = reader.dim3("block");
    if (!block) return block.error();
    n_ = *n;
    block_ = *block;
    seen_ = values;
    return Status::ok();
  }
  [[nodiscard]] LaunchConfig launch_config() const override { return {{1, 1, 1}, block_}; }
  [[nodiscard]] DataShape data_shape() const override { return {1, n_}; }
  [[nodiscard]] std::optional<std::string> occupancy_kernel() const override {
    return std::nullopt;
  }
  Result<LessonReport> run_timed(Device&, const std::atomic<bool>*) override {
    return LessonReport{};
  }
  Result<TracedLaunch> run_traced(Device&, TraceSink&) override { return TracedLaunch{}; }
  [[nodiscard]] std::string size_label() const override { return "N"; }
  [[nodiscard]] std::vector<std::uint64_t> sweep_sizes(const Device&) const override {
    return {2, 4};
  }

  int applied = 0;
  std::uint64_t n_ = 0;
  Dim3 block_{};
  lessons::ParamValues seen_;
};

TEST(ParameterizedLesson, OpensAtItsDefaultsAndAnswersForItsDeclaration) {
  ToyLesson toy(BlockSweepShape::kOneDimension);
  EXPECT_EQ(toy.applied, 1);
  EXPECT_EQ(toy.info().id, "toy");
  EXPECT_EQ(toy.params().size(), 3u);
  EXPECT_EQ(toy.values(), (lessons::ParamValues{{"n", "100"}, {"grid", "auto"}, {"block", "64"}}));
  EXPECT_EQ(toy.n_, 100u);
}

TEST(ParameterizedLesson, ConfigureMergesResolvesAliasesAndChangesAllOrNothing) {
  ToyLesson toy(BlockSweepShape::kOneDimension);
  ASSERT_TRUE(toy.configure({{"elements", "40"}}).is_ok());
  EXPECT_EQ(toy.values().at("n"), "40") << "the alias lands on its parameter";
  EXPECT_EQ(toy.seen_.at("block"), "64") << "apply sees every parameter, merged";
  // Refused by the lesson after a valid parse: neither the values nor what was read change.
  EXPECT_FALSE(toy.configure({{"n", "41"}, {"block", "32"}}).is_ok());
  EXPECT_EQ(toy.values().at("n"), "40");
  EXPECT_EQ(toy.values().at("block"), "64");
  // An unknown name is refused before apply runs.
  const int before = toy.applied;
  const Status unknown = toy.configure({{"colour", "red"}});
  ASSERT_FALSE(unknown.is_ok());
  EXPECT_NE(unknown.message().find("colour"), std::string::npos) << unknown.message();
  EXPECT_EQ(toy.applied, before);
}

TEST(ParameterizedLesson, ASizeSweepSetsTheSizeAndTheResetsAndKeepsTheRest) {
  ToyLesson toy(BlockSweepShape::kOneDimension);
  ASSERT_TRUE(toy.configure({{"grid", "7"}, {"block", "32"}}).is_ok());
  const lessons::ParamValues sized = toy.values_for_size(4096);
  EXPECT_EQ(sized.at("n"), "4096");
  EXPECT_EQ(sized.at("grid"), "auto");
  EXPECT_EQ(sized.at("block"), "32");
  ToyLesson keeps_grid(BlockSweepShape::kOneDimension, {});
  ASSERT_TRUE(keeps_grid.configure({{"grid", "7"}}).is_ok());
  EXPECT_EQ(keeps_grid.values_for_size(64).at("grid"), "7");
}

std::vector<std::uint32_t> threads_of(const std::vector<BlockStep>& steps) {
  std::vector<std::uint32_t> threads;
  for (const BlockStep& step : steps) threads.push_back(step.block.volume());
  return threads;
}

TEST(ParameterizedLesson, EachBlockSweepShapeVisitsItsBlocks) {
  ToyLesson one_d(BlockSweepShape::kOneDimension);
  const auto linear = one_d.block_sweep();
  ASSERT_FALSE(linear.empty());
  EXPECT_EQ(linear.front().block, (Dim3{1, 1, 1}));
  EXPECT_EQ(linear.back().block, (Dim3{1024, 1, 1}));
  for (const BlockStep& step : linear) {
    EXPECT_EQ(step.values.at("block"), std::to_string(step.block.x));
    EXPECT_EQ(step.values.at("grid"), "auto");
  }

  ToyLesson warps(BlockSweepShape::kWarpMultiplesOfTwo);
  EXPECT_EQ(threads_of(warps.block_sweep()),
            (std::vector<std::uint32_t>{32, 64, 128, 256, 512, 1024}));

  ToyLesson two_d(BlockSweepShape::kTwoDimensions);
  const auto square = two_d.block_sweep();
  ASSERT_FALSE(square.empty());
  for (const BlockStep& step : square) {
    EXPECT_LE(step.block.x, 16u);
    EXPECT_LE(step.block.y, 8u);
    EXPECT_EQ(step.values.at("block"),
              std::to_string(step.block.x) + "," + std::to_string(step.block.y));
  }
  EXPECT_EQ(std::ranges::max(threads_of(square)), 128u) << "16 wide and 8 tall at most";

  ToyLesson fixed(BlockSweepShape::kFixed);
  ASSERT_TRUE(fixed.configure({{"n", "64"}}).is_ok());
  const auto one = fixed.block_sweep();
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one.front().block, (Dim3{128, 1, 1}));
  EXPECT_EQ(one.front().values.at("n"), "64") << "the step keeps the current values";
}

}  // namespace
}  // namespace tl::compute
