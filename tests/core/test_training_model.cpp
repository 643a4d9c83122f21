// The capstone's model on the host: the network's shape, its parameters' layout and first values,
// the data sets, and the float64 reference's gradients against finite differences.

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "lessons/09_training/mlp_model.hpp"
#include "lessons/09_training/training_data.hpp"
#include "lessons/09_training/training_picture.hpp"

namespace tl::lessons {
namespace {

TEST(TrainingModel, ParsesLayersAndLaysOutParameters) {
  auto shape = parse_mlp_shape("2,256,256,2");
  ASSERT_TRUE(shape.is_ok()) << shape.message();
  EXPECT_EQ(shape->layers(), 3);
  EXPECT_EQ(shape->layer_offset(0), 0u);
  EXPECT_EQ(shape->layer_offset(1), 256u * 3);
  EXPECT_EQ(shape->layer_offset(2), 256u * 3 + 256u * 257);
  EXPECT_EQ(shape->parameter_count(), 256u * 3 + 256u * 257 + 2u * 257);
  EXPECT_EQ(shape->to_string(), "2,256,256,2");
}

TEST(TrainingModel, RefusesBadLayersByWhatIsWrong) {
  for (const char* bad : {"", "2", "2,,2", "2,x,2", "2,0,2", "2,5000,2", "2,8,1", "2,8,2,"}) {
    auto shape = parse_mlp_shape(bad);
    EXPECT_FALSE(shape.is_ok()) << bad;
  }
  EXPECT_NE(parse_mlp_shape("2,x,2").message().find("'x'"), std::string::npos);
  EXPECT_FALSE(parse_mlp_shape("2,4,4,4,4,4,4,4,4,2").is_ok()) << "at most 8 layers";
}

TEST(TrainingModel, InitialParametersFollowTheSeedAndHe) {
  const MlpShape shape = *parse_mlp_shape("2,64,3");
  const auto a = initial_parameters(shape, 7), b = initial_parameters(shape, 7);
  const auto c = initial_parameters(shape, 8);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  // Layer 0's weights within ±√(6/2), its biases 0.
  for (int o = 0; o < 64; ++o) {
    EXPECT_LE(std::abs(a[o * 3]), std::sqrt(3.0));
    EXPECT_LE(std::abs(a[o * 3 + 1]), std::sqrt(3.0));
    EXPECT_EQ(a[o * 3 + 2], 0.0f);
  }
}

TEST(TrainingData, IsBalancedDeterministicAndInThePlane) {
  for (std::string_view name : training_data_names()) {
    auto data = make_training_data(name, 200, 3);
    ASSERT_TRUE(data.is_ok()) << data.message();
    EXPECT_EQ(data->count(), 200);
    EXPECT_EQ(data->x.size(), 200u * data->inputs);
    std::vector<int> per_class(data->classes, 0);
    for (int label : data->labels) {
      ASSERT_GE(label, 0);
      ASSERT_LT(label, data->classes);
      ++per_class[label];
    }
    for (int count : per_class) EXPECT_EQ(count, 200 / data->classes) << name;
    if (data->planar()) {
      for (float v : data->x) EXPECT_LE(std::abs(v), kPlaneExtent) << name;
    }
    auto again = make_training_data(name, 200, 3);
    EXPECT_EQ(again->x, data->x) << name;
    auto other = make_training_data(name, 200, 4);
    EXPECT_NE(other->x, data->x) << name;
  }
  EXPECT_FALSE(make_training_data("moons", 100, 1).is_ok());
  EXPECT_FALSE(make_training_data("spirals", 2, 1).is_ok());
}

// The reference's analytic gradients against central differences of its own loss, on a tiny
// network whose every layer, ReLU and bias takes part.
TEST(TrainingModel, ReferenceGradientsMatchFiniteDifferences) {
  const MlpShape shape = *parse_mlp_shape("3,5,4,3");
  auto params = initial_parameters(shape, 11);
  // Non-zero biases, so their gradients are tested away from the trivial start.
  TrainingRandom random(5);
  for (float& p : params) p += static_cast<float>(random.uniform(-0.1, 0.1));
  const int batch = 6;
  std::vector<float> x(batch * 3);
  for (float& v : x) v = static_cast<float>(random.uniform(-1, 1));
  const std::vector<int> labels{0, 1, 2, 2, 1, 0};
  const ReferencePass analytic = reference_pass(shape, params, x, labels, batch, true);
  ASSERT_EQ(analytic.gradients.size(), params.size());

  std::vector<double> nudged(params.begin(), params.end());
  const double h = 1e-6;
  double worst = 0;
  for (std::size_t i = 0; i < params.size(); ++i) {
    const double kept = nudged[i];
    nudged[i] = kept + h;
    const double up = reference_loss(shape, nudged, x, labels, batch);
    nudged[i] = kept - h;
    const double down = reference_loss(shape, nudged, x, labels, batch);
    nudged[i] = kept;
    const double numeric = (up - down) / (2 * h);
    worst = std::max(worst, std::abs(numeric - analytic.gradients[i]));
  }
  EXPECT_LT(worst, 1e-7) << "largest difference between analytic and numeric gradients";
}

TEST(TrainingPicture, ColoursEachPixelByTheLikelierClass) {
  const int side = 4;
  const auto points = boundary_points(side);
  ASSERT_EQ(points.size(), 32u);
  EXPECT_LT(points[0], 0.0f);  // top left: x < 0, y > 0
  EXPECT_GT(points[1], 0.0f);
  std::vector<float> probabilities(side * side * 2);
  for (int p = 0; p < side * side; ++p) {
    const bool left = points[2 * p] < 0;
    probabilities[2 * p] = left ? 0.9f : 0.1f;
    probabilities[2 * p + 1] = left ? 0.1f : 0.9f;
  }
  TrainingData none;
  none.inputs = 2;
  const auto image = boundary_image(probabilities, side, 2, none);
  ASSERT_EQ(image.size(), 64u);
  std::uint8_t c0[3], c1[3];
  class_colour(0, c0);
  class_colour(1, c1);
  // Class 0's hue (blue: more blue than red) on the left, class 1's (orange) on the right.
  EXPECT_GT(image[2], image[0]);
  EXPECT_GT(image[(side - 1) * 4], image[(side - 1) * 4 + 2]);
}

}  // namespace
}  // namespace tl::lessons
