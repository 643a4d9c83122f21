// Cell colours. Mirrors app/core/color_scheme.cpp operation for operation; a GL test compares the
// two, so change both together.

const vec3 kUnwrittenColor = vec3(0.42, 0.07, 0.09);
const vec3 kWrittenOnceColor = vec3(0.30, 0.66, 0.42);
const vec3 kWrittenTwiceColor = vec3(1.00, 0.20, 0.78);
const vec3 kUnknownSmColor = vec3(0.55, 0.55, 0.58);
const vec3 kIdleThreadColor = vec3(0.20, 0.20, 0.22);
const vec3 kIdleThreadStripeColor = vec3(0.28, 0.28, 0.30);
const vec3 kOutOfRangeThreadColor = vec3(1.00, 0.55, 0.10);
const vec3 kOutOfRangeThreadStripeColor = vec3(0.62, 0.30, 0.05);
const vec3 kBlockLineColor = vec3(0.0, 0.0, 0.0);
const vec3 kHighlightColor = vec3(1.0, 0.92, 0.16);
const vec3 kWrongElementColor = vec3(1.0, 0.10, 0.06);
const float kWrongElementTint = 0.3;
const float kGridLineShade = 0.62;

// Same order as tl::ColorBy.
const int kColorByBlock = 0;
const int kColorByThread = 1;
const int kColorByWarp = 2;
const int kColorBySm = 3;
const int kColorByWrites = 4;
const int kColorByPass = 5;

const uint kTraceThreadMask = 0xFFFFu;
const uint kTraceSmShift = 16u;

float linear_to_srgb(float x) {
  float c = clamp(x, 0.0, 1.0);
  return c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1.0 / 2.4) - 0.055;
}

vec3 oklab_to_srgb(vec3 lab) {
  float l_ = lab.x + 0.3963377774 * lab.y + 0.2158037573 * lab.z;
  float m_ = lab.x - 0.1055613458 * lab.y - 0.0638541728 * lab.z;
  float s_ = lab.x - 0.0894841775 * lab.y - 1.2914855480 * lab.z;
  float l = l_ * l_ * l_;
  float m = m_ * m_ * m_;
  float s = s_ * s_ * s_;
  float r = 4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s;
  float g = -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s;
  float b = -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s;
  return vec3(linear_to_srgb(r), linear_to_srgb(g), linear_to_srgb(b));
}

// Golden-ratio hue stepping in 32-bit integer arithmetic, exact for every index.
vec3 categorical_color(uint index) {
  uint hashed = index * 2654435769u;
  float hue = float(hashed >> 8u) * (1.0 / 16777216.0);
  uint level = index % 3u;
  float lightness = level == 0u ? 0.74 : (level == 1u ? 0.62 : 0.84);
  const float kChroma = 0.13;
  float angle = hue * 6.2831853;
  return oklab_to_srgb(vec3(lightness, kChroma * cos(angle), kChroma * sin(angle)));
}

vec3 sequential_color(float t) {
  const vec3 kDark = vec3(0.30, 0.02, -0.13);
  const vec3 kMid = vec3(0.62, -0.10, -0.02);
  const vec3 kLight = vec3(0.92, -0.03, 0.17);
  float c = clamp(t, 0.0, 1.0);
  return c < 0.5 ? oklab_to_srgb(kDark + (kMid - kDark) * (c * 2.0))
                 : oklab_to_srgb(kMid + (kLight - kMid) * (c * 2.0 - 1.0));
}

vec3 idle_thread_color(bool stripe) { return stripe ? kIdleThreadStripeColor : kIdleThreadColor; }
vec3 out_of_range_thread_color(bool stripe) {
  return stripe ? kOutOfRangeThreadStripeColor : kOutOfRangeThreadColor;
}

bool idle_thread_stripe(int pixel_x, int pixel_y) { return ((pixel_x + pixel_y) / 4) % 2 == 1; }

uint global_warp_index(uint block, uint thread, uint threads_per_block, uint warp_size) {
  uint warp = max(warp_size, 1u);
  uint warps_per_block = (max(threads_per_block, 1u) + warp - 1u) / warp;
  return block * warps_per_block + thread / warp;
}

// record: (block, thread_and_sm, iteration, writes), a tl::TraceRecord.
vec3 color_for(int mode, uvec4 record, uint threads_per_block, uint warp_size) {
  if (mode == kColorByWrites) {
    if (record.w == 0u) return kUnwrittenColor;
    return record.w == 1u ? kWrittenOnceColor : kWrittenTwiceColor;
  }
  if (record.w == 0u) return kUnwrittenColor;
  uint thread = record.y & kTraceThreadMask;
  uint sm_plus_one = record.y >> kTraceSmShift;
  if (mode == kColorByBlock) return categorical_color(record.x);
  if (mode == kColorByThread) {
    uint last = max(threads_per_block, 2u) - 1u;
    return sequential_color(float(thread) / float(last));
  }
  if (mode == kColorByWarp) {
    return categorical_color(global_warp_index(record.x, thread, threads_per_block, warp_size));
  }
  if (mode == kColorBySm) {
    return sm_plus_one == 0u ? kUnknownSmColor : categorical_color(sm_plus_one - 1u);
  }
  if (mode == kColorByPass) return categorical_color(record.z);
  return kUnwrittenColor;
}
