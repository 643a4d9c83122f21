// A lesson's parameters become flags of the launching commands (`threadlab run --n 4096`), so a
// parameter may not take a flag a command has of its own (compute::check_param_flags): a lesson
// registered with a `width` parameter is refused with a message that names the lesson, the
// parameter, the flag and the command, as an error value (it was a crash: CLI11 threw while
// render's --width was added after lesson 11's --width).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "compute/lessons/lesson_registry.hpp"
#include "compute/lessons/parameterized_lesson.hpp"

namespace tl::compute {
namespace {

const lessons::LessonInfo kFakeInfo{.number = 98,
                                    .id = "fake-image",
                                    .title = "Fake image",
                                    .summary = "a lesson registered by a test",
                                    .folder = "98_fake_image"};

// The parameters the next fake lesson made declares (make() is a plain function pointer).
std::vector<lessons::ParamSpec>& fake_specs() {
  static std::vector<lessons::ParamSpec> specs;
  return specs;
}

// Enough of a lesson to declare parameters; nothing of it runs.
class FakeLesson final : public ParameterizedLesson {
 public:
  FakeLesson()
      : ParameterizedLesson({.info = kFakeInfo,
                             .specs = fake_specs(),
                             .size_params = {},
                             .sweep_resets = {},
                             .blocks = BlockSweepShape::kOneDimension,
                             .largest_block = {16, 8, 1},
                             .fixed_block = {128, 1, 1}}) {
    apply_defaults();
  }
  Status apply(const lessons::ParamReader&, const lessons::ParamValues&) override {
    return Status::ok();
  }
  [[nodiscard]] LaunchConfig launch_config() const override { return {{1, 1, 1}, {1, 1, 1}}; }
  [[nodiscard]] DataShape data_shape() const override { return {1, 1}; }
  [[nodiscard]] std::optional<std::string> occupancy_kernel() const override {
    return std::nullopt;
  }
  Result<LessonReport> run_timed(Device&, const std::atomic<bool>*) override {
    return LessonReport{};
  }
  Result<TracedLaunch> run_traced(Device&, TraceSink&) override { return TracedLaunch{}; }
  [[nodiscard]] std::string size_label() const override { return "N"; }
  [[nodiscard]] std::vector<std::uint64_t> sweep_sizes(const Device&) const override { return {1}; }
};

LessonModule fake_module(std::vector<lessons::ParamSpec> specs) {
  fake_specs() = std::move(specs);
  return LessonModule{.info = kFakeInfo, .make = [] {
                        return std::unique_ptr<Lesson>(std::make_unique<FakeLesson>());
                      }};
}

lessons::ParamSpec count(const std::string& name, std::vector<std::string> aliases = {}) {
  return {name, name, lessons::ParamKind::kCount, "8", {}, "a count", std::move(aliases)};
}

// A few of the flags the launching commands have (the command line gathers the real ones).
const std::vector<ReservedFlag> kReserved = {
    {"width", "render"}, {"out", "render"}, {"no-cpu", "bench"}, {"memory-table", "run"}};

TEST(LessonParamFlags, AWidthParameterIsRefusedNamingTheLessonParameterAndFlag) {
  const LessonModule module = fake_module({count("batch"), count("width")});
  const Status checked = check_param_flags(module, kReserved);
  ASSERT_FALSE(checked.is_ok()) << "a `width` parameter would clash with render's --width";
  EXPECT_EQ(checked.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(checked.message(),
            "lesson 98 (fake-image): parameter 'width' would be the flag --width, which "
            "`threadlab render` has of its own; rename the parameter (docs/ADDING_A_LESSON.md: "
            "the reserved names)");
  // The list form gives the same refusal, whichever lesson holds it.
  const LessonModule* modules[] = {&module};
  EXPECT_EQ(check_param_flags(modules, kReserved).message(), checked.message());
}

TEST(LessonParamFlags, TheHyphenatedAndTheNegatedSpellingsAreFlagsToo) {
  const Status hyphenated = check_param_flags(fake_module({count("memory_table")}), kReserved);
  ASSERT_FALSE(hyphenated.is_ok());
  EXPECT_NE(hyphenated.message().find("'memory_table' would be the flag --memory-table"),
            std::string::npos)
      << hyphenated.message();
  lessons::ParamSpec cpu = count("cpu");
  cpu.kind = lessons::ParamKind::kFlag;
  cpu.default_value = "1";
  const Status negated = check_param_flags(fake_module({cpu}), kReserved);
  ASSERT_FALSE(negated.is_ok());
  EXPECT_NE(negated.message().find("--no-cpu, which `threadlab bench`"), std::string::npos)
      << negated.message();
}

// An alias may share a command's flag: that command's own option wins there (the dense layer's
// `out` for `neurons` under render), so aliases are not refused. A lesson without a clash passes.
TEST(LessonParamFlags, AliasesAndNamesOfTheirOwnPass) {
  EXPECT_TRUE(check_param_flags(fake_module({count("neurons", {"out"})}), kReserved).is_ok());
  EXPECT_TRUE(check_param_flags(fake_module({count("image_width")}), kReserved).is_ok());
}

}  // namespace
}  // namespace tl::compute
