#include "data_parallel.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

#include <nlohmann/json.hpp>

#if defined(THREADLAB_HAVE_CUDA)
#include "nccl_all_reduce.hpp"
#endif
#include "nccl_library.hpp"

namespace tl::lessons {

BatchShare batch_share(int rows, int replicas, int rank) {
  const int base = rows / replicas, extra = rows % replicas;
  BatchShare share;
  share.rows = base + (rank < extra ? 1 : 0);
  share.first = rank * base + std::min(rank, extra);
  return share;
}

// One host thread per replica, living as long as the trainer: a GPU's current device belongs to a
// thread, so everything a replica does runs on its thread. run() hands every thread the same task
// and waits for all of them.
class DataParallelTrainer::Threads {
 public:
  Threads(int count, std::function<void()> on_failure) : on_failure_(std::move(on_failure)) {
    results_.resize(static_cast<std::size_t>(count));
    for (int rank = 0; rank < count; ++rank) threads_.emplace_back([this, rank] { loop(rank); });
  }
  ~Threads() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    work_.notify_all();
    for (std::thread& thread : threads_) thread.join();
  }

  // The first replica's error, by rank, or OK.
  Status run(const std::function<Status(int)>& task) {
    std::unique_lock lock(mutex_);
    task_ = &task;
    pending_ = static_cast<int>(threads_.size());
    ++generation_;
    work_.notify_all();
    done_.wait(lock, [&] { return pending_ == 0; });
    task_ = nullptr;
    // A replica released by another's failure reports kCancelled: the cause is the other's.
    for (const Status& result : results_) {
      if (!result.is_ok() && result.error().kind != ErrorKind::kCancelled) return result;
    }
    for (const Status& result : results_) {
      if (!result.is_ok()) return result;
    }
    return Status::ok();
  }

 private:
  void loop(int rank) {
    std::size_t seen = 0;
    while (true) {
      const std::function<Status(int)>* task = nullptr;
      {
        std::unique_lock lock(mutex_);
        work_.wait(lock, [&] { return stopping_ || generation_ != seen; });
        if (stopping_) return;
        seen = generation_;
        task = task_;
      }
      Status result = (*task)(rank);
      // Others may be waiting for this replica in a collective it will now never join.
      if (!result.is_ok()) on_failure_();
      std::lock_guard lock(mutex_);
      results_[static_cast<std::size_t>(rank)] = std::move(result);
      if (--pending_ == 0) done_.notify_all();
    }
  }

  std::function<void()> on_failure_;
  std::mutex mutex_;
  std::condition_variable work_, done_;
  const std::function<Status(int)>* task_ = nullptr;
  std::size_t generation_ = 0;
  int pending_ = 0;
  bool stopping_ = false;
  std::vector<Status> results_;
  std::vector<std::thread> threads_;
};

struct DataParallelTrainer::Replica {
  std::unique_ptr<compute::Device> device;
  std::unique_ptr<MlpTrainer> trainer;
  std::vector<float> stats;  // the epoch's step stats, read back
};

DataParallelTrainer::DataParallelTrainer(TrainingSettings settings, int replicas)
    : settings_(std::move(settings)) {
  for (int r = 0; r < replicas; ++r) replicas_.push_back(std::make_unique<Replica>());
  barrier_ = std::make_unique<AbortableBarrier>(replicas);
  threads_ = std::make_unique<Threads>(replicas, [this] {
    if (all_reduce_) all_reduce_->abort();
    barrier_->abort();
  });
}

DataParallelTrainer::~DataParallelTrainer() {
  // Each replica lets go of its communicator and its memory on its own thread (its own GPU).
  if (threads_) {
    (void)threads_->run([this](int rank) {
      Replica& replica = *replicas_[static_cast<std::size_t>(rank)];
      replica.trainer.reset();
      if (all_reduce_) all_reduce_->leave(rank);
      replica.device.reset();
      return Status::ok();
    });
    threads_.reset();
  }
}

