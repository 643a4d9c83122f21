// Training that diverges stops on every device (tests/devices/device_under_test.hpp), with either
// optimizer, naming the step and the learning rate that caused it.

#include <gtest/gtest.h>

#include "device_under_test.hpp"
#include "lessons/09_training/mlp_trainer.hpp"

namespace tl::testing {
namespace {

using lessons::Optimizer;

class TrainingDivergence : public OnEveryDevice {};

TEST_P(TrainingDivergence, AHugeLearningRateStopsNamingTheStep) {
  for (Optimizer optimizer : {Optimizer::kSgdMomentum, Optimizer::kAdam}) {
    lessons::TrainingSettings settings;
    settings.samples = 40;
    settings.layers = "2,9,7,2";
    settings.batch = 10;
    settings.epochs = 3;
    settings.learning_rate = 1e6;
    settings.optimizer = optimizer;
    auto trainer = lessons::MlpTrainer::create(device(), settings);
    ASSERT_TRUE(trainer.is_ok()) << trainer.message();
    Status stopped = Status::ok();
    for (int e = 0; e < 3 && stopped.is_ok(); ++e) {
      auto summary = (*trainer)->train_epoch();
      if (!summary) stopped = summary.error();
    }
    ASSERT_FALSE(stopped.is_ok()) << lessons::optimizer_name(optimizer);
    EXPECT_NE(stopped.message().find("diverged at step "), std::string::npos) << stopped.message();
    EXPECT_NE(stopped.message().find("learning rate 1e+06"), std::string::npos)
        << stopped.message();
  }
}

THREADLAB_ON_EVERY_DEVICE(TrainingDivergence);

}  // namespace
}  // namespace tl::testing
