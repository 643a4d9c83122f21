#include "mlp_trainer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "lessons/09_training/kernels/mlp_kernels.hpp"
#include "lessons/09_training/kernels/mlp_shapes.hpp"

namespace tl::lessons {

// One launch adds every layer's split weight gradient: it has a place for each layer.
static_assert(kMaxLayers <= kernels::kMlpMaxLayers);

namespace {

constexpr double kAdamBeta1 = 0.9;
constexpr double kAdamBeta2 = 0.999;
constexpr double kAdamEpsilon = 1e-8;
// Evaluation and the boundary's points go through the network this many rows at a time (at least
// the batch).
constexpr int kEvaluationRows = 4096;

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

template <class T>
Status allocate_into(compute::Device& device, compute::DeviceArray<T>& array, std::size_t count) {
  auto allocated = compute::allocate_array<T>(device, count == 0 ? 1 : count);
  if (!allocated) return allocated.error();
  array = std::move(*allocated);
  return Status::ok();
}

}  // namespace

TrainingSettings emulator_training_settings() {
  TrainingSettings settings;
  settings.samples = 600;
  settings.layers = "2,32,32,2";
  settings.batch = 50;
  settings.learning_rate = 0.01;
  settings.epochs = 60;
  return settings;
}

std::string_view optimizer_name(Optimizer optimizer) {
  return optimizer == Optimizer::kAdam ? "adam" : "sgd";
}

Result<Optimizer> parse_optimizer(std::string_view text) {
  if (text == "adam") return Optimizer::kAdam;
  if (text == "sgd") return Optimizer::kSgdMomentum;
  return invalid_argument("no optimizer named '" + std::string(text) +
                          "'; there are sgd (with momentum) and adam.");
}

Status check_step_loss(const TrainingSettings& settings, double loss, std::int64_t step, int epoch,
                       int batch, int batches) {
  if (std::isfinite(loss) && loss <= kDivergedLoss) return Status::ok();
  const std::string what = std::isnan(loss)   ? "became NaN"
                           : std::isinf(loss) ? "became infinite"
                                              : "exploded to " + number(loss);
  return invalid_argument(
      "training diverged at step " + std::to_string(step) + " (epoch " + std::to_string(epoch) +
      ", batch " + std::to_string(batch) + " of " + std::to_string(batches) + "): the loss " +
      what + ". The learning rate " + number(settings.learning_rate) + " is too large for " +
      std::string(optimizer_name(settings.optimizer)) + " on this network: try " +
      number(settings.learning_rate / 100 < 0.01 ? settings.learning_rate / 100 : 0.01) + ".");
}

namespace {

// What create() asks of the settings for data of `inputs` and `classes`: the layers fit them, and
// the batch, learning rate, momentum and epochs are in range.
Status validate_for_data(const TrainingSettings& settings, const std::string& data_name, int inputs,
                         int classes) {
  auto shape = parse_mlp_shape(settings.layers);
  if (!shape) return shape.error();
  if (shape->inputs() != inputs || shape->classes() != classes) {
    return invalid_argument("layers " + shape->to_string() + " do not fit the " + data_name +
                            " data: it has " + std::to_string(inputs) + " inputs and " +
                            std::to_string(classes) + " classes, so the first width must be " +
                            std::to_string(inputs) + " and the last " + std::to_string(classes) +
                            ".");
  }
  if (settings.batch < 1 || settings.batch > 65536) {
    return invalid_argument("the batch must be between 1 and 65536 examples, not " +
                            std::to_string(settings.batch) + ".");
  }
  if (!(settings.learning_rate > 0) || !std::isfinite(settings.learning_rate)) {
    return invalid_argument("the learning rate must be a positive number, not " +
                            number(settings.learning_rate) + ".");
  }
  if (!(settings.momentum >= 0 && settings.momentum < 1)) {
    return invalid_argument("the momentum must be in [0, 1), not " + number(settings.momentum) +
                            ".");
  }
  if (settings.epochs < 1 || settings.epochs > 1000000) {
    return invalid_argument("epochs must be between 1 and 1000000, not " +
                            std::to_string(settings.epochs) + ".");
  }
  return Status::ok();
}

Status validate_sample_count(const TrainingSettings& settings) {
  if (settings.samples < 4 || settings.samples > (1 << 22)) {
    return invalid_argument("samples must be between 4 and 4194304, not " +
                            std::to_string(settings.samples) + ".");
  }
  return Status::ok();
}

}  // namespace

Status validate_training_settings(const TrainingSettings& settings) {
  TL_RETURN_IF_ERROR(validate_sample_count(settings));
  // Four examples are enough to learn the data set's inputs and classes without generating it.
  auto sample = make_training_data(settings.data, 4, settings.seed);
  if (!sample) return sample.error();
  return validate_for_data(settings, sample->name, sample->inputs, sample->classes);
}

Result<std::unique_ptr<MlpTrainer>> MlpTrainer::create(compute::Device& device,
                                                       const TrainingSettings& settings) {
  TL_RETURN_IF_ERROR(validate_sample_count(settings));
  auto data = make_training_data(settings.data, settings.samples, settings.seed);
  if (!data) return data.error();
  return create(device, settings, std::move(*data));
}

Result<std::unique_ptr<MlpTrainer>> MlpTrainer::create(compute::Device& device,
                                                       const TrainingSettings& settings,
                                                       TrainingData data) {
  TL_RETURN_IF_ERROR(validate_for_data(settings, data.name, data.inputs, data.classes));
  auto shape = parse_mlp_shape(settings.layers);
  if (!shape) return shape.error();
  std::unique_ptr<MlpTrainer> trainer(
      new MlpTrainer(device, settings, std::move(*shape), std::move(data)));
  TL_RETURN_IF_ERROR(trainer->allocate());
  return trainer;
}

MlpTrainer::MlpTrainer(compute::Device& device, TrainingSettings settings, MlpShape shape,
                       TrainingData data)
    : device_(device),
      settings_(std::move(settings)),
      shape_(std::move(shape)),
      data_(std::move(data)),
      shuffle_random_(settings_.seed * 0xD1B54A32D192ED03ull + 99) {}

MlpTrainer::~MlpTrainer() = default;

int MlpTrainer::steps_per_epoch() const {
  return (data_.count() + settings_.batch - 1) / settings_.batch;
}

Status MlpTrainer::allocate() {
  max_rows_ = std::max(settings_.batch, std::min(data_.count(), kEvaluationRows));
  // A split product only pays on a GPU, whose SMs a weight gradient's few tiles leave idle.
  if (settings_.split_target_blocks >= 0) {
    target_blocks_ = static_cast<std::uint64_t>(settings_.split_target_blocks);
  } else {
    target_blocks_ =
        device_.is_gpu()
            ? 2ull * static_cast<std::uint64_t>(std::max(device_.info().multiprocessors, 1))
            : 0;
  }
  const std::size_t count = shape_.parameter_count();
  TL_RETURN_IF_ERROR(allocate_into(device_, params_, count));
  TL_RETURN_IF_ERROR(allocate_into(device_, grads_, count));
  TL_RETURN_IF_ERROR(allocate_into(device_, state1_, count));
  TL_RETURN_IF_ERROR(allocate_into(device_, state2_, count));
  TL_RETURN_IF_ERROR(device_.fill_zero(state1_.data(), state1_.bytes()));
  TL_RETURN_IF_ERROR(device_.fill_zero(state2_.data(), state2_.bytes()));
  const std::vector<float> initial = initial_parameters(shape_, settings_.seed);
  TL_RETURN_IF_ERROR(device_.copy_to_device(params_.data(), initial.data(), params_.bytes()));

  const std::size_t rows = static_cast<std::size_t>(max_rows_);
  TL_RETURN_IF_ERROR(
      allocate_into(device_, epoch_x_, static_cast<std::size_t>(data_.count()) * data_.inputs));
  TL_RETURN_IF_ERROR(allocate_into(device_, epoch_labels_, data_.count()));
  activations_.resize(shape_.layers());
  for (int l = 0; l < shape_.layers(); ++l) {
    TL_RETURN_IF_ERROR(allocate_into(device_, activations_[l], rows * shape_.widths[l + 1]));
  }
  TL_RETURN_IF_ERROR(allocate_into(device_, delta_a_, rows * shape_.widest()));
  TL_RETURN_IF_ERROR(allocate_into(device_, delta_b_, rows * shape_.widest()));
  // Every layer's slices at once: mlp_sum_all_splits adds them all at the end of the backward pass.
  std::size_t partials = 0;
  for (int l = 0; l < shape_.layers(); ++l) {
    const int out = shape_.widths[l + 1], in = shape_.widths[l];
    const int splits = gradient_slices(l, max_rows_);
    if (splits > 1) partials += static_cast<std::size_t>(splits) * out * (in + 1);
  }
  TL_RETURN_IF_ERROR(allocate_into(device_, split_partials_, partials));
  TL_RETURN_IF_ERROR(allocate_into(device_, row_loss_, rows));
  TL_RETURN_IF_ERROR(allocate_into(device_, row_correct_, rows));
  const int chunks = (data_.count() + max_rows_ - 1) / max_rows_;
  TL_RETURN_IF_ERROR(allocate_into(
      device_, stats_, 2 * static_cast<std::size_t>(std::max(steps_per_epoch(), chunks))));
  host_x_ = data_.x;
  host_labels_ = data_.labels;
  // Until the first epoch shuffles it, the device holds the data in its generated order (what
  // gradients() reads).
  TL_RETURN_IF_ERROR(
      device_.copy_to_device(epoch_x_.data(), host_x_.data(), host_x_.size() * sizeof(float)));
  return device_.copy_to_device(epoch_labels_.data(), host_labels_.data(),
                                host_labels_.size() * sizeof(int));
}

int MlpTrainer::gradient_slices(int layer, int rows) const {
  const int out = shape_.widths[layer + 1], in = shape_.widths[layer];
  if (kernels::mlp_is_thin(out) || narrow_first_layer(layer)) {
    return kernels::mlp_thin_backward_slices(rows);
  }
  kernels::MlpGemm g;
  g.m = out;
  g.n = in + 1;
  g.k = rows;
  g.k_split = kernels::mlp_choose_k_split(g.m, g.n, g.k, target_blocks_);
  return g.splits();
}

bool MlpTrainer::narrow_first_layer(int layer) const {
  return layer == 0 && kernels::mlp_is_thin(shape_.widths[0]);
}

int MlpTrainer::largest_split() const {
  int largest = 1;
  for (int l = 0; l < shape_.layers(); ++l) {
    largest = std::max(largest, gradient_slices(l, std::min(settings_.batch, data_.count())));
  }
  return largest;
}

float* MlpTrainer::activation(int layer) const {
  return activations_[layer].data();
}

const float* MlpTrainer::batch_inputs(int first) const {
  return epoch_x_.data() + static_cast<std::size_t>(first) * data_.inputs;
}

const int* MlpTrainer::batch_labels(int first) const {
  return epoch_labels_.data() + first;
}

float* MlpTrainer::step_stats(int slot) const {
  return stats_.data() + 2 * static_cast<std::size_t>(slot);
}

Status MlpTrainer::gemm(const kernels::MlpGemm& g) {
  const kernels::MlpKernels& k = device_.kernels().get<kernels::MlpKernels>();
  return k.gemm(kernels::mlp_gemm_config(g.m, g.n, g.splits()), g);
}

Status MlpTrainer::forward(const float* x, int rows) {
  return forward_layers(x, rows, nullptr, 0.0f);
}

Status MlpTrainer::forward_and_loss(const float* x, const int* labels, int rows, float* stats_slot,
                                    int mean_over) {
  if (!kernels::mlp_is_thin(shape_.classes())) {
    TL_RETURN_IF_ERROR(forward(x, rows));
    return loss(labels, rows, stats_slot, mean_over);
  }
  // The thin output layer's kernel computes the row losses and the loss's gradient as well.
  TL_RETURN_IF_ERROR(forward_layers(x, rows, labels, loss_gradient_scale(rows, mean_over)));
  const kernels::MlpKernels& k = device_.kernels().get<kernels::MlpKernels>();
  return k.sum_losses(kernels::mlp_sum_config(), row_loss_.data(), row_correct_.data(), rows,
                      stats_slot);
}

float MlpTrainer::loss_gradient_scale(int rows, int mean_over) {
  return 1.0f / static_cast<float>(mean_over > 0 ? mean_over : rows);
}

Status MlpTrainer::forward_layers(const float* x, int rows, const int* labels, float grad_scale) {
  for (int l = 0; l < shape_.layers(); ++l) {
    const int in = shape_.widths[l], out = shape_.widths[l + 1];
    const float* w = params_.data() + shape_.layer_offset(l);
    const float* a = l == 0 ? x : activation(l - 1);  // rows × in
    const bool hidden = l + 1 < shape_.layers();
    if (kernels::mlp_is_thin(out)) {  // a few neurons: a warp per row, not 64 × 64 tiles
      const kernels::MlpKernels& k = device_.kernels().get<kernels::MlpKernels>();
      const int* output_labels = hidden ? nullptr : labels;
      TL_RETURN_IF_ERROR(k.thin_forward(kernels::mlp_thin_forward_config(rows), a, w, activation(l),
                                        rows, in, out, hidden ? 1 : 0, output_labels,
                                        delta_a_.data(), row_loss_.data(), row_correct_.data(),
                                        grad_scale));
      continue;
    }
    kernels::MlpGemm g;
    g.m = rows;
    g.n = out;
    g.k = in;
    g.a = a;
    g.a_row = in;
    g.a_col = 1;
    g.b = w;  // B(i, o) = W[o][i]: the weights read transposed, in place
    g.b_row = 1;
    g.b_col = in + 1;
    g.c = activation(l);
    g.ldc = out;
    g.epilogue = hidden ? kernels::kMlpBiasRelu : kernels::kMlpBias;
    g.bias = w + in;  // column `in` of the layer's matrix
    g.bias_stride = in + 1;
    TL_RETURN_IF_ERROR(gemm(g));
  }
  return Status::ok();
}

Status MlpTrainer::forward_first_layer_traced(int rows, TraceRecord* records) {
  const int in = shape_.widths[0], out = shape_.widths[1];
  const float* w = params_.data();
  kernels::MlpGemm g;
  g.m = rows;
  g.n = out;
  g.k = in;
  g.a = batch_inputs(0);
  g.a_row = in;
  g.a_col = 1;
  g.b = w;
  g.b_row = 1;
  g.b_col = in + 1;
  g.c = activation(0);
  g.ldc = out;
  g.epilogue = shape_.layers() > 1 ? kernels::kMlpBiasRelu : kernels::kMlpBias;
  g.bias = w + in;
  g.bias_stride = in + 1;
  return device_.kernels().get<kernels::MlpKernels>().gemm_traced(
      kernels::mlp_gemm_config(g.m, g.n), g, records);
}

Status MlpTrainer::loss(const int* labels, int rows, float* stats_slot, int mean_over) {
  const kernels::MlpKernels& k = device_.kernels().get<kernels::MlpKernels>();
  const int classes = shape_.classes();
  TL_RETURN_IF_ERROR(k.softmax_cross_entropy(
      kernels::mlp_elementwise_config(static_cast<std::uint64_t>(rows)),
      activation(shape_.layers() - 1), labels, delta_a_.data(), row_loss_.data(),
      row_correct_.data(), rows, classes, loss_gradient_scale(rows, mean_over)));
  return k.sum_losses(kernels::mlp_sum_config(), row_loss_.data(), row_correct_.data(), rows,
                      stats_slot);
}

Status MlpTrainer::backward(const float* x, int rows) {
  const kernels::MlpKernels& k = device_.kernels().get<kernels::MlpKernels>();
  float* delta = delta_a_.data();  // dZ of the layer at hand (rows × out), the loss's to begin
  float* next = delta_b_.data();
  // The split weight gradients' slices, every layer's one after another, and the one launch that
  // adds them all at the end.
  kernels::MlpSplitSums sums;
  float* slices = split_partials_.data();
  for (int l = shape_.layers() - 1; l >= 0; --l) {
    const int in = shape_.widths[l], out = shape_.widths[l + 1];
    const float* w = params_.data() + shape_.layer_offset(l);
    const float* input = l == 0 ? x : activation(l - 1);  // rows × in
    float* grad = grads_.data() + shape_.layer_offset(l);
    const int elements = out * (in + 1);
    const int splits = gradient_slices(l, rows);
    float* const gradient_out = splits > 1 ? slices : grad;
    if (splits > 1) {
      sums.layer[sums.layers++] = {slices, grad, elements, splits,
                                   kernels::mlp_split_sum_lanes(splits)};
      slices += static_cast<std::size_t>(splits) * elements;
    }

    if (kernels::mlp_is_thin(out)) {
      // A few neurons: both products in one pass over the input (mlp.cuh says how).
      TL_RETURN_IF_ERROR(k.thin_backward(kernels::mlp_thin_backward_config(rows), delta, input, w,
                                         gradient_out, l > 0 ? next : nullptr, rows, in, out));
      if (l == 0) break;
      std::swap(delta, next);
      continue;
    }

    if (narrow_first_layer(l)) {  // a few inputs: a thread per neuron, not 64 × 64 tiles
      TL_RETURN_IF_ERROR(k.narrow_input_gradient(kernels::mlp_thin_backward_config(rows), delta,
                                                 input, gradient_out, rows, in, out));
      break;
    }

    // [dW | db] (out × (in + 1)) = dZᵀ · [input | 1]: a sum over the batch for every weight.
    kernels::MlpGemm g;
    g.m = out;
    g.n = in + 1;
    g.k = rows;
    g.a = delta;  // A(o, r) = dZ[r][o]: dZ read transposed
    g.a_row = 1;
    g.a_col = out;
    g.b = input;
    g.b_row = in;
    g.b_col = 1;
    g.b_ones_col = in;
    g.ldc = in + 1;
    g.epilogue = kernels::kMlpStore;
    g.k_split = kernels::mlp_choose_k_split(g.m, g.n, g.k, target_blocks_);
    g.c = gradient_out;
    g.split_stride = elements;
    TL_RETURN_IF_ERROR(gemm(g));
    if (l == 0) break;  // nothing needs the gradient of the inputs

    // dZ of the layer below (rows × in) = (dZ · W) where that layer's ReLU fired.
    kernels::MlpGemm d;
    d.m = rows;
    d.n = in;
    d.k = out;
    d.a = delta;
    d.a_row = out;
    d.a_col = 1;
    d.b = w;  // B(o, i) = W[o][i]
    d.b_row = in + 1;
    d.b_col = 1;
    d.c = next;
    d.ldc = in;
    d.epilogue = kernels::kMlpReluMask;
    d.mask = input;
    TL_RETURN_IF_ERROR(gemm(d));
    std::swap(delta, next);
  }
  if (sums.layers == 0) return Status::ok();
  return k.sum_all_splits(kernels::mlp_sum_all_splits_config(sums), sums);
}

Status MlpTrainer::zero_gradients() {
  return device_.fill_zero(grads_.data(), grads_.bytes());
}

Status MlpTrainer::update() {
  const kernels::MlpKernels& k = device_.kernels().get<kernels::MlpKernels>();
  const int count = static_cast<int>(shape_.parameter_count());
  const LaunchConfig config = kernels::mlp_elementwise_config(static_cast<std::uint64_t>(count));
  if (settings_.optimizer == Optimizer::kSgdMomentum) {
    return k.sgd_momentum(config, params_.data(), grads_.data(), state1_.data(), count,
                          static_cast<float>(settings_.learning_rate),
                          static_cast<float>(settings_.momentum));
  }
  const double t = static_cast<double>(steps_done_ + 1);
  const double correction2 = std::sqrt(1.0 - std::pow(kAdamBeta2, t));
  const double corrected_rate =
      settings_.learning_rate * correction2 / (1.0 - std::pow(kAdamBeta1, t));
  return k.adam(config, params_.data(), grads_.data(), state1_.data(), state2_.data(), count,
                static_cast<float>(corrected_rate), static_cast<float>(kAdamBeta1),
                static_cast<float>(kAdamBeta2), static_cast<float>(kAdamEpsilon * correction2));
}

Status MlpTrainer::upload_shuffled_epoch() {
  const int count = data_.count(), inputs = data_.inputs;
  std::vector<int> order(count);
  std::iota(order.begin(), order.end(), 0);
  for (int i = count - 1; i > 0; --i) {  // Fisher–Yates, with the trainer's own generator
    std::swap(order[i], order[shuffle_random_.below(static_cast<std::uint64_t>(i) + 1)]);
  }
  for (int i = 0; i < count; ++i) {
    std::copy_n(data_.x.begin() + static_cast<std::ptrdiff_t>(order[i]) * inputs, inputs,
                host_x_.begin() + static_cast<std::ptrdiff_t>(i) * inputs);
    host_labels_[i] = data_.labels[order[i]];
  }
  TL_RETURN_IF_ERROR(
      device_.copy_to_device(epoch_x_.data(), host_x_.data(), host_x_.size() * sizeof(float)));
  return device_.copy_to_device(epoch_labels_.data(), host_labels_.data(),
                                host_labels_.size() * sizeof(int));
}

Result<EpochSummary> MlpTrainer::train_epoch() {
  if (!started_clock_) {
    started_ = std::chrono::steady_clock::now();
    started_clock_ = true;
  }
  TL_RETURN_IF_ERROR(upload_shuffled_epoch());
  const int steps = steps_per_epoch(), count = data_.count(), batch = settings_.batch;
  const std::int64_t first_step = steps_done_;
  for (int s = 0; s < steps; ++s) {
    const int first = s * batch, rows = std::min(batch, count - first);
    TL_RETURN_IF_ERROR(
        forward_and_loss(batch_inputs(first), batch_labels(first), rows, step_stats(s)));
    TL_RETURN_IF_ERROR(backward(batch_inputs(first), rows));
    TL_RETURN_IF_ERROR(update());
    ++steps_done_;
  }
  std::vector<float> stats(2 * static_cast<std::size_t>(steps));
  TL_RETURN_IF_ERROR(
      device_.copy_to_host(stats.data(), stats_.data(), stats.size() * sizeof(float)));
  TL_RETURN_IF_ERROR(device_.synchronize());
  ++epochs_done_;
  EpochSummary summary;
  summary.epoch = epochs_done_;
  summary.steps = steps_done_;
  double correct = 0;
  for (int s = 0; s < steps; ++s) {
    const double loss = stats[2 * s];
    TL_RETURN_IF_ERROR(
        check_step_loss(settings_, loss, first_step + s + 1, epochs_done_, s + 1, steps));
    step_losses_.push_back(loss);
    summary.train_loss += loss;
    correct += stats[2 * s + 1];
  }
  summary.train_loss /= steps;
  summary.train_accuracy = correct / count;
  auto evaluation = evaluate();
  if (!evaluation) return evaluation.error();
  summary.loss = evaluation->loss;
  summary.accuracy = evaluation->accuracy;
  summary.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  return summary;
}

Result<Evaluation> MlpTrainer::evaluate() {
  // The data in whatever order the device holds it: the sums do not care.
  const int count = data_.count();
  const int chunks = (count + max_rows_ - 1) / max_rows_;
  for (int c = 0; c < chunks; ++c) {
    const int first = c * max_rows_, rows = std::min(max_rows_, count - first);
    TL_RETURN_IF_ERROR(
        forward_and_loss(batch_inputs(first), batch_labels(first), rows, step_stats(c)));
  }
  std::vector<float> stats(2 * static_cast<std::size_t>(chunks));
  TL_RETURN_IF_ERROR(
      device_.copy_to_host(stats.data(), stats_.data(), stats.size() * sizeof(float)));
  Evaluation evaluation;
  double correct = 0;
  for (int c = 0; c < chunks; ++c) {
    const int rows = std::min(max_rows_, count - c * max_rows_);
    evaluation.loss += static_cast<double>(stats[2 * c]) * rows;
    correct += stats[2 * c + 1];
  }
  evaluation.loss /= count;
  evaluation.accuracy = correct / count;
  return evaluation;
}

Result<std::vector<float>> MlpTrainer::probabilities(std::span<const float> points) {
  const int inputs = data_.inputs, classes = shape_.classes();
  const std::size_t count = points.size() / static_cast<std::size_t>(inputs);
  std::vector<float> result(count * classes);
  auto device_points = compute::allocate_array<float>(
      device_, std::max<std::size_t>(1, std::min<std::size_t>(count, max_rows_) * inputs));
  if (!device_points) return device_points.error();
  const kernels::MlpKernels& k = device_.kernels().get<kernels::MlpKernels>();
  for (std::size_t first = 0; first < count; first += static_cast<std::size_t>(max_rows_)) {
    const int rows = static_cast<int>(std::min<std::size_t>(max_rows_, count - first));
    TL_RETURN_IF_ERROR(
        device_.copy_to_device(device_points->data(), points.data() + first * inputs,
                               static_cast<std::size_t>(rows) * inputs * sizeof(float)));
    TL_RETURN_IF_ERROR(forward(device_points->data(), rows));
    // The probabilities go where the loss's gradient would: nothing else needs it now.
    TL_RETURN_IF_ERROR(k.softmax(kernels::mlp_elementwise_config(static_cast<std::uint64_t>(rows)),
                                 activation(shape_.layers() - 1), delta_a_.data(), rows, classes));
    TL_RETURN_IF_ERROR(
        device_.copy_to_host(result.data() + first * classes, delta_a_.data(),
                             static_cast<std::size_t>(rows) * classes * sizeof(float)));
  }
  return result;
}

Result<std::vector<float>> MlpTrainer::parameters() {
  std::vector<float> params(params_.size());
  TL_RETURN_IF_ERROR(device_.copy_to_host(params.data(), params_.data(), params_.bytes()));
  return params;
}

Status MlpTrainer::set_parameters(std::span<const float> params) {
  if (params.size() != params_.size()) {
    return invalid_argument("expected " + std::to_string(params_.size()) + " parameters, got " +
                            std::to_string(params.size()));
  }
  return device_.copy_to_device(params_.data(), params.data(), params_.bytes());
}

Result<MlpTrainer::Gradients> MlpTrainer::gradients(
    int rows, int share_first, int share_rows,
    const std::function<Status(float*, std::size_t)>& combine) {
  if (rows < 1 || rows > std::min(max_rows_, data_.count())) {
    return invalid_argument("gradients over 1 to " +
                            std::to_string(std::min(max_rows_, data_.count())) + " rows, not " +
                            std::to_string(rows));
  }
  if (share_first < 0 || share_rows < 0 || share_first + share_rows > rows) {
    return invalid_argument("a share of " + std::to_string(share_rows) + " rows from row " +
                            std::to_string(share_first) + " is not within the " +
                            std::to_string(rows) + " rows");
  }
  TL_RETURN_IF_ERROR(
      device_.copy_to_device(epoch_x_.data(), data_.x.data(),
                             static_cast<std::size_t>(rows) * data_.inputs * sizeof(float)));
  TL_RETURN_IF_ERROR(device_.copy_to_device(epoch_labels_.data(), data_.labels.data(),
                                            static_cast<std::size_t>(rows) * sizeof(int)));
  TL_RETURN_IF_ERROR(device_.fill_zero(step_stats(0), 2 * sizeof(float)));
  if (share_rows > 0) {
    TL_RETURN_IF_ERROR(forward_and_loss(batch_inputs(share_first), batch_labels(share_first),
                                        share_rows, step_stats(0), rows));
    TL_RETURN_IF_ERROR(backward(batch_inputs(share_first), share_rows));
  } else {
    TL_RETURN_IF_ERROR(zero_gradients());
  }
  if (combine) TL_RETURN_IF_ERROR(combine(grads_.data(), grads_.size()));
  Gradients result;
  result.values.resize(grads_.size());
  TL_RETURN_IF_ERROR(device_.copy_to_host(result.values.data(), grads_.data(), grads_.bytes()));
  float stats[2] = {0, 0};
  TL_RETURN_IF_ERROR(device_.copy_to_host(stats, stats_.data(), sizeof stats));
  result.loss = stats[0];
  return result;
}

Result<MlpTrainer::Gradients> MlpTrainer::gradients(int rows) {
  if (rows < 1 || rows > std::min(max_rows_, data_.count())) {
    return invalid_argument("gradients over 1 to " +
                            std::to_string(std::min(max_rows_, data_.count())) + " rows, not " +
                            std::to_string(rows));
  }
  TL_RETURN_IF_ERROR(
      device_.copy_to_device(epoch_x_.data(), data_.x.data(),
                             static_cast<std::size_t>(rows) * data_.inputs * sizeof(float)));
  TL_RETURN_IF_ERROR(device_.copy_to_device(epoch_labels_.data(), data_.labels.data(),
                                            static_cast<std::size_t>(rows) * sizeof(int)));
  TL_RETURN_IF_ERROR(forward_and_loss(batch_inputs(0), batch_labels(0), rows, step_stats(0)));
  TL_RETURN_IF_ERROR(backward(batch_inputs(0), rows));
  Gradients result;
  result.values.resize(grads_.size());
  TL_RETURN_IF_ERROR(device_.copy_to_host(result.values.data(), grads_.data(), grads_.bytes()));
  float stats[2] = {0, 0};
  TL_RETURN_IF_ERROR(device_.copy_to_host(stats, stats_.data(), sizeof stats));
  result.loss = stats[0];
  return result;
}

}  // namespace tl::lessons

