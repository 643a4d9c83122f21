#include "core/soak/soak_plan.hpp"

#include <gtest/gtest.h>

#include <set>

#include "core/lessons/lesson_action.hpp"

namespace tl::soak {
namespace {

// A vocabulary of the shapes the lessons use, written here so the test does not depend on which
// lessons are registered: a count, a grid, a block, a choice with a hyphenated value, a flag.
SoakVocabulary sample_vocabulary() {
  using lessons::ParamKind;
  SoakVocabulary v;
  v.lessons = {"first", "second"};
  v.params = {{{"n", "N", ParamKind::kCount, "1000"}, 4096},
              {{"grid", "blocks", ParamKind::kDim3, "auto"}, 256},
              {{"block", "threads", ParamKind::kDim3, "256"}, 256},
              {{"mapping", "mapping", ParamKind::kChoice, "x-to-col", {"x-to-col", "x-to-row"}}, 0},
              {{"grid_stride", "stride", ParamKind::kFlag, "0"}, 0}};
  v.views = {"plot", "grid"};
  return v;
}

TEST(SoakPlan, TheSameSeedGivesTheSameRun) {
  ActionStream a(42, SoakScale::kEmulator, sample_vocabulary());
  ActionStream b(42, SoakScale::kEmulator, sample_vocabulary());
  ActionStream c(43, SoakScale::kEmulator, sample_vocabulary());
  bool differs = false;
  for (int i = 0; i < 500; ++i) {
    const Action x = a.next();
    const Action y = b.next();
    EXPECT_EQ(x.kind, y.kind);
    EXPECT_EQ(x.link, y.link);
    const Action z = c.next();
    differs = differs || z.kind != x.kind || z.link != x.link;
  }
  EXPECT_TRUE(differs) << "another seed, another run";
}

TEST(SoakPlan, EveryKindOfActionAndInvalidValuesAppear) {
  ActionStream stream(7, SoakScale::kGpu, sample_vocabulary());
  std::set<ActionKind> kinds;
  int links = 0;
  int refused_values = 0;
  for (int i = 0; i < 3000; ++i) {
    const Action action = stream.next();
    kinds.insert(action.kind);
    if (action.kind != ActionKind::kLink) continue;
    ++links;
    auto parsed = lessons::parse_lesson_action(action.link);
    ASSERT_TRUE(parsed.is_ok()) << action.link << ": " << parsed.message();
    for (const auto& [name, value] : parsed->values) {
      if (value == "abc" || value == "-5" || value == "0" || value.empty()) ++refused_values;
    }
  }
  EXPECT_EQ(kinds.size(), 6u);
  EXPECT_GT(links, 2000);
  EXPECT_GT(refused_values, 100) << "invalid input is part of the soak";
}

TEST(SoakPlan, LessonsParametersAndViewsComeFromTheVocabulary) {
  ActionStream stream(11, SoakScale::kEmulator, sample_vocabulary());
  std::set<std::string> lessons_seen, names_seen, mappings_seen;
  for (int i = 0; i < 3000; ++i) {
    const Action action = stream.next();
    if (action.kind != ActionKind::kLink) continue;
    auto parsed = lessons::parse_lesson_action(action.link);
    ASSERT_TRUE(parsed.is_ok()) << action.link;
    if (parsed->lesson) lessons_seen.insert(*parsed->lesson);
    for (const auto& [name, value] : parsed->values) {
      names_seen.insert(name);
      if (name == "mapping" && (value.starts_with("x-") || value.starts_with("x_"))) {
        mappings_seen.insert(value);
      }
      if (name == "n" && !value.empty() &&
          value.find_first_not_of("0123456789") == std::string::npos && value.size() < 10) {
        EXPECT_LE(std::stoull(value), 4096u) << "a count stays within its largest value";
      }
    }
  }
  EXPECT_EQ(lessons_seen, (std::set<std::string>{"first", "second"}));
  EXPECT_EQ(names_seen, (std::set<std::string>{"n", "grid", "block", "mapping", "grid_stride"}));
  // Both spellings of a choice: the hyphenated one and its underscore alias.
  EXPECT_TRUE(mappings_seen.count("x-to-row") && mappings_seen.count("x_to_row"));
}

TEST(SoakPlan, FlatMemoryPassesAndALeakFails) {
  std::vector<MemorySample> flat;
  std::vector<MemorySample> leaking;
  for (int s = 0; s <= 600; s += 10) {
    const double noise = (s % 20 == 0) ? 4e6 : -4e6;
    flat.push_back({static_cast<double>(s), 500e6 + noise, 2e9});
    leaking.push_back({static_cast<double>(s), 500e6 + s * 1e6, 2e9 + s * 1e6});
  }
  const MemoryVerdict ok = judge_memory(flat);
  EXPECT_TRUE(ok.flat) << ok.summary;
  EXPECT_LT(ok.host_growth_bytes, 10e6);
  const MemoryVerdict bad = judge_memory(leaking);
  EXPECT_FALSE(bad.flat) << bad.summary;
  EXPECT_NEAR(bad.device_growth_bytes, 480e6, 20e6) << bad.summary;
  EXPECT_NE(bad.summary.find("GROWING"), std::string::npos);
}

TEST(SoakPlan, ResidentMemoryIsRead) {
  EXPECT_GT(resident_bytes(), 1e6) << "this test process uses more than a megabyte";
}

}  // namespace
}  // namespace tl::soak
