// The capstone's background training session (lessons/09_training/training_session.hpp) on the
// emulator: its commands (reset, start, pause, step), its snapshots, the boundary written into an
// offered destination, and divergence as an error value that a reset clears.

#include "lessons/09_training/training_session.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "lessons/09_training/mlp_trainer.hpp"

namespace tl::lessons {
namespace {

TrainingSettings small_settings() {
  TrainingSettings settings;
  settings.data = "spirals";
  settings.samples = 200;
  settings.layers = "2,16,2";
  settings.batch = 20;  // 10 steps per epoch
  settings.learning_rate = 0.01;
  settings.optimizer = Optimizer::kAdam;
  settings.seed = 7;
  return settings;
}

class TrainingSessionTest : public ::testing::Test {
 protected:
  TrainingSessionTest() : device_(compute::make_emulator_device()) {}

  TrainingSessionOptions options() const {
    TrainingSessionOptions o;
    o.boundary_side = 16;
    o.refresh_every = 5;
    o.steps_per_chunk = 3;
    return o;
  }

  // Lets the session run until `done` holds for its snapshot, with a generous bound so that a hang
  // fails instead of blocking the suite.
  template <class Done>
  std::shared_ptr<const TrainingSnapshot> run_until(TrainingSession& session, Done done) {
    const auto limit = std::chrono::steady_clock::now() + std::chrono::minutes(2);
    while (std::chrono::steady_clock::now() < limit) {
      session.update();
      auto snapshot = session.snapshot();
      if (done(*snapshot)) return snapshot;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    ADD_FAILURE() << "the session never got there";
    return session.snapshot();
  }

  std::unique_ptr<compute::Device> device_;
};

TEST(CurveRecorder, KeepsEveryStepUntilFullThenEveryOtherEvenly) {
  CurveRecorder curve;
  for (std::int64_t step = 1; step < static_cast<std::int64_t>(CurveRecorder::kMaxCurvePoints);
       ++step) {
    curve.add(step, static_cast<double>(step));
  }
  ASSERT_EQ(curve.points().size(), CurveRecorder::kMaxCurvePoints - 1);
  EXPECT_EQ(curve.stride(), 1);
  curve.add(CurveRecorder::kMaxCurvePoints, 0.0);  // full: halves
  EXPECT_EQ(curve.points().size(), CurveRecorder::kMaxCurvePoints / 2);
  EXPECT_EQ(curve.stride(), 2);
  for (std::size_t i = 1; i < curve.points().size(); ++i) {
    EXPECT_EQ(curve.points()[i].step - curve.points()[i - 1].step, 2) << i;
  }
  const std::int64_t last = curve.points().back().step;
  curve.add(last + 2, 1.0);  // kept: the spacing stays 2
  EXPECT_EQ(curve.points().back().step, last + 2);
  curve.add(last + 3, 1.0);  // skipped
  EXPECT_EQ(curve.points().back().step, last + 2);
}

TEST_F(TrainingSessionTest, NothingRunsBeforeAResetAndAResetPreparesAPausedNetwork) {
  TrainingSession session(*device_, options());
  EXPECT_EQ(session.snapshot()->phase, TrainingPhase::kPreparing);
  EXPECT_FALSE(session.busy());
  ASSERT_TRUE(session.reset(small_settings()).is_ok());
  session.wait_until_idle();
  auto snapshot = session.snapshot();
  EXPECT_EQ(snapshot->phase, TrainingPhase::kPaused);
  EXPECT_EQ(snapshot->steps, 0);
  EXPECT_EQ(snapshot->network, "2,16,2");
  EXPECT_EQ(snapshot->steps_per_epoch, 10);
  ASSERT_NE(snapshot->data, nullptr);
  EXPECT_EQ(snapshot->data->count(), 200);
  // The untrained network is evaluated once: the curves start at step 0.
  ASSERT_EQ(snapshot->loss.size(), 1u);
  EXPECT_EQ(snapshot->loss[0].step, 0);
  EXPECT_NEAR(snapshot->loss[0].value, std::log(2.0), 0.5);
  EXPECT_TRUE(snapshot->batch_loss.empty());
  EXPECT_EQ(snapshot->first_layer.neurons, 16);
  EXPECT_EQ(snapshot->first_layer.inputs, 2);
  EXPECT_EQ(snapshot->first_layer.weights.size(), 32u);
  EXPECT_GT(snapshot->first_layer.largest_magnitude, 0.0f);
  EXPECT_TRUE(snapshot->error.empty());
}

TEST_F(TrainingSessionTest, StepRunsThatManyStepsWithTheTrainersOwnLossesThenPauses) {
  TrainingSession session(*device_, options());
  ASSERT_TRUE(session.reset(small_settings()).is_ok());
  ASSERT_TRUE(session.step(13).is_ok());  // across an epoch's end, in chunks of 3
  session.wait_until_idle();
  auto snapshot = session.snapshot();
  EXPECT_EQ(snapshot->phase, TrainingPhase::kPaused);
  EXPECT_EQ(snapshot->steps, 13);
  EXPECT_EQ(snapshot->epochs, 1);
  ASSERT_EQ(snapshot->batch_loss.size(), 13u);
  ASSERT_EQ(snapshot->batch_accuracy.size(), 13u);

  // The same network trained directly, step by step: the same losses.
  auto trainer = MlpTrainer::create(*device_, small_settings());
  ASSERT_TRUE(trainer.is_ok()) << trainer.message();
  std::vector<double> expected;
  while (expected.size() < 13) {
    auto stats = (*trainer)->train_steps(static_cast<int>(13 - expected.size()));
    ASSERT_TRUE(stats.is_ok()) << stats.message();
    for (const auto& s : *stats) expected.push_back(s.loss);
  }
  for (std::size_t i = 0; i < 13; ++i) {
    EXPECT_EQ(snapshot->batch_loss[i].step, static_cast<std::int64_t>(i + 1));
    EXPECT_NEAR(snapshot->batch_loss[i].value, expected[i], 1e-6 * (1 + expected[i])) << i;
    EXPECT_GE(snapshot->batch_accuracy[i].value, 0.0);
    EXPECT_LE(snapshot->batch_accuracy[i].value, 1.0);
  }
  // Refreshed at steps 0, then every 5 and at the end: the data set's loss at those steps.
  ASSERT_GE(snapshot->loss.size(), 3u);
  EXPECT_EQ(snapshot->loss.back().step, 13);
  EXPECT_EQ(snapshot->accuracy.back().step, 13);

  // Stepping again goes on from there.
  ASSERT_TRUE(session.step(1).is_ok());
  session.wait_until_idle();
  EXPECT_EQ(session.snapshot()->steps, 14);
  EXPECT_GT(session.snapshot()->version, snapshot->version);
}

TEST_F(TrainingSessionTest, StartRunsUntilPausedAndStepIsRefusedMeanwhile) {
  TrainingSession session(*device_, options());
  ASSERT_TRUE(session.reset(small_settings()).is_ok());
  session.wait_until_idle();
  ASSERT_TRUE(session.start().is_ok());
  auto running = run_until(session, [](const TrainingSnapshot& s) {
    return s.phase == TrainingPhase::kRunning && s.steps >= 20;
  });
  EXPECT_EQ(running->phase, TrainingPhase::kRunning);
  EXPECT_TRUE(session.busy());
  const Status refused = session.step(1);
  EXPECT_FALSE(refused.is_ok());
  EXPECT_NE(refused.message().find("pause"), std::string::npos) << refused.message();

  session.pause();
  session.wait_until_idle();
  auto paused = session.snapshot();
  EXPECT_EQ(paused->phase, TrainingPhase::kPaused);
  EXPECT_GE(paused->steps, 20);
  EXPECT_FALSE(session.busy());
  // Paused means paused: a while later, the same step.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  session.update();
  EXPECT_EQ(session.snapshot()->steps, paused->steps);
  EXPECT_EQ(session.snapshot()->loss.back().step, paused->steps) << "refreshed when it paused";
}

TEST_F(TrainingSessionTest, ResetWhileRunningStartsAgainFromTheSeed) {
  TrainingSession session(*device_, options());
  ASSERT_TRUE(session.reset(small_settings()).is_ok());
  session.wait_until_idle();
  const double first_loss = session.snapshot()->loss.front().value;
  ASSERT_TRUE(session.start().is_ok());
  run_until(session, [](const TrainingSnapshot& s) { return s.steps >= 6; });
  TrainingSettings other = small_settings();
  other.layers = "2,8,8,2";
  ASSERT_TRUE(session.reset(other).is_ok());
  session.wait_until_idle();
  auto snapshot = session.snapshot();
  EXPECT_EQ(snapshot->phase, TrainingPhase::kPaused);
  EXPECT_EQ(snapshot->steps, 0);
  EXPECT_EQ(snapshot->network, "2,8,8,2");
  EXPECT_TRUE(snapshot->batch_loss.empty());

  // The first network again, from its seed: the same starting loss.
  ASSERT_TRUE(session.reset(small_settings()).is_ok());
  session.wait_until_idle();
  EXPECT_DOUBLE_EQ(session.snapshot()->loss.front().value, first_loss);
}

TEST_F(TrainingSessionTest, DivergenceIsAnErrorNamingTheStepAndAResetRecovers) {
  TrainingSession session(*device_, options());
  TrainingSettings wild = small_settings();
  wild.optimizer = Optimizer::kSgdMomentum;
  wild.learning_rate = 1e6;
  ASSERT_TRUE(session.reset(wild).is_ok());
  ASSERT_TRUE(session.step(40).is_ok());
  session.wait_until_idle();
  auto snapshot = session.snapshot();
  ASSERT_EQ(snapshot->phase, TrainingPhase::kDiverged) << snapshot->error;
  EXPECT_GT(snapshot->error_step, 0);
  EXPECT_LE(snapshot->error_step, 40);
  EXPECT_NE(snapshot->error.find("diverged at step " + std::to_string(snapshot->error_step)),
            std::string::npos)
      << snapshot->error;
  EXPECT_EQ(snapshot->steps, snapshot->error_step - 1) << "the steps before it count";
  // Nothing trains on from a diverged network.
  EXPECT_FALSE(session.start().is_ok());
  EXPECT_FALSE(session.step(1).is_ok());

  ASSERT_TRUE(session.reset(small_settings()).is_ok());
  ASSERT_TRUE(session.step(3).is_ok());
  session.wait_until_idle();
  snapshot = session.snapshot();
  EXPECT_EQ(snapshot->phase, TrainingPhase::kPaused);
  EXPECT_EQ(snapshot->steps, 3);
  EXPECT_TRUE(snapshot->error.empty());
}

TEST_F(TrainingSessionTest, RefusedSettingsAreAFailureWithTheReason) {
  TrainingSession session(*device_, options());
  TrainingSettings wrong = small_settings();
  wrong.layers = "2,16,3";  // the spirals have two classes
  ASSERT_TRUE(session.reset(wrong).is_ok());
  session.wait_until_idle();
  auto snapshot = session.snapshot();
  EXPECT_EQ(snapshot->phase, TrainingPhase::kFailed);
  EXPECT_NE(snapshot->error.find("do not fit"), std::string::npos) << snapshot->error;
  EXPECT_FALSE(session.step(1).is_ok());
}

TEST_F(TrainingSessionTest, TheBoundaryIsWrittenIntoTheOfferedDestination) {
  TrainingSessionOptions o = options();
  TrainingSession session(*device_, o);
  const std::size_t points = static_cast<std::size_t>(o.boundary_side) * o.boundary_side;
  std::vector<float> boundary(points * 2, -1.0f);  // emulator: host memory is device memory
  session.offer_boundary(boundary.data(), boundary.size());
  ASSERT_TRUE(session.reset(small_settings()).is_ok());
  session.wait_until_idle();
  ASSERT_TRUE(session.take_boundary_written());
  EXPECT_FALSE(session.take_boundary_written()) << "taken once";
  EXPECT_EQ(session.snapshot()->boundary_step, 0);
  for (std::size_t p = 0; p < points; ++p) {
    ASSERT_NEAR(boundary[2 * p] + boundary[2 * p + 1], 1.0f, 1e-5f) << p;
  }

  // Not offered again: training does not write it.
  std::fill(boundary.begin(), boundary.end(), -1.0f);
  ASSERT_TRUE(session.step(6).is_ok());
  session.wait_until_idle();
  EXPECT_EQ(boundary[0], -1.0f);
  EXPECT_EQ(session.snapshot()->boundary_step, 0);

  // Offered while paused: a refresh fills it for the current step.
  session.offer_boundary(boundary.data(), boundary.size());
  session.wait_until_idle();
  run_until(session, [](const TrainingSnapshot& s) { return s.boundary_step == 6; });
  EXPECT_TRUE(session.take_boundary_written());
  EXPECT_NEAR(boundary[0] + boundary[1], 1.0f, 1e-5f);

  // Withdrawn before a refresh: never written.
  std::fill(boundary.begin(), boundary.end(), -1.0f);
  session.offer_boundary(boundary.data(), boundary.size());
  session.withdraw_boundary();
  ASSERT_TRUE(session.step(5).is_ok());
  session.wait_until_idle();
  EXPECT_EQ(boundary[0], -1.0f);
  EXPECT_FALSE(session.take_boundary_written());
}

}  // namespace
}  // namespace tl::lessons