// ---- Step by step, for the window's live views. ----

namespace tl::lessons {

Result<std::vector<MlpTrainer::StepStats>> MlpTrainer::train_steps(int count) {
  if (count < 1) return invalid_argument("train at least one step, not " + std::to_string(count));
  if (next_step_in_epoch_ == 0) TL_RETURN_IF_ERROR(upload_shuffled_epoch());
  const int steps = std::min(count, steps_per_epoch() - next_step_in_epoch_);
  const int examples = data_.count(), batch = settings_.batch;
  const int first_slot = next_step_in_epoch_;
  const std::int64_t first_step = steps_done_;
  for (int s = first_slot; s < first_slot + steps; ++s) {
    const int first = s * batch, rows = std::min(batch, examples - first);
    TL_RETURN_IF_ERROR(
        forward_and_loss(batch_inputs(first), batch_labels(first), rows, step_stats(s)));
    TL_RETURN_IF_ERROR(backward(batch_inputs(first), rows));
    TL_RETURN_IF_ERROR(update());
    ++steps_done_;  // Adam's bias correction counts the steps
  }
  steps_done_ = first_step;  // counted again below, up to a diverged step
  std::vector<float> stats(2 * static_cast<std::size_t>(steps));
  TL_RETURN_IF_ERROR(
      device_.copy_to_host(stats.data(), step_stats(first_slot), stats.size() * sizeof(float)));
  TL_RETURN_IF_ERROR(device_.synchronize());
  std::vector<StepStats> result;
  result.reserve(static_cast<std::size_t>(steps));
  for (int i = 0; i < steps; ++i) {
    const double step_loss = stats[2 * static_cast<std::size_t>(i)];
    const std::int64_t step = steps_done_ + 1;
    if (!std::isfinite(step_loss) || step_loss > kDivergedLoss) {
      // The steps after this one trained on garbage: the trainer stops here for good (a reset
      // makes a new one).
      return invalid_argument("training diverged at step " + std::to_string(step) + ": the loss " +
                              (std::isnan(step_loss)   ? std::string("became NaN")
                               : std::isinf(step_loss) ? std::string("became infinite")
                                                       : "exploded to " + number(step_loss)) +
                              ". The learning rate " + number(settings_.learning_rate) +
                              " is too large for " +
                              std::string(optimizer_name(settings_.optimizer)) +
                              " on this network: lower it and reset.");
    }
    const int rows = std::min(batch, examples - (first_slot + i) * batch);
    ++steps_done_;
    step_losses_.push_back(step_loss);
    result.push_back(
        {step_loss, stats[2 * static_cast<std::size_t>(i) + 1] / static_cast<double>(rows)});
  }
  next_step_in_epoch_ += steps;
  if (next_step_in_epoch_ == steps_per_epoch()) {
    next_step_in_epoch_ = 0;
    ++epochs_done_;
  }
  return result;
}

Status MlpTrainer::probabilities_on_device(const float* points, std::size_t count,
                                           float* probabilities) {
  const kernels::MlpKernels& k = device_.kernels().get<kernels::MlpKernels>();
  const int inputs = data_.inputs, classes = shape_.classes();
  for (std::size_t first = 0; first < count; first += static_cast<std::size_t>(max_rows_)) {
    const int rows = static_cast<int>(std::min<std::size_t>(max_rows_, count - first));
    TL_RETURN_IF_ERROR(forward(points + first * inputs, rows));
    TL_RETURN_IF_ERROR(k.softmax(kernels::mlp_elementwise_config(static_cast<std::uint64_t>(rows)),
                                 activation(shape_.layers() - 1), probabilities + first * classes,
                                 rows, classes));
  }
  return Status::ok();
}

}  // namespace tl::lessons
