#include "training_data.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

namespace tl::lessons {

std::uint64_t TrainingRandom::next() {
  state_ += 0x9E3779B97F4A7C15ull;
  std::uint64_t z = state_;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double TrainingRandom::uniform() {
  return static_cast<double>(next() >> 11) * 0x1.0p-53;
}

double TrainingRandom::uniform(double lo, double hi) {
  return lo + (hi - lo) * uniform();
}

double TrainingRandom::normal() {
  // 1 − u keeps the logarithm's argument in (0, 1].
  const double u = 1.0 - uniform();
  const double v = uniform();
  return std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * std::numbers::pi * v);
}

std::uint64_t TrainingRandom::below(std::uint64_t n) {
  return n == 0 ? 0 : next() % n;
}

namespace {

constexpr std::array<std::string_view, 4> kNames{"spirals", "circles", "blobs", "digits"};

void add_point(TrainingData& data, double x, double y, int label) {
  data.x.push_back(static_cast<float>(x));
  data.x.push_back(static_cast<float>(y));
  data.labels.push_back(label);
}

// Two interleaved arms of 1.75 turns each, the second the first turned by half a turn. Close to the
// centre the arms come within a few hundredths of each other: the hard part to learn.
void two_spirals(TrainingData& data, int count, TrainingRandom& random) {
  constexpr double kTurns = 1.75;
  constexpr double kNoise = 0.015;
  for (int i = 0; i < count; ++i) {
    const int arm = i % 2;
    const double t = 0.08 + 0.92 * std::sqrt(random.uniform());  // even density along the arm
    const double angle = t * kTurns * 2.0 * std::numbers::pi + arm * std::numbers::pi;
    add_point(data, t * std::cos(angle) + kNoise * random.normal(),
              t * std::sin(angle) + kNoise * random.normal(), arm);
  }
}

// A disc inside a ring, with a gap between them.
void two_circles(TrainingData& data, int count, TrainingRandom& random) {
  for (int i = 0; i < count; ++i) {
    const int outer = i % 2;
    const double radius = outer ? random.uniform(0.65, 1.0) : 0.45 * std::sqrt(random.uniform());
    const double angle = random.uniform(0.0, 2.0 * std::numbers::pi);
    add_point(data, radius * std::cos(angle), radius * std::sin(angle), outer);
  }
}

// Four clouds at the corners; diagonal corners share a class (XOR): no straight line separates
// them, one hidden layer does.
void xor_blobs(TrainingData& data, int count, TrainingRandom& random) {
  constexpr double kSpread = 0.17;
  for (int i = 0; i < count; ++i) {
    const int corner = i % 4;
    const double cx = (corner & 1) ? 0.5 : -0.5;
    const double cy = (corner & 2) ? 0.5 : -0.5;
    const int label = ((corner & 1) != 0) != ((corner & 2) != 0) ? 1 : 0;
    add_point(data, std::clamp(cx + kSpread * random.normal(), -1.0, 1.0),
              std::clamp(cy + kSpread * random.normal(), -1.0, 1.0), label);
  }
}

// Procedural digits: seven-segment shapes on an 8 × 8 grid, each drawn with its own shift,
// stroke brightness and noise.
void procedural_digits(TrainingData& data, int count, TrainingRandom& random) {
  // Segments: a top, b top right, c bottom right, d bottom, e bottom left, f top left, g middle.
  constexpr std::array<std::uint8_t, 10> kSegments{0b0111111, 0b0000110, 0b1011011, 0b1001111,
                                                   0b1100110, 0b1101101, 0b1111101, 0b0000111,
                                                   0b1111111, 0b1101111};
  constexpr int kSide = 8;
  for (int i = 0; i < count; ++i) {
    const int digit = i % 10;
    std::array<float, kSide * kSide> image{};
    const int dx = static_cast<int>(random.below(3));  // the 4 × 7 glyph moves within the image
    const int dy = static_cast<int>(random.below(2));
    const float ink = static_cast<float>(random.uniform(0.6, 1.0));
    const auto put = [&](int x, int y) {
      const int px = x + dx + 1, py = y + dy;
      if (px >= 0 && px < kSide && py >= 0 && py < kSide) image[py * kSide + px] = ink;
    };
    const std::uint8_t on = kSegments[digit];
    for (int x = 0; x < 4; ++x) {
      if (on & 0b0000001) put(x, 0);
      if (on & 0b1000000) put(x, 3);
      if (on & 0b0001000) put(x, 6);
    }
    for (int y = 0; y < 4; ++y) {
      if (on & 0b0000010) put(3, y);
      if (on & 0b0100000) put(0, y);
      if (on & 0b0000100) put(3, y + 3);
      if (on & 0b0010000) put(0, y + 3);
    }
    for (float& pixel : image) {
      pixel = std::clamp(pixel + static_cast<float>(0.12 * random.normal()), 0.0f, 1.0f);
      data.x.push_back(pixel);
    }
    data.labels.push_back(digit);
  }
}

}  // namespace

std::span<const std::string_view> training_data_names() {
  return kNames;
}

std::string_view training_data_description(std::string_view name) {
  if (name == "spirals") return "two interleaved spirals, 2 classes";
  if (name == "circles") return "a disc inside a ring, 2 classes";
  if (name == "blobs") return "four clouds, diagonal corners alike (XOR), 2 classes";
  if (name == "digits") return "procedural 8x8 seven-segment digits, 64 inputs, 10 classes";
  return "";
}

Result<TrainingData> make_training_data(std::string_view name, int count, std::uint64_t seed) {
  if (count < 4 || count > (1 << 22)) {
    return invalid_argument("a data set needs between 4 and 4194304 examples, not " +
                            std::to_string(count) + ".");
  }
  TrainingData data;
  data.name = std::string(name);
  TrainingRandom random(seed * 0x2545F4914F6CDD1Dull + 17);
  if (name == "spirals" || name == "circles" || name == "blobs") {
    data.inputs = 2;
    data.classes = 2;
    data.x.reserve(static_cast<std::size_t>(count) * 2);
    if (name == "spirals") two_spirals(data, count, random);
    if (name == "circles") two_circles(data, count, random);
    if (name == "blobs") xor_blobs(data, count, random);
  } else if (name == "digits") {
    data.inputs = 64;
    data.classes = 10;
    procedural_digits(data, count, random);
  } else {
    return invalid_argument("no data set named '" + std::string(name) +
                            "'; there are spirals, circles, blobs and digits.");
  }
  return data;
}

}  // namespace tl::lessons
