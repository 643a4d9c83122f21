#pragma once
// Training in the background for the window's live views: one MlpTrainer on the app's device,
// stepped on the background thread of a SweepRunner (the machinery of the app's sweeps: one thread,
// a cancel flag polled between steps), so the frame never waits for a step. The UI thread gives
// commands (start, pause, step N, reset with new settings) and takes snapshots: plain data built on
// the worker and handed over whole under a brief lock, never shared while it is being written.
//
// The decision boundary is written by the network itself: the UI thread offers a destination of
// side² × classes floats that the device's kernels can write (a mapped OpenGL buffer on a GPU with
// interop, device memory on the copy path, host memory on the emulator), the worker evaluates the
// grid's points into it at its next refresh and says so, and the UI publishes it. No GL here.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "compute/device.hpp"
#include "core/sweep/sweep_runner.hpp"
#include "mlp_trainer.hpp"

namespace tl::lessons {

enum class TrainingPhase {
  kPreparing,  // the network is being made (after a reset)
  kPaused,     // ready: Start or Step
  kRunning,
  kDiverged,  // the loss became NaN, infinite or exploded: Reset recovers
  kFailed,    // the settings were refused or the device failed: change them and Reset
};
std::string_view to_string(TrainingPhase phase);

// One point of a curve: the step it was taken after, and the value.
struct CurvePoint {
  std::int64_t step = 0;
  double value = 0;
};

// Keeps at most kMaxCurvePoints points of a curve that grows by one per step: when full, every
// other point goes and only every 2nd (then 4th, ...) step is kept, so a long run still shows its
// whole history at an even spacing.
class CurveRecorder {
 public:
  static constexpr std::size_t kMaxCurvePoints = 2048;
  void add(std::int64_t step, double value);
  [[nodiscard]] const std::vector<CurvePoint>& points() const { return points_; }
  [[nodiscard]] std::int64_t stride() const { return stride_; }

 private:
  std::vector<CurvePoint> points_;
  std::int64_t stride_ = 1;
  std::int64_t added_ = 0;
};

// The first layer's weights: neurons × inputs, row-major (the biases apart).
struct LayerWeights {
  int neurons = 0;
  int inputs = 0;
  std::vector<float> weights;
  std::vector<float> biases;
  float largest_magnitude = 0;  // over weights and biases: the colour scale's ends are ±this
};

struct TrainingSnapshot {
  std::uint64_t version = 0;  // grows with every snapshot the worker publishes
  TrainingPhase phase = TrainingPhase::kPreparing;
  TrainingSettings settings;  // what the current network was made with
  std::string network;        // "2,32,32,2"
  std::int64_t steps = 0;
  int epochs = 0;
  int steps_per_epoch = 0;
  double seconds = 0;  // spent training (the steps only, not pauses)
  // Per step: the batch's loss and accuracy as it trained; every refresh: the whole data set's.
  std::vector<CurvePoint> batch_loss, batch_accuracy, loss, accuracy;
  LayerWeights first_layer;
  std::shared_ptr<const TrainingData> data;  // the points, for drawing over the boundary
  std::int64_t boundary_step = -1;           // the step the last written boundary shows
  std::string error;                         // why it stopped (kDiverged, kFailed)
  std::int64_t error_step = 0;               // the step whose loss diverged
};

struct TrainingSessionOptions {
  int boundary_side = 128;  // the boundary grid's points per side
  int refresh_every =
      10;  // steps between refreshes (the data set's loss, the weights, the boundary)
  // The longest run of steps between two looks at the cancel flag.
  int steps_per_chunk = 10;
};

class TrainingSession {
 public:
  // `device` must outlive the session. Nothing runs until reset().
  explicit TrainingSession(compute::Device& device, TrainingSessionOptions options = {});
  // Cancels the work and waits for it.
  ~TrainingSession();
  TrainingSession(const TrainingSession&) = delete;
  TrainingSession& operator=(const TrainingSession&) = delete;

  // Commands (the UI thread). Each returns at once, and starts with the next update(); an error
  // says why it was refused.
  // A new network from `settings` (and their seed): the running steps stop first.
  Status reset(const TrainingSettings& settings);
  Status start();  // steps until paused or diverged
  void pause();
  Status step(int count);  // `count` steps, then pauses

  // Once per frame (the UI thread): starts what waited for the worker to be free (a reset after a
  // pause, a boundary refresh while paused).
  void update();
  // Blocks until the worker is idle and nothing waits (tests, scripted runs); with Start pressed,
  // until it is paused.
  void wait_until_idle();
  // Drops the commands not yet started, cancels the running one and waits for it (before the
  // device is reset, or the app moves on).
  void stop();
  // A command is running or waiting to.
  [[nodiscard]] bool busy() const;
  // A command is running: the background thread uses the device.
  [[nodiscard]] bool running() const;

  // The newest snapshot (never null), shared: the worker never writes it again.
  [[nodiscard]] std::shared_ptr<const TrainingSnapshot> snapshot() const;
  [[nodiscard]] const TrainingSessionOptions& options() const { return options_; }

  // The boundary's destination (the UI thread): `floats` ≥ side² × classes, writable by the
  // device's kernels until boundary_written() says so; the worker fills it at its next refresh.
  void offer_boundary(float* destination, std::size_t floats);
  // Whether the offered destination holds a boundary now (then it is no longer offered).
  [[nodiscard]] bool take_boundary_written();
  // Withdraws an offer not yet filled (before the destination goes away); waits for a refresh
  // that is writing it.
  void withdraw_boundary();

 private:
  struct Worker;  // what the background jobs use: the trainer and its recorders
  enum class JobKind { kReset, kTrain, kRefresh };
  Status start_job(JobKind kind, int steps, TrainingSettings settings);
  void run_job(JobKind kind, int steps, const TrainingSettings& settings,
               const std::atomic<bool>& cancel);
  void train(int steps, const std::atomic<bool>& cancel);
  Status refresh();         // measure() where not done at this step, then write_boundary()
  Status measure();         // the data set's loss and accuracy, the first layer's weights
  Status write_boundary();  // into the offered destination, if any
  void publish(TrainingPhase phase);

  compute::Device& device_;
  TrainingSessionOptions options_;
  std::unique_ptr<Worker> worker_;  // touched only by the job running (and before/after one)

  mutable std::mutex mutex_;  // guards what follows, never held while a step runs
  std::shared_ptr<const TrainingSnapshot> snapshot_;
  std::uint64_t version_ = 0;
  TrainingPhase phase_ = TrainingPhase::kPreparing;
  std::optional<TrainingSettings> pending_reset_;
  std::optional<int> pending_train_;  // steps to run once the worker is free (0: until paused)
  bool job_trains_ = false;           // the running job steps (a pause cancels it)
  std::condition_variable boundary_done_;
  float* boundary_destination_ = nullptr;
  std::size_t boundary_floats_ = 0;
  bool boundary_writing_ = false;
  bool boundary_written_ = false;

  SweepRunner runner_;  // last: joined first, while the state its job uses is alive
};

}  // namespace tl::lessons
