#pragma once
// Training the capstone's network on a Device (a GPU or the emulator) with the kernels of
// lessons/09_training/kernels/mlp.cuh: the data shuffled per epoch on the host and copied over,
// then per batch one forward pass, the loss, the backward pass and the optimizer's update, all on
// the device. The losses of an epoch's steps stay on the device until the epoch ends (reading one
// back after every step would make each step wait for the GPU), then are read together and checked:
// the first step whose loss is NaN, infinite or exploded is named in the error.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "compute/device.hpp"
#include "core/result.hpp"
#include "core/trace_record.hpp"
#include "lessons/09_training/kernels/mlp_kernels.hpp"
#include "mlp_model.hpp"
#include "training_data.hpp"

namespace tl::lessons {

enum class Optimizer { kSgdMomentum, kAdam };

struct TrainingSettings {
  std::string data = "spirals";
  int samples = 2000;  // examples in the data set
  std::string layers = "2,256,256,2";
  int batch = 100;
  double learning_rate = 0.005;
  Optimizer optimizer = Optimizer::kAdam;
  double momentum = 0.9;  // SGD's
  int epochs = 100;
  std::uint64_t seed = 1;
  // Blocks a split product aims for (kernels::mlp_choose_k_split): -1 for the device's choice (two
  // per SM on a GPU, no split on the emulator); the tests force splits on the emulator with it.
  int split_target_blocks = -1;
};
// The emulator's defaults: the same task on a network and data set small enough for the CPU.
TrainingSettings emulator_training_settings();

std::string_view optimizer_name(Optimizer optimizer);  // "sgd" or "adam"
Result<Optimizer> parse_optimizer(std::string_view text);

// A mean cross-entropy above this has left training behind: the right class's probability is
// about e^-10000. Above it, or NaN or infinite, the run has diverged.
inline constexpr double kDivergedLoss = 1e4;

struct EpochSummary {
  int epoch = 0;              // 1-based
  std::int64_t steps = 0;     // steps done since the start
  double train_loss = 0;      // mean of this epoch's step losses
  double train_accuracy = 0;  // correct predictions of this epoch's steps, as they trained
  double loss = 0;            // over the whole data set after the epoch
  double accuracy = 0;        // over the whole data set after the epoch
  double seconds = 0;         // since training started (wall clock)
};

struct Evaluation {
  double loss = 0;
  double accuracy = 0;
};

// The error of a step whose loss is NaN, infinite or above kDivergedLoss (`step` counts from 1
// since the start, `batch` from 1 in the epoch), or OK.
Status check_step_loss(const TrainingSettings& settings, double loss, std::int64_t step, int epoch,
                       int batch, int batches);

// The checks MlpTrainer::create makes of `settings` (the sample count, the data set's name, the
// layers against its inputs and classes, the batch, learning rate, momentum and epochs), without a
// device and without generating the data: a command line refuses its bad values with these before
// it opens anything.
Status validate_training_settings(const TrainingSettings& settings);

class MlpTrainer {
 public:
  // Validates the settings, generates the data set and puts the network on `device`, which must
  // outlive the trainer.
  static Result<std::unique_ptr<MlpTrainer>> create(compute::Device& device,
                                                    const TrainingSettings& settings);
  // The same on given data (the tests' tiny networks): its inputs and classes must match.
  static Result<std::unique_ptr<MlpTrainer>> create(compute::Device& device,
                                                    const TrainingSettings& settings,
                                                    TrainingData data);
  ~MlpTrainer();
  MlpTrainer(const MlpTrainer&) = delete;
  MlpTrainer& operator=(const MlpTrainer&) = delete;

  [[nodiscard]] const TrainingSettings& settings() const { return settings_; }
  [[nodiscard]] const MlpShape& shape() const { return shape_; }
  [[nodiscard]] const TrainingData& data() const { return data_; }
  [[nodiscard]] compute::Device& device() const { return device_; }
  [[nodiscard]] int steps_per_epoch() const;
  [[nodiscard]] std::int64_t steps_done() const { return steps_done_; }
  [[nodiscard]] int epochs_done() const { return epochs_done_; }
  // The most slices any weight gradient is split into at the batch size (1: none).
  [[nodiscard]] int largest_split() const;

  // One epoch: shuffle, a step per batch, the step losses read back and checked, then the whole
  // data set evaluated.
  Result<EpochSummary> train_epoch();
  // The step losses of every step so far (the curve the parity test compares).
  [[nodiscard]] const std::vector<double>& step_losses() const { return step_losses_; }

  Result<Evaluation> evaluate();
  // Class probabilities (count × classes) at `count` points of `inputs()` features each.
  Result<std::vector<float>> probabilities(std::span<const float> points);

