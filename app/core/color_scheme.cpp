#include "core/color_scheme.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace tl {
namespace {

constexpr std::array<ColorBy, 6> kAllModes = {ColorBy::kBlock, ColorBy::kThread, ColorBy::kWarp,
                                              ColorBy::kSm,    ColorBy::kWrites, ColorBy::kPass};

// Every step below is written in float, as in palette.glsl, so both sides round alike.
struct Oklab {
  float l;
  float a;
  float b;
};

float linear_to_srgb(float x) {
  const float c = std::clamp(x, 0.0f, 1.0f);
  return c <= 0.0031308f ? 12.92f * c : 1.055f * std::pow(c, 1.0f / 2.4f) - 0.055f;
}

// OKLab to sRGB with Björn Ottosson's published matrices; out-of-gamut colours are clamped.
Rgb oklab_to_srgb(const Oklab& lab) {
  const float l_ = lab.l + 0.3963377774f * lab.a + 0.2158037573f * lab.b;
  const float m_ = lab.l - 0.1055613458f * lab.a - 0.0638541728f * lab.b;
  const float s_ = lab.l - 0.0894841775f * lab.a - 1.2914855480f * lab.b;
  const float l = l_ * l_ * l_;
  const float m = m_ * m_ * m_;
  const float s = s_ * s_ * s_;
  const float r = 4.0767416621f * l - 3.3077115913f * m + 0.2309699292f * s;
  const float g = -1.2684380046f * l + 2.6097574011f * m - 0.3413193965f * s;
  const float b = -0.0041960863f * l - 0.7034186147f * m + 1.7076147010f * s;
  return {linear_to_srgb(r), linear_to_srgb(g), linear_to_srgb(b)};
}

Oklab mix(const Oklab& x, const Oklab& y, float t) {
  return {x.l + (y.l - x.l) * t, x.a + (y.a - x.a) * t, x.b + (y.b - x.b) * t};
}

}  // namespace

std::span<const ColorBy> all_color_modes() {
  return kAllModes;
}

std::string_view to_string(ColorBy mode) {
  switch (mode) {
    case ColorBy::kBlock:
      return "block";
    case ColorBy::kThread:
      return "thread";
    case ColorBy::kWarp:
      return "warp";
    case ColorBy::kSm:
      return "sm";
    case ColorBy::kWrites:
      return "writes";
    case ColorBy::kPass:
      return "pass";
  }
  return "block";
}

std::string_view describe(ColorBy mode) {
  switch (mode) {
    case ColorBy::kBlock:
      return "colour = the block that wrote the element (blockIdx, linear)";
    case ColorBy::kThread:
      return "colour = threadIdx inside its block, dark for thread 0, light for the last";
    case ColorBy::kWarp:
      return "colour = the warp of the writing thread (32 threads that execute together)";
    case ColorBy::kSm:
      return "colour = the streaming multiprocessor that ran the block (grey: not recorded)";
    case ColorBy::kWrites:
      return "colour = how often the element was written: red never, green once, magenta twice+";
    case ColorBy::kPass:
      return "colour = the grid-stride pass that wrote the element (iteration 0, 1, 2, ...)";
  }
  return "";
}

Result<ColorBy> parse_color_by(std::string_view name) {
  for (const ColorBy mode : kAllModes) {
    if (to_string(mode) == name) return mode;
  }
  return invalid_argument("unknown colour mode '" + std::string(name) +
                          "': expected block, thread, warp, sm, writes or pass");
}

std::array<std::uint8_t, 3> to_rgb8(const Rgb& color) {
  auto quantize = [](float v) {
    return static_cast<std::uint8_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f));
  };
  return {quantize(color.r), quantize(color.g), quantize(color.b)};
}

Rgb categorical_color(std::uint32_t index) {
  // index * 2^32 / phi, modulo 2^32: the golden-ratio step, exact in unsigned arithmetic. The top
  // 24 bits become the hue so that the float conversion is exact too.
  const std::uint32_t hashed = index * 2654435769u;
  const float hue = static_cast<float>(hashed >> 8) * (1.0f / 16777216.0f);
  // Three lightness levels so that hues that happen to land close still differ in brightness.
  constexpr float kLightness[3] = {0.74f, 0.62f, 0.84f};
  const float lightness = kLightness[index % 3u];
  constexpr float kChroma = 0.13f;
  const float angle = hue * 6.2831853f;
  return oklab_to_srgb({lightness, kChroma * std::cos(angle), kChroma * std::sin(angle)});
}