Result<std::unique_ptr<DataParallelTrainer>> DataParallelTrainer::create(
    const TrainingSettings& settings, int replicas, const ReplicaDeviceFactory& make_device,
    const AllReduceFactory& make_all_reduce) {
  if (replicas < 1 || replicas > 64) {
    return invalid_argument("data parallel over 1 to 64 replicas, not " + std::to_string(replicas));
  }
  if (settings.batch < replicas) {
    return invalid_argument("a batch of " + std::to_string(settings.batch) +
                            " cannot be shared by " + std::to_string(replicas) +
                            " replicas: give each at least one example");
  }
  std::unique_ptr<DataParallelTrainer> trainer(new DataParallelTrainer(settings, replicas));
  if (replicas > 1) {
    auto all_reduce = make_all_reduce(replicas);
    if (!all_reduce) return all_reduce.error();
    trainer->all_reduce_ = std::move(*all_reduce);
  }
  const Status ran = trainer->on_every_replica([&](int rank) -> Status {
    Replica& replica = *trainer->replicas_[static_cast<std::size_t>(rank)];
    auto device = make_device(rank);
    if (!device) return device.error();
    replica.device = std::move(*device);
    auto made = MlpTrainer::create(*replica.device, settings);
    if (!made) return made.error();
    replica.trainer = std::move(*made);
    return Status::ok();
  });
  TL_RETURN_IF_ERROR(ran);
  // Joining waits for every replica (NCCL's ranks meet in ncclCommInitRank): only once all have
  // their device, or one that failed would leave the others waiting.
  if (trainer->all_reduce_) {
    const Status joined = trainer->on_every_replica([&](int rank) -> Status {
      return trainer->all_reduce_->join(
          rank, *trainer->replicas_[static_cast<std::size_t>(rank)]->device);
    });
    TL_RETURN_IF_ERROR(joined);
  }
  return trainer;
}

Status DataParallelTrainer::on_every_replica(const std::function<Status(int rank)>& task) {
  return threads_->run(task);
}

int DataParallelTrainer::replicas() const {
  return static_cast<int>(replicas_.size());
}
const MlpShape& DataParallelTrainer::shape() const {
  return replicas_[0]->trainer->shape();
}
const TrainingData& DataParallelTrainer::data() const {
  return replicas_[0]->trainer->data();
}
int DataParallelTrainer::steps_per_epoch() const {
  return replicas_[0]->trainer->steps_per_epoch();
}
std::string DataParallelTrainer::device_name(int rank) const {
  return replicas_[static_cast<std::size_t>(rank)]->device->info().name;
}
std::string DataParallelTrainer::all_reduce_name() const {
  return all_reduce_ ? all_reduce_->name() : "none (one replica)";
}
std::size_t DataParallelTrainer::gradient_bytes() const {
  return shape().parameter_count() * sizeof(float);
}

// One step of one replica on its share of the batch [first, first + rows).
Status DataParallelTrainer::step(Replica& replica, int rank, int first, int rows,
                                 float* stats_slot) {
  MlpTrainer& t = *replica.trainer;
  const BatchShare share = batch_share(rows, replicas(), rank);
  if (share.rows > 0) {
    const int from = first + share.first;
    TL_RETURN_IF_ERROR(t.forward_and_loss(t.batch_inputs(from), t.batch_labels(from), share.rows,
                                          stats_slot, rows));
    TL_RETURN_IF_ERROR(t.backward(t.batch_inputs(from), share.rows));
  } else {  // a last batch smaller than the replica count: this one adds nothing
    TL_RETURN_IF_ERROR(t.zero_gradients());
    TL_RETURN_IF_ERROR(replica.device->fill_zero(stats_slot, 2 * sizeof(float)));
  }
  if (all_reduce_) {
    TL_RETURN_IF_ERROR(
        all_reduce_->sum(rank, t.gradients_on_device(), t.shape().parameter_count()));
  }
  TL_RETURN_IF_ERROR(t.update());
  t.count_step();
  return Status::ok();
}