  Result<std::vector<float>> parameters();
  Status set_parameters(std::span<const float> params);
  // The loss and the gradients of the mean loss over the first `rows` examples of the data set
  // (in its generated order), with the current parameters; nothing is updated.
  struct Gradients {
    double loss = 0;
    std::vector<float> values;
  };
  Result<Gradients> gradients(int rows);
  // The same for a data parallel replica: the gradients of its share, the examples
  // [share_first, share_first + share_rows) of those `rows`, scaled as the whole batch's mean
  // (share_rows may be 0: zero gradients), then `combine` (the all-reduce; may be empty) on them
  // before they are read. The loss is the share's mean.
  Result<Gradients> gradients(int rows, int share_first, int share_rows,
                              const std::function<Status(float*, std::size_t)>& combine);

  // The pieces of one step, for the timing breakdown (Synchronous on the emulator; on a GPU they
  // are queued and the caller times them with events).
  Status forward(const float* x, int rows);
  // The loss's gradient is that of the mean over `mean_over` examples (0: over `rows`): data
  // parallel replicas each hold a share of a batch and scale by the whole batch, so that the sum
  // of their gradients is the batch's mean gradient. The stats slot gets the mean over `rows`.
  Status loss(const int* labels, int rows, float* stats_slot, int mean_over = 0);
  // forward then loss, as a step runs them: where the output layer is thin (a few classes) its
  // kernel computes the loss terms too, one launch fewer.
  Status forward_and_loss(const float* x, const int* labels, int rows, float* stats_slot,
                          int mean_over = 0);
  Status backward(const float* x, int rows);
  Status update();
  // Data parallel training (data_parallel.hpp) drives the steps itself: the gradients the
  // backward pass writes (parameter_count() floats on the device), zeroed for a replica whose
  // share of a batch is empty, and the step count the optimizer's bias correction reads.
  [[nodiscard]] float* gradients_on_device() const { return grads_.data(); }
  Status zero_gradients();
  void count_step() { ++steps_done_; }
  // Copies the examples [first, first + rows) of the shuffled epoch data: nothing to copy (the
  // whole epoch's data is copied once, at its start); here for the per-step view.
  [[nodiscard]] const float* batch_inputs(int first) const;
  [[nodiscard]] const int* batch_labels(int first) const;
  [[nodiscard]] float* step_stats(int slot) const;
  // The first layer's forward product for the first `rows` examples, recording which thread wrote
  // each element of its output (rows × first hidden width): what the lesson's mapping view draws.
  Status forward_first_layer_traced(int rows, TraceRecord* records);
  // Shuffles the data set and copies it to the device (once per epoch).
  Status upload_shuffled_epoch();

  // ---- Step by step, for the window's live views (training_session.hpp). ----
  // Up to `count` steps, never past the end of the current epoch (the next call shuffles and
  // starts the next one); their losses and batch accuracies are read back once, at the end, and
  // checked as train_epoch checks them. Do not mix with train_epoch on one trainer.
  struct StepStats {
    double loss = 0;
    double accuracy = 0;  // of the batch, as it trained
  };
  Result<std::vector<StepStats>> train_steps(int count);
  // Class probabilities of `count` points (count × inputs floats) already on the device, written
  // to `probabilities` (count × classes floats, device memory: a mapped OpenGL buffer, say).
  Status probabilities_on_device(const float* points, std::size_t count, float* probabilities);

 private:
  MlpTrainer(compute::Device& device, TrainingSettings settings, MlpShape shape, TrainingData data);
  Status allocate();
  Status gemm(const kernels::MlpGemm& g);
  float* activation(int layer) const;  // the output of layer `layer` (0-based)
  // How many slices layer `layer`'s weight gradient over `rows` rows is computed in (1: whole).
  [[nodiscard]] int gradient_slices(int layer, int rows) const;
  // Every layer forward; with labels, the thin output layer's kernel also writes the row losses
  // and the loss's gradient (scaled by grad_scale).
  Status forward_layers(const float* x, int rows, const int* labels, float grad_scale);
  static float loss_gradient_scale(int rows, int mean_over);
  // Whether layer `layer` is a first layer of at most kMlpThinMax inputs (its weight gradient
  // takes mlp_narrow_input_gradient).
  [[nodiscard]] bool narrow_first_layer(int layer) const;

  compute::Device& device_;
  TrainingSettings settings_;
  MlpShape shape_;
  TrainingData data_;
  int max_rows_ = 0;  // rows the activation buffers hold: the batch, or more for evaluation
  std::uint64_t target_blocks_ = 0;

  compute::DeviceArray<float> params_, grads_, state1_, state2_;
  compute::DeviceArray<float> epoch_x_;
  compute::DeviceArray<int> epoch_labels_;
  std::vector<compute::DeviceArray<float>> activations_;
  compute::DeviceArray<float> delta_a_, delta_b_, split_partials_;
  compute::DeviceArray<float> row_loss_, row_correct_, stats_;

  TrainingRandom shuffle_random_;
  std::vector<float> host_x_;
  std::vector<int> host_labels_;
  std::int64_t steps_done_ = 0;
  int epochs_done_ = 0;
  std::vector<double> step_losses_;
  std::chrono::steady_clock::time_point started_;
  bool started_clock_ = false;
  int next_step_in_epoch_ = 0;  // train_steps' place in the current epoch
};

}  // namespace tl::lessons
