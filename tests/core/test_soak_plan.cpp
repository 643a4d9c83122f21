#include "core/soak/soak_plan.hpp"

#include <gtest/gtest.h>

#include <set>

#include "core/lessons/lesson_action.hpp"

namespace tl::soak {
namespace {

TEST(SoakPlan, TheSameSeedGivesTheSameRun) {
  ActionStream a(42, SoakScale::kEmulator);
  ActionStream b(42, SoakScale::kEmulator);
  ActionStream c(43, SoakScale::kEmulator);
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
  ActionStream stream(7, SoakScale::kGpu);
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