Result<EpochSummary> DataParallelTrainer::train_epoch() {
  const auto started = std::chrono::steady_clock::now();
  const int steps = steps_per_epoch(), count = data().count(), batch = settings_.batch;
  const Status ran = on_every_replica([&](int rank) -> Status {
    Replica& replica = *replicas_[static_cast<std::size_t>(rank)];
    MlpTrainer& t = *replica.trainer;
    TL_RETURN_IF_ERROR(t.upload_shuffled_epoch());
    for (int s = 0; s < steps; ++s) {
      const int first = s * batch, rows = std::min(batch, count - first);
      TL_RETURN_IF_ERROR(step(replica, rank, first, rows, t.step_stats(s)));
    }
    replica.stats.resize(2 * static_cast<std::size_t>(steps));
    TL_RETURN_IF_ERROR(replica.device->copy_to_host(replica.stats.data(), t.step_stats(0),
                                                    replica.stats.size() * sizeof(float)));
    return replica.device->synchronize();
  });
  TL_RETURN_IF_ERROR(ran);
  ++epochs_done_;
  EpochSummary summary;
  summary.epoch = epochs_done_;
  double correct = 0;
  for (int s = 0; s < steps; ++s) {
    const int rows = std::min(batch, count - s * batch);
    double loss = 0;
    for (int r = 0; r < replicas(); ++r) {
      const std::vector<float>& stats = replicas_[static_cast<std::size_t>(r)]->stats;
      const int share = batch_share(rows, replicas(), r).rows;
      if (share > 0) loss += static_cast<double>(stats[2 * s]) * share / rows;
      correct += stats[2 * s + 1];
    }
    TL_RETURN_IF_ERROR(
        check_step_loss(settings_, loss, steps_done_ + s + 1, epochs_done_, s + 1, steps));
    step_losses_.push_back(loss);
    summary.train_loss += loss;
  }
  steps_done_ += steps;
  summary.steps = steps_done_;
  summary.train_loss /= steps;
  summary.train_accuracy = correct / count;
  auto evaluation = evaluate();
  if (!evaluation) return evaluation.error();
  summary.loss = evaluation->loss;
  summary.accuracy = evaluation->accuracy;
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  summary.seconds = seconds_;
  return summary;
}

Result<Evaluation> DataParallelTrainer::evaluate() {
  Evaluation evaluation;
  const Status ran = on_every_replica([&](int rank) -> Status {
    if (rank != 0) return Status::ok();
    auto result = replicas_[0]->trainer->evaluate();
    if (!result) return result.error();
    evaluation = *result;
    return Status::ok();
  });
  TL_RETURN_IF_ERROR(ran);
  return evaluation;
}

Result<std::vector<float>> DataParallelTrainer::probabilities(std::span<const float> points) {
  std::vector<float> probabilities;
  const Status ran = on_every_replica([&](int rank) -> Status {
    if (rank != 0) return Status::ok();
    auto result = replicas_[0]->trainer->probabilities(points);
    if (!result) return result.error();
    probabilities = std::move(*result);
    return Status::ok();
  });
  TL_RETURN_IF_ERROR(ran);
  return probabilities;
}

Result<std::vector<float>> DataParallelTrainer::parameters(int rank) {
  std::vector<float> params;
  const Status ran = on_every_replica([&](int r) -> Status {
    if (r != rank) return Status::ok();
    auto result = replicas_[static_cast<std::size_t>(r)]->trainer->parameters();
    if (!result) return result.error();
    params = std::move(*result);
    return Status::ok();
  });
  TL_RETURN_IF_ERROR(ran);
  return params;
}

Result<MlpTrainer::Gradients> DataParallelTrainer::gradients(int rows, int rank) {
  if (rows < replicas()) {
    return invalid_argument("gradients over " + std::to_string(rows) +
                            " rows cannot be shared by " + std::to_string(replicas()) +
                            " replicas");
  }
  std::vector<double> losses(replicas_.size());
  MlpTrainer::Gradients kept;
  const Status ran = on_every_replica([&](int r) -> Status {
    const BatchShare share = batch_share(rows, replicas(), r);
    const auto combine = [&](float* gradients, std::size_t count) -> Status {
      return all_reduce_ ? all_reduce_->sum(r, gradients, count) : Status::ok();
    };
    auto result = replicas_[static_cast<std::size_t>(r)]->trainer->gradients(rows, share.first,
                                                                             share.rows, combine);
    if (!result) return result.error();
    losses[static_cast<std::size_t>(r)] = result->loss * share.rows / rows;
    if (r == rank) kept = std::move(*result);
    return Status::ok();
  });
  TL_RETURN_IF_ERROR(ran);
  kept.loss = 0;
  for (double loss : losses) kept.loss += loss;
  return kept;
}

