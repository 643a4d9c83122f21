// The capstone's trainer on the emulator: the device's gradients (every product, the loss, the
// split products) against the float64 reference, one seed one loss curve, and divergence stopped
// with the step named.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "compute/device.hpp"
#include "lessons/09_training/mlp_model.hpp"
#include "lessons/09_training/mlp_trainer.hpp"

namespace tl::lessons {
namespace {

TrainingSettings tiny(std::string layers = "2,9,7,2") {
  TrainingSettings settings;
  settings.samples = 40;
  settings.layers = std::move(layers);
  settings.batch = 10;
  settings.epochs = 3;
  settings.learning_rate = 0.02;
  return settings;
}

double largest_gradient_error(MlpTrainer& trainer, int rows, double* largest = nullptr) {
  auto params = trainer.parameters();
  EXPECT_TRUE(params.is_ok());
  auto device = trainer.gradients(rows);
  EXPECT_TRUE(device.is_ok()) << device.message();
  const ReferencePass reference =
      reference_pass(trainer.shape(), *params, trainer.data().x, trainer.data().labels, rows, true);
  EXPECT_NEAR(device->loss, reference.loss, 1e-5);
  double worst = 0, big = 0;
  for (std::size_t i = 0; i < reference.gradients.size(); ++i) {
    big = std::max(big, std::abs(reference.gradients[i]));
    worst = std::max(worst, std::abs(reference.gradients[i] - device->values[i]));
  }
  if (largest != nullptr) *largest = big;
  return worst;
}

TEST(TrainingEmulated, DeviceGradientsMatchTheReference) {
  auto device = compute::make_emulator_device();
  // Odd widths (not multiples of the 64-wide tile) and three classes from the digits' ends.
  for (const char* layers : {"2,9,7,2", "2,70,2", "64,33,10"}) {
    TrainingSettings settings = tiny(layers);
    if (std::string(layers).starts_with("64")) settings.data = "digits";
    auto trainer = MlpTrainer::create(*device, settings);
    ASSERT_TRUE(trainer.is_ok()) << trainer.message();
    double largest = 0;
    const double worst = largest_gradient_error(**trainer, 40, &largest);
    EXPECT_GT(largest, 0.0) << layers;
    EXPECT_LT(worst, 1e-5 * std::max(1.0, largest)) << layers;
  }
}

// The split products (the GPU's choice for weight gradients) summed slice by slice give the same
// gradients: forced here on the emulator, over a batch deep enough to split.
TEST(TrainingEmulated, SplitProductsGiveTheSameGradients) {
  auto device = compute::make_emulator_device();
  TrainingSettings settings = tiny("2,16,2");
  settings.samples = 600;
  settings.batch = 600;
  settings.split_target_blocks = 64;
  auto trainer = MlpTrainer::create(*device, settings);
  ASSERT_TRUE(trainer.is_ok()) << trainer.message();
  EXPECT_GT((*trainer)->largest_split(), 1) << "the weight gradients are split";
  double largest = 0;
  const double worst = largest_gradient_error(**trainer, 600, &largest);
  EXPECT_LT(worst, 1e-5 * std::max(1.0, largest));
}

// Layers of at most kMlpThinMax neurons take the thin kernels (a warp per row forward; one pass
// for both backward products, in slices of 32 rows): hidden thin layers with their ReLU, an output
// layer, a thin hidden layer under a wide output (the digits' ten classes), and batches whose
// slices need the summing lanes' shuffles (600 rows: 19 slices) or leave a ragged last slice.
TEST(TrainingEmulated, ThinLayersGiveTheReferenceGradients) {
  auto device = compute::make_emulator_device();
  for (const char* layers : {"2,6,4,2", "2,8,2", "64,5,10"}) {
    for (int rows : {1, 45, 600}) {
      TrainingSettings settings = tiny(layers);
      if (std::string(layers).starts_with("64")) settings.data = "digits";
      settings.samples = 600;
      settings.batch = rows;
      auto trainer = MlpTrainer::create(*device, settings);
      ASSERT_TRUE(trainer.is_ok()) << trainer.message();
      double largest = 0;
      const double worst = largest_gradient_error(**trainer, rows, &largest);
      EXPECT_GT(largest, 0.0) << layers << " over " << rows;
      EXPECT_LT(worst, 1e-5 * std::max(1.0, largest)) << layers << " over " << rows;
    }
  }
}

// A step runs forward_and_loss, whose thin output layer computes the loss terms in its own kernel;
// the timing breakdown runs forward and loss apart. Both must give the same bits: the mean loss,
// the correct count and, through the backward pass, every gradient.
TEST(TrainingEmulated, TheFusedLossIsTheSeparateLossBitForBit) {
  auto device = compute::make_emulator_device();
  for (const char* layers : {"2,9,7,2", "2,2"}) {
    TrainingSettings settings = tiny(layers);
    settings.batch = 37;
    settings.samples = 80;
    auto made = MlpTrainer::create(*device, settings);
    ASSERT_TRUE(made.is_ok()) << made.message();
    MlpTrainer& trainer = **made;
    const std::size_t count = trainer.shape().parameter_count();
    std::vector<float> stats[2], grads[2];
    for (int fused = 0; fused < 2; ++fused) {
      const float* x = trainer.batch_inputs(0);
      const int* labels = trainer.batch_labels(0);
      float* slot = trainer.step_stats(fused);
      if (fused == 1) {
        ASSERT_TRUE(trainer.forward_and_loss(x, labels, 37, slot).is_ok());
      } else {
        ASSERT_TRUE(trainer.forward(x, 37).is_ok());
        ASSERT_TRUE(trainer.loss(labels, 37, slot).is_ok());
      }
      ASSERT_TRUE(trainer.backward(x, 37).is_ok());
      stats[fused].resize(2);
      grads[fused].resize(count);
      ASSERT_TRUE(device->copy_to_host(stats[fused].data(), slot, 2 * sizeof(float)).is_ok());
      ASSERT_TRUE(device
                      ->copy_to_host(grads[fused].data(), trainer.gradients_on_device(),
                                     count * sizeof(float))
                      .is_ok());
    }
    EXPECT_GT(stats[0][0], 0.0f) << layers;
    EXPECT_EQ(stats[0], stats[1]) << layers;
    EXPECT_EQ(grads[0], grads[1]) << layers;
  }
}

TEST(TrainingEmulated, OneSeedGivesOneLossCurve) {
  auto device = compute::make_emulator_device();
  std::vector<double> curves[2];
  for (auto& curve : curves) {
    auto trainer = MlpTrainer::create(*device, tiny());
    ASSERT_TRUE(trainer.is_ok()) << trainer.message();
    for (int e = 0; e < 3; ++e) ASSERT_TRUE((*trainer)->train_epoch().is_ok());
    curve = (*trainer)->step_losses();
  }
  ASSERT_EQ(curves[0].size(), 12u);
  EXPECT_EQ(curves[0], curves[1]);
  TrainingSettings other = tiny();
  other.seed = 2;
  auto trainer = MlpTrainer::create(*device, other);
  ASSERT_TRUE((*trainer)->train_epoch().is_ok());
  EXPECT_NE((*trainer)->step_losses()[0], curves[0][0]);
}

TEST(TrainingEmulated, LossFallsOnTheBlobs) {
  auto device = compute::make_emulator_device();
  TrainingSettings settings = tiny("2,16,16,2");
  settings.data = "blobs";
  settings.samples = 200;
  settings.batch = 20;
  settings.learning_rate = 0.02;
  auto trainer = MlpTrainer::create(*device, settings);
  ASSERT_TRUE(trainer.is_ok()) << trainer.message();
  auto before = (*trainer)->evaluate();
  ASSERT_TRUE(before.is_ok());
  EpochSummary last;
  for (int e = 0; e < 15; ++e) {
    auto summary = (*trainer)->train_epoch();
    ASSERT_TRUE(summary.is_ok()) << summary.message();
    last = *summary;
  }
  EXPECT_LT(last.loss, 0.5 * before->loss);
  EXPECT_GT(last.accuracy, 0.9);
}

TEST(TrainingEmulated, RefusesSettingsThatCannotTrain) {
  auto device = compute::make_emulator_device();
  TrainingSettings wrong_ends = tiny("3,8,2");
  EXPECT_NE(MlpTrainer::create(*device, wrong_ends).message().find("first width must be 2"),
            std::string::npos);
  TrainingSettings no_rate = tiny();
  no_rate.learning_rate = 0;
  EXPECT_FALSE(MlpTrainer::create(*device, no_rate).is_ok());
  TrainingSettings no_batch = tiny();
  no_batch.batch = 0;
  EXPECT_FALSE(MlpTrainer::create(*device, no_batch).is_ok());
  TrainingSettings no_data = tiny();
  no_data.data = "moons";
  EXPECT_NE(MlpTrainer::create(*device, no_data).message().find("moons"), std::string::npos);
}

}  // namespace
}  // namespace tl::lessons
