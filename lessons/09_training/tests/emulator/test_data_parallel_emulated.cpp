// Data parallel training without a GPU: N emulator replicas, each on its own thread, their
// gradients summed by the CPU's all-reduce. The split covers every example once; the summed
// gradients of the shares are the single device's gradients of the whole batch; N replicas train
// along the same loss curve as one device, and stay identical to each other; a replica that fails
// releases the others instead of leaving them waiting.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <thread>

#include "compute/device.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "lessons/09_training/data_parallel.hpp"
#include "lessons/09_training/gradient_all_reduce.hpp"
#include "lessons/09_training/mlp_trainer.hpp"
#include "lessons/09_training/nccl_library.hpp"
#include "lessons/09_training/training.hpp"

namespace tl::lessons {
namespace {

TrainingSettings small(int batch) {
  TrainingSettings settings;
  settings.samples = 61;  // batches of 20 leave a last batch of 1: a replica with nothing to do
  settings.layers = "2,12,9,2";
  settings.batch = batch;
  settings.learning_rate = 0.02;
  settings.optimizer = Optimizer::kSgdMomentum;
  settings.epochs = 3;
  return settings;
}

TEST(DataParallel, SharesCoverTheBatchOnceAndDifferByAtMostOne) {
  for (int replicas = 1; replicas <= 8; ++replicas) {
    for (int rows : {0, 1, 2, 7, 8, 100, 4097}) {
      int next = 0, smallest = rows, largest = 0;
      for (int r = 0; r < replicas; ++r) {
        const BatchShare share = batch_share(rows, replicas, r);
        EXPECT_EQ(share.first, next) << rows << " rows over " << replicas;
        next += share.rows;
        smallest = std::min(smallest, share.rows);
        largest = std::max(largest, share.rows);
      }
      EXPECT_EQ(next, rows) << rows << " rows over " << replicas;
      EXPECT_LE(largest - smallest, 1) << rows << " rows over " << replicas;
    }
  }
}

TEST(DataParallel, HostAllReduceSumsEveryReplicasBuffer) {
  constexpr int kReplicas = 3;
  constexpr std::size_t kCount = 1000;
  HostAllReduce all_reduce(kReplicas);
  std::vector<std::unique_ptr<compute::Device>> devices;
  std::vector<compute::DeviceArray<float>> buffers;
  for (int r = 0; r < kReplicas; ++r) {
    devices.push_back(compute::make_emulator_device());
    auto buffer = compute::allocate_array<float>(*devices.back(), kCount);
    ASSERT_TRUE(buffer.is_ok());
    std::vector<float> values(kCount);
    for (std::size_t i = 0; i < kCount; ++i) values[i] = static_cast<float>((r + 1) * i);
    ASSERT_TRUE(devices.back()->copy_to_device(buffer->data(), values.data(), kCount * 4).is_ok());
    buffers.push_back(std::move(*buffer));
    ASSERT_TRUE(all_reduce.join(r, *devices.back()).is_ok());
  }
  std::vector<Status> results(kReplicas);
  std::vector<std::thread> threads;
  for (int r = 0; r < kReplicas; ++r) {
    threads.emplace_back([&, r] {
      for (int round = 0; round < 2 && results[r].is_ok(); ++round) {
        results[r] = all_reduce.sum(r, buffers[r].data(), kCount);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (int r = 0; r < kReplicas; ++r) {
    ASSERT_TRUE(results[r].is_ok()) << results[r].message();
    std::vector<float> back(kCount);
    ASSERT_TRUE(devices[r]->copy_to_host(back.data(), buffers[r].data(), kCount * 4).is_ok());
    // Two rounds: (1 + 2 + 3)·i, then three replicas' copies of that.
    for (std::size_t i = 0; i < kCount; ++i) ASSERT_EQ(back[i], 18.0f * i) << r << ", " << i;
  }
}

TEST(DataParallel, AnAbortedAllReduceReleasesTheReplicasWaitingInIt) {
  HostAllReduce all_reduce(2);
  auto device = compute::make_emulator_device();
  auto buffer = compute::allocate_array<float>(*device, 4);
  ASSERT_TRUE(buffer.is_ok());
  ASSERT_TRUE(all_reduce.join(0, *device).is_ok());
  Status waited;
  std::thread alone([&] { waited = all_reduce.sum(0, buffer->data(), 4); });
  all_reduce.abort();  // replica 1 never comes
  alone.join();
  ASSERT_FALSE(waited.is_ok());
  EXPECT_EQ(waited.error().kind, ErrorKind::kCancelled);
}

TEST(DataParallel, SummedShareGradientsAreTheWholeBatchsGradients) {
  const TrainingSettings settings = small(40);
  auto device = compute::make_emulator_device();
  auto single = MlpTrainer::create(*device, settings);
  ASSERT_TRUE(single.is_ok()) << single.message();
  auto expected = (*single)->gradients(40);
  ASSERT_TRUE(expected.is_ok()) << expected.message();
  double largest = 0;
  for (float g : expected->values) largest = std::max(largest, std::abs(static_cast<double>(g)));
  ASSERT_GT(largest, 0);
  for (int replicas : {2, 3, 4}) {
    auto parallel = DataParallelTrainer::create(settings, replicas, emulator_replica_devices(),
                                                host_all_reduces());
    ASSERT_TRUE(parallel.is_ok()) << parallel.message();
    for (int rank = 0; rank < replicas; ++rank) {
      auto summed = (*parallel)->gradients(40, rank);
      ASSERT_TRUE(summed.is_ok()) << summed.message();
      ASSERT_EQ(summed->values.size(), expected->values.size());
      double worst = 0;
      for (std::size_t i = 0; i < summed->values.size(); ++i) {
        worst = std::max(worst, std::abs(static_cast<double>(summed->values[i]) -
                                         static_cast<double>(expected->values[i])));
      }
      // Float sums in another order: a few ulps of the largest gradient, far below any real
      // difference (a share scaled by its own size instead of the batch's would be off by N×).
      EXPECT_LT(worst, 1e-5 * largest) << replicas << " replicas, replica " << rank;
      EXPECT_NEAR(summed->loss, expected->loss, 1e-5) << replicas << " replicas";
    }
  }
}

TEST(DataParallel, ReplicasTrainAlongTheSingleDevicesLossCurve) {
  for (Optimizer optimizer : {Optimizer::kSgdMomentum, Optimizer::kAdam}) {
    TrainingSettings settings = small(20);
    settings.optimizer = optimizer;
    auto device = compute::make_emulator_device();
    auto single = MlpTrainer::create(*device, settings);
    ASSERT_TRUE(single.is_ok()) << single.message();
    auto parallel =
        DataParallelTrainer::create(settings, 2, emulator_replica_devices(), host_all_reduces());
    ASSERT_TRUE(parallel.is_ok()) << parallel.message();
    for (int e = 0; e < settings.epochs; ++e) {
      auto one = (*single)->train_epoch();
      ASSERT_TRUE(one.is_ok()) << one.message();
      auto two = (*parallel)->train_epoch();
      ASSERT_TRUE(two.is_ok()) << two.message();
      EXPECT_EQ(two->steps, one->steps);
      EXPECT_NEAR(two->loss, one->loss, 1e-4 * std::max(1.0, one->loss));
      EXPECT_DOUBLE_EQ(two->accuracy, one->accuracy);
    }
    const std::vector<double>& a = (*single)->step_losses();
    const std::vector<double>& b = (*parallel)->step_losses();
    ASSERT_EQ(a.size(), 12u);  // 4 batches (20, 20, 20, 1) a epoch, 3 epochs
    ASSERT_EQ(b.size(), a.size());
    for (std::size_t s = 0; s < a.size(); ++s) {
      EXPECT_NEAR(b[s], a[s], 1e-4 * std::max(1.0, a[s])) << "step " << s + 1;
    }
    // The replicas made the same updates from the same sums: their parameters are equal, bit for
    // bit, and within rounding of the single device's.
    auto p0 = (*parallel)->parameters(0);
    auto p1 = (*parallel)->parameters(1);
    auto reference = (*single)->parameters();
    ASSERT_TRUE(p0.is_ok() && p1.is_ok() && reference.is_ok());
    EXPECT_EQ(*p0, *p1);
    for (std::size_t i = 0; i < p0->size(); ++i) {
      ASSERT_NEAR((*p0)[i], (*reference)[i], 1e-4) << "parameter " << i;
    }
  }
}

TEST(DataParallel, ADivergingRunIsStoppedAtTheSameStepAsOnOneDevice) {
  TrainingSettings settings = small(20);
  settings.learning_rate = 1e6;
  auto device = compute::make_emulator_device();
  auto single = MlpTrainer::create(*device, settings);
  ASSERT_TRUE(single.is_ok()) << single.message();
  auto alone = (*single)->train_epoch();
  ASSERT_FALSE(alone.is_ok());
  auto parallel =
      DataParallelTrainer::create(settings, 3, emulator_replica_devices(), host_all_reduces());
  ASSERT_TRUE(parallel.is_ok()) << parallel.message();
  auto epoch = (*parallel)->train_epoch();
  ASSERT_FALSE(epoch.is_ok());
  // "training diverged at step S (epoch 1, batch B of 4): the loss ..." up to the colon.
  const std::string expected = alone.message().substr(0, alone.message().find(':'));
  EXPECT_EQ(epoch.message().substr(0, epoch.message().find(':')), expected) << epoch.message();
  EXPECT_EQ(expected.rfind("training diverged at step ", 0), 0u) << expected;
}

TEST(DataParallel, AReplicaWhoseDeviceFailsEndsTheRunWithItsReason) {
  const ReplicaDeviceFactory failing_second =
      [](int rank) -> Result<std::unique_ptr<compute::Device>> {
    if (rank == 1) return Error{ErrorKind::kNoDevice, "replica 1 has no device"};
    return compute::make_emulator_device();
  };
  auto parallel = DataParallelTrainer::create(small(20), 3, failing_second, host_all_reduces());
  ASSERT_FALSE(parallel.is_ok());
  EXPECT_EQ(parallel.message(), "replica 1 has no device");
}

TEST(DataParallel, ABatchSmallerThanTheReplicasIsRefused) {
  auto parallel =
      DataParallelTrainer::create(small(2), 3, emulator_replica_devices(), host_all_reduces());
  ASSERT_FALSE(parallel.is_ok());
  EXPECT_EQ(parallel.error().kind, ErrorKind::kInvalidArgument);
}

TEST(DataParallel, ScalingReportHasARowPerReplicaCountInEveryFormat) {
  TrainingSettings settings = small(20);
  auto report =
      measure_scaling(settings, 3, emulator_replica_devices(), host_all_reduces(), /*repeats=*/3);
  ASSERT_TRUE(report.is_ok()) << report.message();
  ASSERT_EQ(report->points.size(), 3u);
  EXPECT_EQ(report->gradient_bytes, 4u * (3 * 12 + 13 * 9 + 10 * 2));
  EXPECT_EQ(report->devices.size(), 3u);
  EXPECT_EQ(report->points[2].shares, (std::vector<int>{7, 7, 6}));
  EXPECT_DOUBLE_EQ(report->points[0].speedup, 1.0);
  EXPECT_EQ(report->points[0].all_reduce_ms, 0.0);  // one replica sums nothing
  EXPECT_GT(report->points[1].all_reduce_ms, 0.0);
  const std::string csv = scaling_csv(*report);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4);
  EXPECT_EQ(csv.rfind("gpus,shares,batch,step_ms,all_reduce_ms", 0), 0u) << csv;
  EXPECT_NE(csv.find("\n3,7;7;6,20,"), std::string::npos) << csv;
  const std::string json = scaling_json(*report);
  const nlohmann::json document = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(document.is_discarded()) << json;
  ASSERT_EQ(document["points"].size(), 3u) << json;
  EXPECT_EQ(document["points"][2]["shares"], (std::vector<int>{7, 7, 6})) << json;
  EXPECT_EQ(document["points"][2]["gpus"], 3) << json;
  EXPECT_EQ(document["devices"].size(), 3u) << json;
  EXPECT_EQ(document["batch"], 20) << json;
  EXPECT_NE(scaling_table(*report).find("global batch 20"), std::string::npos);
  EXPECT_DOUBLE_EQ(ring_bytes_per_replica(1000, 2), 1000.0);
  EXPECT_DOUBLE_EQ(ring_bytes_per_replica(1000, 4), 1500.0);
  EXPECT_DOUBLE_EQ(ring_bytes_per_replica(1000, 1), 0.0);
}

// NCCL is found at run time: the file THREADLAB_NCCL_LIBRARY names comes first, then the toolkit,
// then the loader's path.
TEST(DataParallel, NcclIsLookedForWhereTheVariableSaysFirst) {
  ::setenv("THREADLAB_NCCL_LIBRARY", "/opt/nccl/lib/libnccl.so.2", 1);
  const std::vector<std::string> with_variable = nccl_library_candidates();
  ::unsetenv("THREADLAB_NCCL_LIBRARY");
  const std::vector<std::string> without = nccl_library_candidates();
  ASSERT_FALSE(with_variable.empty());
  EXPECT_EQ(with_variable.front(), "/opt/nccl/lib/libnccl.so.2");
  EXPECT_EQ(with_variable.size(), without.size() + 1);
  EXPECT_EQ(without.back(), "libnccl.so.2");  // the system loader's search, last
  EXPECT_NE(std::find(without.begin(), without.end(), "/usr/local/cuda/lib64/libnccl.so.2"),
            without.end());
}

// Where the toolkit ships NCCL (this machine's does), it loads without a GPU; where it does not,
// the error says where it looked and how to point at one.
TEST(DataParallel, NcclLoadsOrSaysWhereItLooked) {
  auto nccl = NcclLibrary::load();
  if (::access("/usr/local/cuda/lib64/libnccl.so.2", R_OK) == 0) {
    ASSERT_TRUE(nccl.is_ok()) << nccl.message();
    EXPECT_GE((*nccl)->version, 20000);
    EXPECT_EQ((*nccl)->version_text().rfind("2.", 0), 0u) << (*nccl)->version_text();
    EXPECT_NE((*nccl)->describe("ncclAllReduce", 1).find("ncclAllReduce: "), std::string::npos);
  } else if (!nccl) {
    EXPECT_NE(nccl.message().find("THREADLAB_NCCL_LIBRARY"), std::string::npos) << nccl.message();
  }
}

// The lesson's gpus parameter on the emulator: the one-device rows as before, and a note that says
// why there are no data parallel rows; a count of 0 is refused.
TEST(DataParallel, TheLessonSaysWhyItCannotSplitOnTheEmulator) {
  auto lesson = compute::make_lesson("training");
  ASSERT_TRUE(lesson.is_ok()) << lesson.message();
  ASSERT_TRUE((*lesson)->configure({{"hidden", "8"}, {"batch", "16"}, {"gpus", "2"}}).is_ok());
  auto device = compute::make_emulator_device();
  auto report = (*lesson)->run_timed(*device, nullptr);
  ASSERT_TRUE(report.is_ok()) << report.message();
  EXPECT_NE(report->find({TimingRole::kKernel, "step"}), nullptr);
  EXPECT_EQ(report->find({TimingRole::kKernel, "data-parallel-2"}), nullptr);
  const bool explained =
      std::any_of(report->notes.begin(), report->notes.end(), [](const std::string& note) {
        return note.rfind("data parallel (gpus 2) not run: it needs CUDA GPUs", 0) == 0;
      });
  EXPECT_TRUE(explained);
  ASSERT_TRUE((*lesson)->configure({{"gpus", "0"}}).is_ok());
  auto refused = (*lesson)->run_timed(*device, nullptr);
  ASSERT_FALSE(refused.is_ok());
  EXPECT_EQ(refused.error().kind, ErrorKind::kInvalidArgument);
}

// The launch panel greys what the device cannot honour: on the emulator the training lesson's gpus,
// with the reason; lessons without such a parameter have nothing greyed.
TEST(DataParallel, TheGpusParameterIsUnavailableOnTheEmulatorWithTheReason) {
  auto device = compute::make_emulator_device();
  auto training = compute::make_lesson("training");
  ASSERT_TRUE(training.is_ok()) << training.message();
  const auto unavailable = (*training)->unavailable_params(*device);
  ASSERT_EQ(unavailable.size(), 1u);
  ASSERT_EQ(unavailable.count("gpus"), 1u);
  EXPECT_NE(unavailable.at("gpus").find("this run is on the emulator"), std::string::npos)
      << unavailable.at("gpus");
  for (const auto& info : catalog()) {
    if (info.id == kTrainingId) continue;
    auto lesson = compute::make_lesson(info.id);
    ASSERT_TRUE(lesson.is_ok()) << lesson.message();
    EXPECT_TRUE((*lesson)->unavailable_params(*device).empty()) << info.id;
  }
}

}  // namespace
}  // namespace tl::lessons
