#include "core/lessons/lesson_params.hpp"

#include <gtest/gtest.h>

namespace tl::lessons {
namespace {

const std::vector<ParamSpec> kSpecs = {
    {"n", "N", ParamKind::kCount, "1000", {}, "elements"},
    {"grid", "blocks", ParamKind::kDim3, "auto", {}, "grid"},
    {"block", "threads", ParamKind::kDim3, "256", {}, "block"},
    {"mapping",
     "mapping",
     ParamKind::kChoice,
     "x_to_col",
     {"x_to_col", "x_to_row"},
     "index mapping"},
    {"grid_stride", "grid-stride loop", ParamKind::kFlag, "0", {}, "loop"},
};

TEST(ParamReader, DefaultsAndGivenValues) {
  const ParamValues values = {
      {"n", "2^20"}, {"block", "16,16"}, {"mapping", "x_to_row"}, {"grid_stride", "on"}};
  ParamReader reader(kSpecs, values);
  EXPECT_TRUE(reader.check_names("test").is_ok());
  EXPECT_EQ(*reader.count("n"), 1u << 20);
  EXPECT_EQ(*reader.dim3("block"), (Dim3{16, 16, 1}));
  EXPECT_EQ(*reader.grid("grid"), (Dim3{0, 0, 0}));  // "auto"
  EXPECT_EQ(*reader.choice("mapping"), "x_to_row");
  EXPECT_TRUE(*reader.flag("grid_stride"));
}

TEST(ParamReader, ErrorsNameTheParameter) {
  const ParamValues values = {
      {"n", "lots"}, {"block", "0"}, {"mapping", "diagonal"}, {"grid_stride", "maybe"}};
  ParamReader reader(kSpecs, values);
  EXPECT_EQ(reader.count("n").message().rfind("n: ", 0), 0u);
  EXPECT_NE(reader.dim3("block").message().find("at least 1"), std::string::npos);
  EXPECT_NE(reader.choice("mapping").message().find("x_to_col, x_to_row"), std::string::npos);
  EXPECT_FALSE(reader.flag("grid_stride").is_ok());
}

TEST(ParamReader, UnknownNamesListWhatTheLessonTakes) {
  const ParamValues values = {{"m", "64"}};
  const Status status = ParamReader(kSpecs, values).check_names("vector-add");
  ASSERT_FALSE(status.is_ok());
  EXPECT_NE(status.message().find("'m' is not a parameter of vector-add"), std::string::npos);
  EXPECT_NE(status.message().find("--n --grid --block --mapping --grid_stride"), std::string::npos);
}

TEST(ParamAliases, AliasesBecomeTheParameterNameAndOtherNamesStay) {
  const std::vector<ParamSpec> specs = {
      {"inputs", "inputs", ParamKind::kCount, "8", {}, "inputs", {"in"}},
      {"neurons", "neurons", ParamKind::kCount, "8", {}, "neurons", {"out"}},
  };
  auto canonical = with_canonical_names(specs, {{"in", "40"}, {"neurons", "24"}, {"m", "3"}});
  ASSERT_TRUE(canonical.is_ok()) << canonical.message();
  EXPECT_EQ(*canonical, (ParamValues{{"inputs", "40"}, {"neurons", "24"}, {"m", "3"}}));
}

TEST(ParamAliases, MergeResolvesAliasesKeepsTheRestAndRefusesUnknownNames) {
  const std::vector<ParamSpec> specs = {
      {"inputs", "inputs", ParamKind::kCount, "8", {}, "inputs", {"in"}},
      {"neurons", "neurons", ParamKind::kCount, "8", {}, "neurons", {"out"}},
  };
  const ParamValues current = default_values(specs);
  EXPECT_EQ(current, (ParamValues{{"inputs", "8"}, {"neurons", "8"}}));
  auto merged = merge_values(specs, current, {{"out", "24"}}, "dense-layer");
  ASSERT_TRUE(merged.is_ok()) << merged.message();
  EXPECT_EQ(*merged, (ParamValues{{"inputs", "8"}, {"neurons", "24"}}));
  auto unknown = merge_values(specs, current, {{"m", "3"}}, "dense-layer");
  ASSERT_FALSE(unknown.is_ok());
  EXPECT_NE(unknown.message().find("'m' is not a parameter of dense-layer"), std::string::npos);
}

TEST(ParamAliases, OneParameterUnderTwoNamesIsRefused) {
  const std::vector<ParamSpec> specs = {
      {"neurons", "neurons", ParamKind::kCount, "8", {}, "neurons", {"out"}}};
  auto canonical = with_canonical_names(specs, {{"out", "4"}, {"neurons", "5"}});
  ASSERT_FALSE(canonical.is_ok());
  EXPECT_NE(canonical.message().find("'neurons' and 'out' name the same parameter"),
            std::string::npos)
      << canonical.message();
}

TEST(ShownParams, PresentingHidesTheAdvancedOnesInOrder) {
  std::vector<ParamSpec> specs = kSpecs;
  specs[1].advanced = true;  // "grid"
  const auto all = shown_params(specs, false);
  ASSERT_EQ(all.size(), specs.size());
  const auto presenting = shown_params(specs, true);
  ASSERT_EQ(presenting.size(), specs.size() - 1);
  EXPECT_EQ(presenting[0]->name, "n");
  EXPECT_EQ(presenting[1]->name, "block");
  for (const ParamSpec* spec : presenting) EXPECT_FALSE(spec->advanced) << spec->name;
}

}  // namespace
}  // namespace tl::lessons
