// Data parallel training on two or more GPUs through NCCL: the all-reduced gradients equal the
// sum, on the host, of each share's gradients computed on one GPU, and the whole batch's gradients
// of one GPU; training on N GPUs follows one GPU's loss curve, the replicas staying identical.
// Skipped, visibly, with fewer than two GPUs or without NCCL.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "gpu_test_environment.hpp"
#include "lessons/09_training/data_parallel.hpp"
#include "lessons/09_training/mlp_trainer.hpp"

namespace tl::lessons {
namespace {

class DataParallelGpu : public tl::testing::GpuTest {
 protected:
  void SetUp() override {
    tl::testing::GpuTest::SetUp();
    if (IsSkipped()) return;
    gpus_ = visible_gpus();
    const Status available = gpu_data_parallel_available(std::max(gpus_, 2));
    if (!available.is_ok()) GTEST_SKIP() << available.message();
  }
  int gpus_ = 0;
};

double largest_magnitude(const std::vector<float>& values) {
  double largest = 0;
  for (float v : values) largest = std::max(largest, std::abs(static_cast<double>(v)));
  return largest;
}

TEST_F(DataParallelGpu, AllReducedGradientsEqualTheSumOfTheShares) {
  TrainingSettings settings;
  settings.samples = 4096;
  settings.batch = 4096;
  settings.layers = "2,256,256,2";
  const int rows = 4096;
  for (int n = 2; n <= gpus_; ++n) {
    // On one GPU: each share's gradients (scaled by the whole batch) summed on the host in rank
    // order, and the whole batch's gradients at once.
    auto single = MlpTrainer::create(device(), settings);
    ASSERT_TRUE(single.is_ok()) << single.message();
    std::vector<double> host_sum;
    for (int r = 0; r < n; ++r) {
      const BatchShare share = batch_share(rows, n, r);
      auto part = (*single)->gradients(rows, share.first, share.rows, {});
      ASSERT_TRUE(part.is_ok()) << part.message();
      host_sum.resize(part->values.size(), 0.0);
      for (std::size_t i = 0; i < part->values.size(); ++i) {
        host_sum[i] = static_cast<float>(host_sum[i] + part->values[i]);  // float adds, as NCCL
      }
    }
    auto whole = (*single)->gradients(rows);
    ASSERT_TRUE(whole.is_ok()) << whole.message();
    const double largest = largest_magnitude(whole->values);
    ASSERT_GT(largest, 0);

    auto parallel =
        DataParallelTrainer::create(settings, n, gpu_replica_devices(), nccl_all_reduces());
    ASSERT_TRUE(parallel.is_ok()) << parallel.message();
    for (int rank = 0; rank < n; ++rank) {
      auto reduced = (*parallel)->gradients(rows, rank);
      ASSERT_TRUE(reduced.is_ok()) << reduced.message();
      ASSERT_EQ(reduced->values.size(), host_sum.size());
      double from_sum = 0, from_whole = 0;
      std::size_t exact = 0;
      for (std::size_t i = 0; i < host_sum.size(); ++i) {
        const double got = reduced->values[i];
        from_sum = std::max(from_sum, std::abs(got - host_sum[i]));
        from_whole = std::max(from_whole, std::abs(got - whole->values[i]));
        exact += got == host_sum[i] ? 1 : 0;
      }
      std::printf(
          "%d GPUs, replica %d (%s): NCCL's sum against the host's sum of the shares: "
          "largest difference %.3g (%zu of %zu equal bit for bit); against one GPU's "
          "whole batch: %.3g; largest gradient %.3g\n",
          n, rank, (*parallel)->all_reduce_name().c_str(), from_sum, exact, host_sum.size(),
          from_whole, largest);
      // NCCL adds the same floats in its own order (2 GPUs: a + b, exactly the host's sum).
      EXPECT_LE(from_sum, 1e-6 * largest) << n << " GPUs, replica " << rank;
      // The whole batch on one GPU sums the examples in another order (split products).
      EXPECT_LE(from_whole, 1e-4 * largest) << n << " GPUs, replica " << rank;
      EXPECT_NEAR(reduced->loss, whole->loss, 1e-4 * std::max(1.0, whole->loss));
    }
  }
}

TEST_F(DataParallelGpu, TrainingOnAllGpusFollowsOneGpusLossCurve) {
  TrainingSettings settings;
  settings.samples = 2000;
  settings.batch = 200;
  settings.layers = "2,64,64,2";
  settings.learning_rate = 0.005;
  settings.epochs = 5;
  auto single = MlpTrainer::create(device(), settings);
  ASSERT_TRUE(single.is_ok()) << single.message();
  auto parallel =
      DataParallelTrainer::create(settings, gpus_, gpu_replica_devices(), nccl_all_reduces());
  ASSERT_TRUE(parallel.is_ok()) << parallel.message();
  for (int e = 0; e < settings.epochs; ++e) {
    auto one = (*single)->train_epoch();
    ASSERT_TRUE(one.is_ok()) << one.message();
    auto many = (*parallel)->train_epoch();
    ASSERT_TRUE(many.is_ok()) << many.message();
    std::printf("epoch %d: one GPU loss %.6f accuracy %.4f; %d GPUs loss %.6f accuracy %.4f\n",
                e + 1, one->loss, one->accuracy, gpus_, many->loss, many->accuracy);
  }
  const std::vector<double>& a = (*single)->step_losses();
  const std::vector<double>& b = (*parallel)->step_losses();
  ASSERT_EQ(a.size(), 50u);
  ASSERT_EQ(b.size(), a.size());
  double worst = 0;
  for (std::size_t s = 0; s < a.size(); ++s) {
    worst = std::max(worst, std::abs(a[s] - b[s]) / std::max(1.0, a[s]));
    EXPECT_NEAR(b[s], a[s], 1e-3 * std::max(1.0, a[s])) << "step " << s + 1;
  }
  std::printf("largest step-loss difference over 50 steps: %.3g\n", worst);
  auto first = (*parallel)->parameters(0);
  ASSERT_TRUE(first.is_ok()) << first.message();
  for (int r = 1; r < gpus_; ++r) {
    auto other = (*parallel)->parameters(r);
    ASSERT_TRUE(other.is_ok()) << other.message();
    EXPECT_EQ(*other, *first) << "replica " << r << " drifted from replica 0";
  }
}

TEST_F(DataParallelGpu, ScalingReportsEveryGpuCount) {
  TrainingSettings settings;
  settings.samples = 4096;
  settings.batch = 4096;
  auto report = measure_scaling(settings, gpus_, gpu_replica_devices(), nccl_all_reduces(), 10);
  ASSERT_TRUE(report.is_ok()) << report.message();
  ASSERT_EQ(report->points.size(), static_cast<std::size_t>(gpus_));
  EXPECT_EQ(report->all_reduce.rfind("NCCL 2.", 0), 0u) << report->all_reduce;
  for (const ScalingPoint& p : report->points) {
    EXPECT_GT(p.step_ms, 0);
    EXPECT_EQ(p.all_reduce_ms > 0, p.replicas > 1) << p.replicas;
  }
  std::printf("%s", scaling_table(*report).c_str());
}

}  // namespace
}  // namespace tl::lessons
