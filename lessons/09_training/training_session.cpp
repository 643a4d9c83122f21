#include "training_session.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "training_picture.hpp"

namespace tl::lessons {

std::string_view to_string(TrainingPhase phase) {
  switch (phase) {
    case TrainingPhase::kPreparing:
      return "preparing";
    case TrainingPhase::kPaused:
      return "paused";
    case TrainingPhase::kRunning:
      return "training";
    case TrainingPhase::kDiverged:
      return "diverged";
    case TrainingPhase::kFailed:
      return "failed";
  }
  return "?";
}

void CurveRecorder::add(std::int64_t step, double value) {
  if (added_ % stride_ == 0) points_.push_back({step, value});
  ++added_;
  if (points_.size() >= kMaxCurvePoints) {
    // Keep the points whose index among all added is a multiple of twice the stride: every other
    // one kept so far, the first included.
    std::size_t kept = 0;
    for (std::size_t i = 0; i < points_.size(); i += 2) points_[kept++] = points_[i];
    points_.resize(kept);
    stride_ *= 2;
  }
}

struct TrainingSession::Worker {
  TrainingSettings settings;
  std::unique_ptr<MlpTrainer> trainer;
  std::shared_ptr<const TrainingData> data;
  compute::DeviceArray<float> grid;  // the boundary's points, on the device
  CurveRecorder batch_loss, batch_accuracy, loss, accuracy;
  LayerWeights first_layer;
  std::int64_t boundary_step = -1;
  std::int64_t refreshed_step = -1;
  double seconds = 0;
  std::string error;
  std::int64_t error_step = 0;
};

TrainingSession::TrainingSession(compute::Device& device, TrainingSessionOptions options)
    : device_(device), options_(options), worker_(std::make_unique<Worker>()) {
  snapshot_ = std::make_shared<const TrainingSnapshot>();
}

TrainingSession::~TrainingSession() {
  runner_.cancel();
  runner_.wait();
}

Status TrainingSession::reset(const TrainingSettings& settings) {
  {
    std::lock_guard lock(mutex_);
    pending_reset_ = settings;
    pending_train_.reset();
    phase_ = TrainingPhase::kPreparing;  // steps asked for from now on train the new network
  }
  runner_.cancel();  // the steps running now belong to the network being replaced
  return Status::ok();
}

Status TrainingSession::start() {
  return step(0);
}

Status TrainingSession::step(int count) {
  if (count < 0) return invalid_argument("steps: a positive count, not " + std::to_string(count));
  std::lock_guard lock(mutex_);
  if (phase_ == TrainingPhase::kDiverged || phase_ == TrainingPhase::kFailed) {
    return invalid_argument("training stopped (" + std::string(to_string(phase_)) +
                            "): reset first");
  }
  if (job_trains_ && runner_.is_running()) {
    return invalid_argument("training is running: pause it first");
  }
  pending_train_ = count;
  return Status::ok();
}

void TrainingSession::pause() {
  bool cancel = false;
  {
    std::lock_guard lock(mutex_);
    pending_train_.reset();
    cancel = job_trains_;
  }
  if (cancel) runner_.cancel();
}

void TrainingSession::update() {
  if (runner_.is_running()) return;
  (void)runner_.take_new_points();
  (void)runner_.take_new_failures();
  std::optional<TrainingSettings> reset_with;
  std::optional<int> train_steps;
  bool refresh_boundary = false;
  {
    std::lock_guard lock(mutex_);
    job_trains_ = false;
    if (pending_reset_) {
      reset_with = std::move(pending_reset_);
      pending_reset_.reset();
    } else if (pending_train_) {
      train_steps = pending_train_;
      pending_train_.reset();
    } else {
      // Paused with an offer the last refresh did not fill (it came later): fill it now.
      refresh_boundary = boundary_destination_ != nullptr && !boundary_written_ &&
                         phase_ == TrainingPhase::kPaused &&
                         snapshot_->boundary_step != snapshot_->steps;
    }
  }
  if (reset_with) {
    (void)start_job(JobKind::kReset, 0, std::move(*reset_with));
  } else if (train_steps) {
    (void)start_job(JobKind::kTrain, *train_steps, {});
  } else if (refresh_boundary) {
    (void)start_job(JobKind::kRefresh, 0, {});
  }
}

bool TrainingSession::running() const {
  return runner_.is_running();
}

bool TrainingSession::busy() const {
  std::lock_guard lock(mutex_);
  return runner_.is_running() || pending_reset_.has_value() || pending_train_.has_value();
}

void TrainingSession::wait_until_idle() {
  while (true) {
    update();
    if (!runner_.is_running()) {
      std::lock_guard lock(mutex_);
      if (!pending_reset_ && !pending_train_) return;
      continue;
    }
    runner_.wait();
  }
}

void TrainingSession::stop() {
  {
    std::lock_guard lock(mutex_);
    pending_train_.reset();
  }
  runner_.cancel();
  runner_.wait();
}

std::shared_ptr<const TrainingSnapshot> TrainingSession::snapshot() const {
  std::lock_guard lock(mutex_);
  return snapshot_;
}

void TrainingSession::offer_boundary(float* destination, std::size_t floats) {
  std::lock_guard lock(mutex_);
  boundary_destination_ = destination;
  boundary_floats_ = floats;
  boundary_written_ = false;
}

bool TrainingSession::take_boundary_written() {
  std::lock_guard lock(mutex_);
  if (!boundary_written_) return false;
  boundary_written_ = false;
  boundary_destination_ = nullptr;
  return true;
}

void TrainingSession::withdraw_boundary() {
  std::unique_lock lock(mutex_);
  boundary_done_.wait(lock, [this] { return !boundary_writing_; });
  boundary_destination_ = nullptr;
  boundary_written_ = false;
}

Status TrainingSession::start_job(JobKind kind, int steps, TrainingSettings settings) {
  {
    std::lock_guard lock(mutex_);
    job_trains_ = kind == JobKind::kTrain;
    if (kind == JobKind::kReset) phase_ = TrainingPhase::kPreparing;
  }
  SweepJob job;
  job.label = kind == JobKind::kReset ? "preparing the network" : "training";
  job.run = [this, kind, steps, settings = std::move(settings)](
                const std::atomic<bool>& cancel) -> Result<SweepPoint> {
    run_job(kind, steps, settings, cancel);
    return SweepPoint{};
  };
  std::vector<SweepJob> jobs;
  jobs.push_back(std::move(job));
  return runner_.start(std::move(jobs));
}

void TrainingSession::run_job(JobKind kind, int steps, const TrainingSettings& settings,
                              const std::atomic<bool>& cancel) {
  Worker& w = *worker_;
  if (kind == JobKind::kReset) {
    w = Worker{};
    w.settings = settings;
    auto trainer = MlpTrainer::create(device_, settings);
    if (!trainer) {
      w.error = trainer.message();
      publish(TrainingPhase::kFailed);
      return;
    }
    w.trainer = std::move(*trainer);
    w.data = std::make_shared<const TrainingData>(w.trainer->data());
    if (w.data->planar()) {
      const std::vector<float> points = boundary_points(options_.boundary_side);
      auto grid = compute::allocate_array<float>(device_, points.size());
      Status copied = grid ? device_.copy_to_device(grid->data(), points.data(), grid->bytes())
                           : Status(grid.error());
      if (!copied) {
        w.error = "the boundary's grid: " + copied.message();
        publish(TrainingPhase::kFailed);
        return;
      }
      w.grid = std::move(*grid);
    }
  }
  if (!w.trainer) return;  // a refresh or steps after a failed reset: nothing to do
  if (kind == JobKind::kTrain) {
    train(steps, cancel);
    return;
  }
  if (const Status refreshed = refresh(); !refreshed) {
    w.error = refreshed.message();
    publish(TrainingPhase::kFailed);
    return;
  }
  publish(TrainingPhase::kPaused);
}

void TrainingSession::train(int steps, const std::atomic<bool>& cancel) {
  Worker& w = *worker_;
  publish(TrainingPhase::kRunning);
  std::int64_t left = steps > 0 ? steps : std::numeric_limits<std::int64_t>::max();
  while (left > 0 && !cancel.load()) {
    const int chunk = static_cast<int>(std::min<std::int64_t>(left, options_.steps_per_chunk));
    const auto began = std::chrono::steady_clock::now();
    auto stats = w.trainer->train_steps(chunk);
    w.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    if (!stats) {
      const bool diverged = stats.error().kind == ErrorKind::kInvalidArgument;
      w.error = stats.message();
      w.error_step = diverged ? w.trainer->steps_done() + 1 : 0;
      publish(diverged ? TrainingPhase::kDiverged : TrainingPhase::kFailed);
      return;
    }
    std::int64_t step = w.trainer->steps_done() - static_cast<std::int64_t>(stats->size());
    for (const MlpTrainer::StepStats& s : *stats) {
      ++step;
      w.batch_loss.add(step, s.loss);
      w.batch_accuracy.add(step, s.accuracy);
    }
    left -= static_cast<std::int64_t>(stats->size());
    if (w.trainer->steps_done() - w.refreshed_step >= options_.refresh_every) {
      if (const Status refreshed = refresh(); !refreshed) {
        w.error = refreshed.message();
        publish(TrainingPhase::kFailed);
        return;
      }
    }
    publish(TrainingPhase::kRunning);
  }
  if (w.refreshed_step != w.trainer->steps_done()) {
    if (const Status refreshed = refresh(); !refreshed) {
      w.error = refreshed.message();
      publish(TrainingPhase::kFailed);
      return;
    }
  }
  publish(TrainingPhase::kPaused);
}

Status TrainingSession::refresh() {
  Worker& w = *worker_;
  MlpTrainer& trainer = *w.trainer;
  const std::int64_t step = trainer.steps_done();
  // Already measured at this step (a refresh for a boundary offered late): only the boundary.
  if (w.refreshed_step != step) TL_RETURN_IF_ERROR(measure());
  return write_boundary();
}

Status TrainingSession::measure() {
  Worker& w = *worker_;
  MlpTrainer& trainer = *w.trainer;
  const std::int64_t step = trainer.steps_done();
  auto evaluation = trainer.evaluate();
  if (!evaluation) return evaluation.error();
  w.loss.add(step, evaluation->loss);
  w.accuracy.add(step, evaluation->accuracy);

  auto params = trainer.parameters();
  if (!params) return params.error();
  const MlpShape& shape = trainer.shape();
  LayerWeights& layer = w.first_layer;
  layer.neurons = shape.widths[1];
  layer.inputs = shape.widths[0];
  layer.weights.assign(static_cast<std::size_t>(layer.neurons) * layer.inputs, 0.0f);
  layer.biases.assign(static_cast<std::size_t>(layer.neurons), 0.0f);
  layer.largest_magnitude = 0;
  const std::size_t columns = static_cast<std::size_t>(layer.inputs) + 1;  // weights, then bias
  for (int n = 0; n < layer.neurons; ++n) {
    for (int i = 0; i <= layer.inputs; ++i) {
      const float value = (*params)[shape.layer_offset(0) + n * columns + i];
      if (i < layer.inputs) {
        layer.weights[static_cast<std::size_t>(n) * layer.inputs + i] = value;
      } else {
        layer.biases[n] = value;
      }
      if (std::isfinite(value)) {
        layer.largest_magnitude = std::max(layer.largest_magnitude, std::abs(value));
      }
    }
  }
  w.refreshed_step = step;
  return Status::ok();
}

Status TrainingSession::write_boundary() {
  Worker& w = *worker_;
  MlpTrainer& trainer = *w.trainer;
  const MlpShape& shape = trainer.shape();
  const std::int64_t step = trainer.steps_done();
  // Into the destination the UI offered, if any (none for images: they are not in a plane).
  if (!w.data->planar()) return Status::ok();
  const std::size_t points = static_cast<std::size_t>(options_.boundary_side) *
                             static_cast<std::size_t>(options_.boundary_side);
  float* destination = nullptr;
  {
    std::lock_guard lock(mutex_);
    if (boundary_destination_ != nullptr && !boundary_written_ &&
        boundary_floats_ >= points * static_cast<std::size_t>(shape.classes())) {
      destination = boundary_destination_;
      boundary_writing_ = true;
    }
  }
  if (destination == nullptr) return Status::ok();
  Status written = trainer.probabilities_on_device(w.grid.data(), points, destination);
  if (written) written = device_.synchronize();  // finished before the UI publishes it
  {
    std::lock_guard lock(mutex_);
    boundary_writing_ = false;
    boundary_written_ = written.is_ok();
  }
  boundary_done_.notify_all();
  if (written) w.boundary_step = step;
  return written;
}

void TrainingSession::publish(TrainingPhase phase) {
  const Worker& w = *worker_;
  auto snapshot = std::make_shared<TrainingSnapshot>();
  snapshot->phase = phase;
  snapshot->settings = w.settings;
  if (w.trainer) {
    snapshot->network = w.trainer->shape().to_string();
    snapshot->steps = w.trainer->steps_done();
    snapshot->epochs = w.trainer->epochs_done();
    snapshot->steps_per_epoch = w.trainer->steps_per_epoch();
  }
  snapshot->seconds = w.seconds;
  snapshot->batch_loss = w.batch_loss.points();
  snapshot->batch_accuracy = w.batch_accuracy.points();
  snapshot->loss = w.loss.points();
  snapshot->accuracy = w.accuracy.points();
  snapshot->first_layer = w.first_layer;
  snapshot->data = w.data;
  snapshot->boundary_step = w.boundary_step;
  snapshot->error = w.error;
  snapshot->error_step = w.error_step;
  std::lock_guard lock(mutex_);
  snapshot->version = ++version_;
  phase_ = phase;
  snapshot_ = std::move(snapshot);
}

}  // namespace tl::lessons
