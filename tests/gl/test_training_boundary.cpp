// The capstone's decision boundary reaching OpenGL on the emulator's path: the network's
// probabilities computed on the CPU by the emulated kernels, uploaded into the class map's buffer
// and coloured by its shader (training_boundary_check.hpp). The GPU tests run the same check
// through CUDA-GL interop and the copy path (tests/gpu/test_training_boundary_gpu.cpp).

#include <gtest/gtest.h>

#include "gl_test_support.hpp"
#include "interop/class_map_sink.hpp"
#include "training_boundary_check.hpp"

namespace tl::testing {
namespace {

class TrainingBoundaryGl : public GlTest {};

lessons::TrainingSettings small_spirals() {
  lessons::TrainingSettings settings;
  settings.samples = 300;
  settings.layers = "2,16,16,2";
  settings.batch = 30;
  settings.learning_rate = 0.02;
  settings.optimizer = lessons::Optimizer::kAdam;
  settings.seed = 3;
  return settings;
}

TEST_F(TrainingBoundaryGl, TheEmulatorsBoundaryIsUploadedWithTheNetworksClasses) {
  auto device = compute::make_emulator_device();
  render::ClassMap map;
  auto sink = interop::make_class_map_sink(BackendKind::kEmulator, map);
  expect_boundary_is_the_networks(*device, *sink, map, small_spirals(), 40);
}

TEST_F(TrainingBoundaryGl, TheShaderColoursEachPointAsThePngDoes) {
  // Probabilities given directly: every pixel's colour against training_picture's.
  constexpr int kSide = 8;
  std::vector<float> probabilities(kSide * kSide * 3);
  for (int p = 0; p < kSide * kSide; ++p) {
    const float a = static_cast<float>(p) / (kSide * kSide);
    probabilities[3 * p] = a;
    probabilities[3 * p + 1] = (1 - a) * 0.7f;
    probabilities[3 * p + 2] = (1 - a) * 0.3f;
  }
  render::ClassMap map;
  ASSERT_TRUE(map.upload(probabilities).is_ok());
  std::vector<std::array<std::uint8_t, 3>> colours(3);
  for (int c = 0; c < 3; ++c) lessons::class_colour(c, colours[c].data());
  ASSERT_TRUE(map.colour(kSide, 3, colours).is_ok());
  auto pixels = map.read_pixels();
  ASSERT_TRUE(pixels.is_ok()) << pixels.message();
  const auto expected = lessons::boundary_image(probabilities, kSide, 3, lessons::TrainingData{});
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_NEAR((*pixels)[i], expected[i], 2) << "byte " << i;
  }
  EXPECT_FALSE(map.colour(kSide, 1, colours).is_ok()) << "one class is no map";
  EXPECT_FALSE(map.colour(kSide * 2, 3, colours).is_ok()) << "more points than the buffer";
}

}  // namespace
}  // namespace tl::testing
