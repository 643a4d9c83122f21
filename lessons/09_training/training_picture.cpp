#include "training_picture.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace tl::lessons {

void class_colour(int c, std::uint8_t rgb[3]) {
  // Colour-blind-safe hues (Okabe–Ito), cycled beyond eight classes.
  static constexpr std::array<std::array<std::uint8_t, 3>, 8> kColours{{{0, 114, 178},
                                                                        {230, 159, 0},
                                                                        {0, 158, 115},
                                                                        {204, 121, 167},
                                                                        {86, 180, 233},
                                                                        {213, 94, 0},
                                                                        {240, 228, 66},
                                                                        {90, 90, 90}}};
  const auto& colour = kColours[static_cast<std::size_t>(c) % kColours.size()];
  std::copy(colour.begin(), colour.end(), rgb);
}

std::vector<float> boundary_points(int side) {
  std::vector<float> points(static_cast<std::size_t>(side) * side * 2);
  for (int row = 0; row < side; ++row) {
    for (int col = 0; col < side; ++col) {
      const std::size_t i = (static_cast<std::size_t>(row) * side + col) * 2;
      points[i] = static_cast<float>(kPlaneExtent * (2.0 * (col + 0.5) / side - 1.0));
      points[i + 1] = static_cast<float>(kPlaneExtent * (1.0 - 2.0 * (row + 0.5) / side));
    }
  }
  return points;
}

std::vector<std::uint8_t> boundary_image(std::span<const float> probabilities, int side,
                                         int classes, const TrainingData& points) {
  std::vector<std::uint8_t> rgba(static_cast<std::size_t>(side) * side * 4, 255);
  for (std::size_t pixel = 0; pixel < static_cast<std::size_t>(side) * side; ++pixel) {
    const float* p = probabilities.data() + pixel * classes;
    const int best = static_cast<int>(std::max_element(p, p + classes) - p);
    // Sureness from 0 (a tie between all classes) to 1 (certain).
    const double sure = std::clamp((p[best] - 1.0 / classes) / (1.0 - 1.0 / classes), 0.0, 1.0);
    std::uint8_t rgb[3];
    class_colour(best, rgb);
    for (int ch = 0; ch < 3; ++ch) {
      const double pale = 255.0 + (rgb[ch] - 255.0) * (0.25 + 0.45 * sure);
      rgba[pixel * 4 + ch] = static_cast<std::uint8_t>(std::lround(pale));
    }
  }
  if (!points.planar()) return rgba;
  // Each training point a 3 × 3 dot of its class's colour, darkened.
  for (int i = 0; i < points.count(); ++i) {
    const double x = points.x[2 * static_cast<std::size_t>(i)];
    const double y = points.x[2 * static_cast<std::size_t>(i) + 1];
    const int col = static_cast<int>(std::floor((x / kPlaneExtent + 1.0) * 0.5 * side));
    const int row = static_cast<int>(std::floor((1.0 - y / kPlaneExtent) * 0.5 * side));
    std::uint8_t rgb[3];
    class_colour(points.labels[i], rgb);
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        const int r = row + dy, c = col + dx;
        if (r < 0 || r >= side || c < 0 || c >= side) continue;
        const std::size_t at = (static_cast<std::size_t>(r) * side + c) * 4;
        for (int ch = 0; ch < 3; ++ch) rgba[at + ch] = static_cast<std::uint8_t>(rgb[ch] * 0.6);
      }
    }
  }
  return rgba;
}

}  // namespace tl::lessons