Rgb sequential_color(float t) {
  constexpr Oklab kDark{0.30f, 0.02f, -0.13f};   // deep blue
  constexpr Oklab kMid{0.62f, -0.10f, -0.02f};   // teal
  constexpr Oklab kLight{0.92f, -0.03f, 0.17f};  // yellow
  const float c = std::clamp(t, 0.0f, 1.0f);
  return c < 0.5f ? oklab_to_srgb(mix(kDark, kMid, c * 2.0f))
                  : oklab_to_srgb(mix(kMid, kLight, c * 2.0f - 1.0f));
}

Rgb diverging_color(float t) {
  // Both ends equally far in lightness from a neutral grey centre that still stands out from the
  // dark background, so that sign reads as hue and magnitude as distance from grey.
  constexpr Oklab kNegative{0.58f, -0.04f, -0.16f};  // blue
  constexpr Oklab kCentre{0.40f, 0.0f, 0.0f};        // grey
  constexpr Oklab kPositive{0.70f, 0.10f, 0.12f};    // orange-red
  const float c = std::clamp(t, -1.0f, 1.0f);
  return c < 0.0f ? oklab_to_srgb(mix(kCentre, kNegative, -c))
                  : oklab_to_srgb(mix(kCentre, kPositive, c));
}

Rgb idle_thread_color(bool stripe) {
  return stripe ? kIdleThreadStripeColor : kIdleThreadColor;
}

Rgb shade_grid_line(const Rgb& cell) {
  return {cell.r * kGridLineShade, cell.g * kGridLineShade, cell.b * kGridLineShade};
}

Rgb tint_wrong_element(const Rgb& cell) {
  // GLSL's mix(cell, wrong, t), operation for operation.
  const float t = kWrongElementTint;
  return {cell.r * (1.0f - t) + kWrongElementColor.r * t,
          cell.g * (1.0f - t) + kWrongElementColor.g * t,
          cell.b * (1.0f - t) + kWrongElementColor.b * t};
}

std::uint32_t global_warp_index(std::uint32_t block, std::uint32_t thread,
                                std::uint32_t threads_per_block, std::uint32_t warp_size) {
  const std::uint32_t warp = std::max(warp_size, 1u);
  const std::uint32_t warps_per_block = (std::max(threads_per_block, 1u) + warp - 1u) / warp;
  return block * warps_per_block + thread / warp;  // wraps past 2^32 warps, like the shader
}

Rgb color_for(ColorBy mode, const TraceRecord& record, std::uint32_t threads_per_block,
              std::uint32_t warp_size) {
  if (mode == ColorBy::kWrites) {
    if (record.writes == 0) return kUnwrittenColor;
    return record.writes == 1 ? kWrittenOnceColor : kWrittenTwiceColor;
  }
  if (record.writes == 0) return kUnwrittenColor;
  const std::uint32_t thread = record.thread_and_sm & kTraceThreadMask;
  const std::uint32_t sm_plus_one = record.thread_and_sm >> kTraceSmShift;
  switch (mode) {
    case ColorBy::kBlock:
      return categorical_color(record.block);
    case ColorBy::kThread: {
      const std::uint32_t last = std::max(threads_per_block, 2u) - 1u;
      return sequential_color(static_cast<float>(thread) / static_cast<float>(last));
    }
    case ColorBy::kWarp:
      return categorical_color(
          global_warp_index(record.block, thread, threads_per_block, warp_size));
    case ColorBy::kSm:
      return sm_plus_one == 0 ? kUnknownSmColor : categorical_color(sm_plus_one - 1u);
    case ColorBy::kPass:
      // Categorical, not a ramp: neighbouring passes must be told apart however many there are.
      return categorical_color(record.iteration);
    case ColorBy::kWrites:
      break;
  }
  return kUnwrittenColor;
}

}  // namespace tl
