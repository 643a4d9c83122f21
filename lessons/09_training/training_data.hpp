#pragma once
// The capstone's data sets, generated in the app from a seed: two spirals, two circles, XOR-like
// blobs (points in the plane, two classes) and small procedural digits (8 × 8 images, ten classes).
// Everything here is plain C++ with its own random generator, so a seed gives the same data on
// every machine and compiler (the standard library's distributions are not specified bit for bit).

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace tl::lessons {

// SplitMix64: a tiny generator whose sequence is fixed by its seed, everywhere.
class TrainingRandom {
 public:
  explicit TrainingRandom(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  double uniform();  // in [0, 1)
  double uniform(double lo, double hi);
  double normal();                       // mean 0, deviation 1 (Box–Muller)
  std::uint64_t below(std::uint64_t n);  // in [0, n)

 private:
  std::uint64_t state_;
};

struct TrainingData {
  std::string name;
  int inputs = 0;  // features per example: 2 for the plane, 64 for the digits
  int classes = 0;
  std::vector<float> x;  // count × inputs, row-major
  std::vector<int> labels;
  [[nodiscard]] int count() const { return static_cast<int>(labels.size()); }
  // Points in the plane can be drawn with the decision boundary; images cannot.
  [[nodiscard]] bool planar() const { return inputs == 2; }
};

// The data sets' names: "spirals", "circles", "blobs", "digits".
std::span<const std::string_view> training_data_names();
// What each is, for --help and the lesson's controls.
std::string_view training_data_description(std::string_view name);

// `count` examples of data set `name` (classes balanced), or why not. Points lie within [-1, 1]².
Result<TrainingData> make_training_data(std::string_view name, int count, std::uint64_t seed);

// The plane covered by the decision boundary picture: [-kPlaneExtent, kPlaneExtent]².
inline constexpr double kPlaneExtent = 1.25;

}  // namespace tl::lessons
