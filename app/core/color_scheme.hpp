#pragma once
// How a trace cell is coloured. The mapping shader (shaders/palette.glsl) mirrors these functions
// operation for operation: the UI legend and the tests use the C++ side, the pictures come from the
// GLSL side, and a GL test checks that both give the same pixels.

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "core/result.hpp"
#include "core/trace_record.hpp"

namespace tl {

enum class ColorBy { kBlock, kThread, kWarp, kSm, kWrites, kPass };

// Every mode, in the order the UI lists them.
std::span<const ColorBy> all_color_modes();
// "block", "thread", "warp", "sm", "writes", "pass": the names the CLI accepts.
std::string_view to_string(ColorBy mode);
Result<ColorBy> parse_color_by(std::string_view name);
// One line for a legend, e.g. "colour = blockIdx (linear)".
std::string_view describe(ColorBy mode);

// sRGB-encoded components in [0, 1], what ends up in an RGBA8 framebuffer.
struct Rgb {
  float r = 0;
  float g = 0;
  float b = 0;
  friend bool operator==(const Rgb&, const Rgb&) = default;
};
std::array<std::uint8_t, 3> to_rgb8(const Rgb& color);

// Fixed colours: the same constants appear in palette.glsl.
inline constexpr Rgb kUnwrittenColor{0.42f, 0.07f, 0.09f};         // no thread wrote the element
inline constexpr Rgb kWrittenOnceColor{0.30f, 0.66f, 0.42f};       // writes == 1: calm green
inline constexpr Rgb kWrittenTwiceColor{1.00f, 0.20f, 0.78f};      // writes >= 2: a race or overlap
inline constexpr Rgb kUnknownSmColor{0.55f, 0.55f, 0.58f};         // SM not recorded (emulator)
inline constexpr Rgb kIdleThreadColor{0.20f, 0.20f, 0.22f};        // idle thread cells: two greys,
inline constexpr Rgb kIdleThreadStripeColor{0.28f, 0.28f, 0.30f};  // hatched diagonally
// A thread past the data that accessed outside an array (the Lab marks it): hatched in orange,
// so that it reads as a fault, not as a thread with nothing to do.
inline constexpr Rgb kOutOfRangeThreadColor{1.00f, 0.55f, 0.10f};
inline constexpr Rgb kOutOfRangeThreadStripeColor{0.62f, 0.30f, 0.05f};
inline constexpr Rgb kBackgroundColor{0.07f, 0.07f, 0.09f};   // outside every cell
inline constexpr Rgb kBlockLineColor{0.0f, 0.0f, 0.0f};       // boundary between two blocks
inline constexpr Rgb kHighlightColor{1.0f, 0.92f, 0.16f};     // outline of the hovered element
inline constexpr Rgb kWrongElementColor{1.0f, 0.10f, 0.06f};  // outline of a wrong element (Lab)
// How far a wrong element's inside is tinted towards kWrongElementColor.
inline constexpr float kWrongElementTint = 0.3f;
// Grid lines between cells darken the cell colour by this factor rather than using one colour, so
// that a dense grid keeps the picture readable.
inline constexpr float kGridLineShade = 0.62f;

// Distinct colours for neighbouring indices: golden-ratio hue stepping in OKLCh, done in 32-bit
// integer arithmetic so that the GPU (float32) and the CPU agree for every index up to 2^32.
Rgb categorical_color(std::uint32_t index);
// A perceptually ordered ramp for t in [0, 1] (dark blue, teal, yellow), t clamped.
Rgb sequential_color(float t);
// A ramp for signed values, t in [-1, 1] (clamped): blue below zero, grey at zero, orange above.
Rgb diverging_color(float t);
// Idle-thread cells are hatched: `stripe` picks the second grey.
Rgb idle_thread_color(bool stripe);
// Which grey an idle-thread pixel gets: diagonal stripes 4 pixels wide, in screen space (pixel
// counted from the top-left corner) so that they stay visible at any zoom.
[[nodiscard]] inline bool idle_thread_stripe(int pixel_x, int pixel_y) {
  return ((pixel_x + pixel_y) / 4) % 2 == 1;
}
Rgb shade_grid_line(const Rgb& cell);
// The inside of a wrong element (the Lab): its colour tinted towards kWrongElementColor.
Rgb tint_wrong_element(const Rgb& cell);

// The colour of a data cell given its raw record, exactly as the shader computes it.
Rgb color_for(ColorBy mode, const TraceRecord& record, std::uint32_t threads_per_block,
              std::uint32_t warp_size);

// The warp a thread belongs to, numbered across the whole grid so that the first warp of a block
// and the last warp of the previous block get different colours.
std::uint32_t global_warp_index(std::uint32_t block, std::uint32_t thread,
                                std::uint32_t threads_per_block, std::uint32_t warp_size);

}  // namespace tl
