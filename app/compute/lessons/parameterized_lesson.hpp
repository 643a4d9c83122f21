#pragma once
// What every lesson does with its parameters, written once: the current values, configure's merge
// and its all-or-nothing update, the values for one size of a size sweep and the steps of the
// block sweep. A lesson declares its parameters and how the sweeps vary them, and reads the merged
// values into its own members in apply(); it overrides a sweep only where its kernels ask for more
// (the tiled matrix multiply's block is its tile).

#include <span>
#include <string>
#include <vector>

#include "compute/lessons/lesson.hpp"

namespace tl::compute {

// How the block sweep varies "block".
enum class BlockSweepShape {
  kOneDimension,        // "block" = T over the standard counts, 1 to 1024 (core/sweep)
  kWarpMultiplesOfTwo,  // 32, 64, ... 1024: kernels that halve the block and need whole warps
  kTwoDimensions,       // "block" = "X,Y", at most largest_block.x wide and .y tall
  kFixed,               // the kernel's block is part of its design: one step, at fixed_block
};

struct DeclaredParameters {
  const lessons::LessonInfo& info;
  std::span<const lessons::ParamSpec> specs;
  // The parameters a size sweep sets to the size: "n"; or "m", "n" and "k".
  std::vector<std::string> size_params{};
  // Also set at every step of either sweep, so that the launch follows the step: "grid" =
  // "auto". Empty: the lesson keeps its values (a grid-stride loop covers any N with its grid).
  lessons::ParamValues sweep_resets{};
  BlockSweepShape blocks = BlockSweepShape::kOneDimension;
  Dim3 largest_block{32, 32, 1};  // kTwoDimensions
  Dim3 fixed_block{};             // kFixed
};

class ParameterizedLesson : public Lesson {
 public:
  [[nodiscard]] const lessons::LessonInfo& info() const final { return declared_.info; }
  [[nodiscard]] std::span<const lessons::ParamSpec> params() const final { return declared_.specs; }
  [[nodiscard]] lessons::ParamValues values() const final { return values_; }
  // Merges `given` into the current values, checks every name, and hands the whole set to apply();
  // the values change only where apply() accepts them.
  Status configure(const lessons::ParamValues& given) final;

  [[nodiscard]] lessons::ParamValues values_for_size(std::uint64_t size) const override;
  [[nodiscard]] std::vector<BlockStep> block_sweep() const override;

 protected:
  // The derived constructor ends with apply_defaults(), once its members exist.
  explicit ParameterizedLesson(DeclaredParameters declared);

  // Reads `values` (every parameter, merged and named canonically) into the lesson's members, or
  // refuses them with why. On a refusal the lesson must be left as it was: read into locals first,
  // assign at the end.
  virtual Status apply(const lessons::ParamReader& reader, const lessons::ParamValues& values) = 0;

  // What each step of both sweeps also sets: the declared resets, or the lesson's own where they
  // depend on its current values (a grid-stride loop keeps its grid).
  [[nodiscard]] virtual lessons::ParamValues sweep_resets() const;

  // Configures the declared defaults. They must be valid:
  // EveryLesson.ParametersRoundTripThroughText (tests/emulator/test_every_lesson.cpp) configures
  // every lesson's defaults and expects success.
  void apply_defaults();

  [[nodiscard]] const lessons::ParamValues& current_values() const { return values_; }
  // The current values with the sweep's resets and `changes` on top: one step of a sweep.
  [[nodiscard]] lessons::ParamValues step_values(const lessons::ParamValues& changes) const;

 private:
  DeclaredParameters declared_;
  lessons::ParamValues values_;
};

}  // namespace tl::compute