Result<DataParallelTrainer::StepTiming> DataParallelTrainer::time_steps(int warmup, int repeats) {
  std::vector<StepTiming> timings(replicas_.size());
  const int rows = std::min(settings_.batch, data().count());
  const Status ran = on_every_replica([&](int rank) -> Status {
    Replica& replica = *replicas_[static_cast<std::size_t>(rank)];
    MlpTrainer& t = *replica.trainer;
    compute::Device& device = *replica.device;
    const auto clock = [] { return std::chrono::steady_clock::now(); };
    const auto ms = [](auto from, auto to) {
      return std::chrono::duration<double, std::milli>(to - from).count();
    };
    const auto released = [] {
      return Error{ErrorKind::kCancelled, "the timing was abandoned: another replica failed"};
    };
    for (int i = 0; i < warmup; ++i)
      TL_RETURN_IF_ERROR(step(replica, rank, 0, rows, t.step_stats(0)));
    TL_RETURN_IF_ERROR(device.synchronize());
    if (!barrier_->arrive_and_wait()) return released();
    auto start = clock();
    for (int i = 0; i < repeats; ++i)
      TL_RETURN_IF_ERROR(step(replica, rank, 0, rows, t.step_stats(0)));
    TL_RETURN_IF_ERROR(device.synchronize());
    StepTiming& mine = timings[static_cast<std::size_t>(rank)];
    mine.step_ms = ms(start, clock()) / repeats;
    if (!all_reduce_) return Status::ok();
    if (!barrier_->arrive_and_wait()) return released();
    start = clock();
    for (int i = 0; i < repeats; ++i) {
      TL_RETURN_IF_ERROR(
          all_reduce_->sum(rank, t.gradients_on_device(), t.shape().parameter_count()));
    }
    TL_RETURN_IF_ERROR(device.synchronize());
    mine.all_reduce_ms = ms(start, clock()) / repeats;
    return Status::ok();
  });
  TL_RETURN_IF_ERROR(ran);
  StepTiming slowest;
  for (const StepTiming& timing : timings) {
    slowest.step_ms = std::max(slowest.step_ms, timing.step_ms);
    slowest.all_reduce_ms = std::max(slowest.all_reduce_ms, timing.all_reduce_ms);
  }
  return slowest;
}

// ---- scaling ----

Result<ScalingReport> measure_scaling(const TrainingSettings& settings, int replicas,
                                      const ReplicaDeviceFactory& make_device,
                                      const AllReduceFactory& make_all_reduce, int repeats) {
  ScalingReport report;
  report.batch = settings.batch;
  for (int n = 1; n <= replicas; ++n) {
    auto trainer = DataParallelTrainer::create(settings, n, make_device, make_all_reduce);
    if (!trainer) return trainer.error();
    DataParallelTrainer& t = **trainer;
    auto timing = t.time_steps(std::max(3, repeats / 5), repeats);
    if (!timing) return timing.error();
    ScalingPoint point;
    point.replicas = n;
    for (int r = 0; r < n; ++r) point.shares.push_back(batch_share(settings.batch, n, r).rows);
    point.step_ms = timing->step_ms;
    point.all_reduce_ms = timing->all_reduce_ms;
    point.samples_per_second = point.step_ms > 0 ? settings.batch / (point.step_ms / 1000) : 0;
    const double one = report.points.empty() ? point.step_ms : report.points.front().step_ms;
    point.speedup = point.step_ms > 0 ? one / point.step_ms : 0;
    point.efficiency = point.speedup / n;
    report.points.push_back(point);
    if (n == replicas) {
      for (int r = 0; r < n; ++r) report.devices.push_back(t.device_name(r));
      report.all_reduce = t.all_reduce_name();
      report.network = t.shape().to_string();
      report.gradient_bytes = t.gradient_bytes();
    }
  }
  return report;
}

double ring_bytes_per_replica(std::size_t bytes, int replicas) {
  return replicas > 1 ? 2.0 * (replicas - 1) / replicas * static_cast<double>(bytes) : 0.0;
}

namespace {

std::string shares_text(const std::vector<int>& shares, const char* separator) {
  std::string text;
  for (std::size_t i = 0; i < shares.size(); ++i) {
    text += (i == 0 ? "" : separator) + std::to_string(shares[i]);
  }
  return text;
}

}  // namespace

std::string scaling_table(const ScalingReport& report) {
  std::string text;
  char line[256];
  std::snprintf(line, sizeof line,
                "data parallel: network %s, global batch %d, all-reduce of %zu bytes of "
                "gradients by %s\n",
                report.network.c_str(), report.batch, report.gradient_bytes,
                report.all_reduce.c_str());
  text += line;
  for (std::size_t r = 0; r < report.devices.size(); ++r) {
    text += "  GPU " + std::to_string(r) + ": " + report.devices[r] + "\n";
  }
  text +=
      "gpus  share per GPU (samples)  step ms  all-reduce ms  ring bytes/GPU  samples/s  "
      "speedup  ideal  efficiency\n";
  for (const ScalingPoint& p : report.points) {
    std::snprintf(line, sizeof line,
                  "%4d  %-25s  %7.4f  %13.4f  %14.0f  %9.4g  %7.2f  %5d  %9.0f %%\n", p.replicas,
                  shares_text(p.shares, "+").c_str(), p.step_ms, p.all_reduce_ms,
                  ring_bytes_per_replica(report.gradient_bytes, p.replicas), p.samples_per_second,
                  p.speedup, p.replicas, 100.0 * p.efficiency);
    text += line;
  }
  text +=
      "(step and all-reduce: wall clock per step over the timed repeats, the slowest GPU's; ring "
      "bytes: 2(N-1)/N of the gradients, what each GPU sends in a ring all-reduce, a rule of "
      "thumb)\n";
  return text;
}

std::string scaling_csv(const ScalingReport& report) {
  std::string text =
      "gpus,shares,batch,step_ms,all_reduce_ms,all_reduce_bytes,ring_bytes_per_gpu,samples_per_s,"
      "speedup,ideal_speedup,efficiency\n";
  char line[256];
  for (const ScalingPoint& p : report.points) {
    std::snprintf(line, sizeof line, "%d,%s,%d,%.6f,%.6f,%zu,%.0f,%.6g,%.4f,%d,%.4f\n", p.replicas,
                  shares_text(p.shares, ";").c_str(), report.batch, p.step_ms, p.all_reduce_ms,
                  p.replicas > 1 ? report.gradient_bytes : std::size_t{0},
                  ring_bytes_per_replica(report.gradient_bytes, p.replicas), p.samples_per_second,
                  p.speedup, p.replicas, p.efficiency);
    text += line;
  }
  return text;
}

std::string scaling_json(const ScalingReport& report) {
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  for (const ScalingPoint& p : report.points) {
    points.push_back({{"gpus", p.replicas},
                      {"shares", p.shares},
                      {"step_ms", p.step_ms},
                      {"all_reduce_ms", p.all_reduce_ms},
                      {"ring_bytes_per_gpu",
                       std::round(ring_bytes_per_replica(report.gradient_bytes, p.replicas))},
                      {"samples_per_s", p.samples_per_second},
                      {"speedup", p.speedup},
                      {"ideal_speedup", p.replicas},
                      {"efficiency", p.efficiency}});
  }
  const nlohmann::ordered_json document = {
      {"network", report.network},       {"batch", report.batch},
      {"all_reduce", report.all_reduce}, {"gradient_bytes", report.gradient_bytes},
      {"devices", report.devices},       {"points", std::move(points)}};
  // A device name that is not UTF-8 is replaced, never a thrown exception in the middle of output.
  return document.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

// ---- devices and all-reduces ----

int visible_gpus() {
#if defined(THREADLAB_HAVE_CUDA)
  return cuda_gpu_count();
#else
  return 0;
#endif
}

Status gpu_data_parallel_available(int gpus) {
  if (gpus < 2) {
    return invalid_argument("data parallel needs at least 2 GPUs, not " + std::to_string(gpus));
  }
#if !defined(THREADLAB_HAVE_CUDA)
  return Error{ErrorKind::kNoDevice,
               "data parallel on GPUs needs CUDA, and this ThreadLab was built without it"};
#else
  const int have = visible_gpus();
  if (have < gpus) {
    return Error{ErrorKind::kNoDevice, "data parallel on " + std::to_string(gpus) + " GPUs needs " +
                                           std::to_string(gpus) + " CUDA GPUs; this machine has " +
                                           std::to_string(have)};
  }
  auto nccl = NcclLibrary::load();
  if (!nccl) return nccl.error();
  return Status::ok();
#endif
}

ReplicaDeviceFactory gpu_replica_devices() {
  return [](int rank) -> Result<std::unique_ptr<compute::Device>> {
#if defined(THREADLAB_HAVE_CUDA)
    TL_RETURN_IF_ERROR(use_gpu_on_this_thread(rank));
#endif
    return compute::make_cuda_device(rank);
  };
}

AllReduceFactory nccl_all_reduces() {
  return [](int replicas) -> Result<std::unique_ptr<GradientAllReduce>> {
#if defined(THREADLAB_HAVE_CUDA)
    return make_nccl_all_reduce(replicas);
#else
    (void)replicas;
    return Error{ErrorKind::kNoDevice, "NCCL needs CUDA, and this ThreadLab was built without it"};
#endif
  };
}

ReplicaDeviceFactory emulator_replica_devices() {
  return [](int) -> Result<std::unique_ptr<compute::Device>> {
    return compute::make_emulator_device();
  };
}

AllReduceFactory host_all_reduces() {
  return [](int replicas) -> Result<std::unique_ptr<GradientAllReduce>> {
    return std::unique_ptr<GradientAllReduce>(new HostAllReduce(replicas));
  };
}

}  // namespace tl::lessons
