#include "training_lesson.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "compute/lessons/parameterized_lesson.hpp"
#include "core/sweep/size_sweep.hpp"
#include "lessons/09_training/data_parallel_lesson.hpp"
#include "lessons/09_training/kernels/mlp_shapes.hpp"
#include "lessons/09_training/step_graph.hpp"
#include "lessons/09_training/training.hpp"

namespace tl::compute {
namespace {

const std::vector<lessons::ParamSpec>& specs() {
  static const std::vector<lessons::ParamSpec> kSpecs = {
      {"data",
       "data",
       lessons::ParamKind::kChoice,
       "spirals",
       {"spirals", "circles", "blobs", "digits"},
       "The data set the step trains on: two spirals, a disc in a ring, XOR blobs (2 inputs, 2 "
       "classes) or procedural 8x8 digits (64 inputs, 10 classes)"},
      {"hidden",
       "hidden width",
       lessons::ParamKind::kChoice,
       "256",
       {"8", "16", "32", "64", "128", "256", "512"},
       "Neurons in each hidden layer"},
      {"depth",
       "hidden layers",
       lessons::ParamKind::kChoice,
       "2",
       {"1", "2", "3", "4"},
       "How many hidden layers (ReLU) before the output layer"},
      {"batch",
       "batch",
       lessons::ParamKind::kCount,
       "4096",
       {},
       "Examples per step: the rows of every product"},
      {"optimizer",
       "optimizer",
       lessons::ParamKind::kChoice,
       "sgd",
       {"sgd", "adam"},
       "The update: SGD with momentum 0.9, or Adam"},
      {"seed",
       "seed",
       lessons::ParamKind::kCount,
       "1",
       {},
       "Seed of the data and the weights",
       {},
       true},
      data_parallel_gpus_spec(),  // data_parallel_lesson.hpp
  };
  return kSpecs;
}

// Flops of one step's pieces for `rows` examples: each product is 2 · rows · inputs · outputs.
struct StepFlops {
  double forward = 0, backward = 0, update = 0;
};
StepFlops step_flops(const lessons::MlpShape& shape, int rows) {
  StepFlops f;
  for (int l = 0; l < shape.layers(); ++l) {
    const double products = 2.0 * rows * shape.widths[l] * shape.widths[l + 1];
    f.forward += products;
    f.backward += products;             // the weight gradients
    if (l > 0) f.backward += products;  // the gradient of the layer's input
  }
  f.update = 4.0 * static_cast<double>(shape.parameter_count());
  return f;
}

// The least bytes the forward and backward passes move for `rows` examples: every array each
// layer's products read or write, once, 4 bytes an element (the kernels move more where a tile
// is read twice). Without them the roofline left the GEMMs out ("no bytes counted").
struct StepBytes {
  double forward = 0, backward = 0;
};
StepBytes step_bytes(const lessons::MlpShape& shape, int rows) {
  StepBytes b;
  for (int l = 0; l < shape.layers(); ++l) {
    const double in = shape.widths[l];
    const double out = shape.widths[l + 1];
    const double weights = in * out + out;  // W and the bias
    // Forward: read the input and the weights, write the activations.
    b.forward += 4.0 * (rows * in + weights + rows * out);
    // Backward: read the gradient of the output and the layer's input, write the weights'
    // gradients; below the first layer also read W and write the gradient of the input.
    b.backward += 4.0 * (rows * out + rows * in + weights);
    if (l > 0) b.backward += 4.0 * (in * out + rows * in);
  }
  return b;
}

std::string percent(double part, double whole) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f %%", whole > 0 ? 100.0 * part / whole : 0.0);
  return text;
}

class TrainingLesson final : public ParameterizedLesson {
 public:
  TrainingLesson()
      : ParameterizedLesson({.info = lessons::kTrainingInfo,
                             .specs = specs(),
                             .size_params = {"batch"},
                             // The product's block is fixed by its tile (16 × 16 threads for a 64 ×
                             // 64 tile): one step.
                             .blocks = BlockSweepShape::kFixed,
                             .fixed_block = {kernels::kMlpBlockSide, kernels::kMlpBlockSide, 1}}) {
    apply_defaults();
  }

  Status apply(const lessons::ParamReader& /*reader*/,
               const lessons::ParamValues& values) override {
    auto settings = training_settings_from(values);
    if (!settings) return settings.error();
    settings_ = std::move(*settings);
    shape_ = *lessons::parse_mlp_shape(settings_.layers);
    return Status::ok();
  }

  [[nodiscard]] LaunchConfig launch_config() const override {
    return kernels::mlp_gemm_config(settings_.batch, shape_.widths[1]);
  }
  [[nodiscard]] DataShape data_shape() const override {
    return {static_cast<std::uint64_t>(settings_.batch),
            static_cast<std::uint64_t>(shape_.widths[1])};
  }
  [[nodiscard]] lessons::ParamValues emulator_defaults() const override {
    return {{"hidden", "32"}, {"batch", "64"}};
  }
  [[nodiscard]] std::map<std::string, std::string> unavailable_params(
      const Device& device) const override {
    std::map<std::string, std::string> unavailable;
    if (auto why = data_parallel_unavailable(device)) unavailable.emplace("gpus", std::move(*why));
    return unavailable;
  }
  [[nodiscard]] std::uint32_t elements_per_thread() const override {
    return kernels::kMlpTile / kernels::kMlpBlockSide *
           (kernels::kMlpTile / kernels::kMlpBlockSide);
  }
  [[nodiscard]] std::optional<std::string> occupancy_kernel() const override {
    return std::string("mlp_gemm");
  }

  Result<LessonReport> run_timed(Device& device, const std::atomic<bool>* cancel) override {
    TL_RETURN_IF_ERROR(check_emulator_work(device));
    auto made = lessons::MlpTrainer::create(device, settings_);
    if (!made) return made.error();
    lessons::MlpTrainer& trainer = **made;
    const int rows = settings_.batch;
    const float* x = trainer.batch_inputs(0);
    const int* labels = trainer.batch_labels(0);
    float* stats = trainer.step_stats(0);
    const int warmup = 1, repeats = this->repeats();

    TrainingStepTimes t;
    const auto time = [&](const std::function<Status()>& work, TimingStats& into) -> Status {
      if (cancel != nullptr && cancel->load()) {
        return Error{ErrorKind::kCancelled, "cancelled"};
      }
      auto samples = device.time_repeated(work, warmup, repeats);
      if (!samples) return samples.error();
      into = summarize_timings(*samples);
      return Status::ok();
    };
    const auto whole_step = [&]() -> Status {
      TL_RETURN_IF_ERROR(trainer.forward_and_loss(x, labels, rows, stats));
      TL_RETURN_IF_ERROR(trainer.backward(x, rows));
      return trainer.update();
    };
    TL_RETURN_IF_ERROR(time(whole_step, t.step));
    // The same step captured once as a CUDA Graph and replayed (a GPU only).
    std::optional<TimingStats> graph;
    std::string graph_absent = "CUDA Graphs need an NVIDIA GPU";
#if defined(THREADLAB_HAVE_CUDA)
    if (device.is_gpu()) {
      auto samples = time_as_cuda_graph(whole_step, warmup, repeats);
      if (samples) {
        graph = summarize_timings(*samples);
      } else {
        graph_absent = "the step could not be captured as a CUDA Graph: " + samples.message();
      }
    }
#endif
    TL_RETURN_IF_ERROR(time([&] { return trainer.forward(x, rows); }, t.forward));
    TL_RETURN_IF_ERROR(time([&] { return trainer.loss(labels, rows, stats); }, t.loss));
    TL_RETURN_IF_ERROR(time([&] { return trainer.backward(x, rows); }, t.backward));
    TL_RETURN_IF_ERROR(time([&] { return trainer.update(); }, t.update));
    TL_RETURN_IF_ERROR(time([&] { return trainer.upload_shuffled_epoch(); }, t.copy_in));
    float host_stats[2];
    TL_RETURN_IF_ERROR(time(
        [&] { return device.copy_to_host(host_stats, stats, sizeof host_stats); }, t.copy_out));

    LessonReport report;
    report.on_gpu = device.is_gpu();
    const bool gpu = device.is_gpu();
    const StepFlops f = step_flops(shape_, rows);
    const StepBytes moved = step_bytes(shape_, rows);
    const auto name = [gpu](const std::string& what) {
      return gpu ? what : what + " (emulated, CPU)";
    };
    const double params_bytes = 4.0 * static_cast<double>(shape_.parameter_count());
    const double update_bytes =
        (settings_.optimizer == lessons::Optimizer::kAdam ? 7.0 : 5.0) * params_bytes;
    const double step_moved = moved.forward + moved.backward + update_bytes;
    report.rows.push_back({{TimingRole::kKernel, "step"},
                           name("one training step"),
                           t.step,
                           step_moved,
                           f.forward + f.backward + f.update,
                           true,
                           gpu});
    if (graph) {
      report.rows.push_back({{TimingRole::kKernel, "step-graph"},
                             "one training step, captured as a CUDA Graph",
                             *graph,
                             step_moved,
                             f.forward + f.backward + f.update,
                             true,
                             gpu});
      report.notes.push_back("the CUDA Graph against the step launched kernel by kernel: " +
                             percent(graph->median_ms, t.step.median_ms) +
                             " of its time (medians)");
    } else {
      report.notes.push_back("no CUDA Graph row: " + graph_absent);
    }
    report.rows.push_back({{TimingRole::kChainStep, "forward"},
                           name("forward"),
                           t.forward,
                           moved.forward,
                           f.forward,
                           false,
                           gpu});
    report.rows.push_back({{TimingRole::kChainStep, "loss"},
                           name("softmax, cross-entropy and its sum"),
                           t.loss,
                           0,
                           0,
                           false,
                           gpu});
    report.rows.push_back({{TimingRole::kChainStep, "backward"},
                           name("backward"),
                           t.backward,
                           moved.backward,
                           f.backward,
                           false,
                           gpu});
    report.rows.push_back(
        {{TimingRole::kChainStep, "update"},
         name(std::string(lessons::optimizer_name(settings_.optimizer)) + " update"),
         t.update,
         update_bytes,
         f.update,
         false,
         gpu});
    const double data_bytes = static_cast<double>(rows) * (4.0 * shape_.inputs() + 4.0);
    report.rows.push_back({{TimingRole::kCopy, "to-device"},
                           gpu ? "shuffle and copy the examples host → device"
                               : "shuffle and copy the examples (emulated)",
                           t.copy_in,
                           data_bytes,
                           0,
                           false});
    report.rows.push_back(
        {{TimingRole::kCopy, "to-host"},
         gpu ? "read the loss back device → host" : "read the loss back (emulated)",
         t.copy_out,
         8.0,
         0,
         false});
    const double pieces =
        t.forward.median_ms + t.loss.median_ms + t.backward.median_ms + t.update.median_ms;
    report.notes.push_back("network " + shape_.to_string() + ", batch " + std::to_string(rows) +
                           ", " + std::to_string(shape_.parameter_count()) +
                           " parameters; of the step's pieces (medians): forward " +
                           percent(t.forward.median_ms, pieces) + ", loss " +
                           percent(t.loss.median_ms, pieces) + ", backward " +
                           percent(t.backward.median_ms, pieces) + ", update " +
                           percent(t.update.median_ms, pieces));
    if (!gpu) {
      report.notes.push_back(
          "the emulator runs every GPU thread on the CPU: its timings are the CPU's, not a GPU's");
    }
    // Data parallel over several GPUs (data_parallel_lesson.hpp): its rows, or why not.
    TL_RETURN_IF_ERROR(
        add_data_parallel_rows(report, settings_, current_values(), device, repeats, cancel));
    auto checked = check_gradients(trainer);
    if (!checked) return checked.error();
    report.check = *checked;
    return report;
  }

  Result<TracedLaunch> run_traced(Device& device, TraceSink& sink) override {
    TL_RETURN_IF_ERROR(check_emulator_work(device));
    auto made = lessons::MlpTrainer::create(device, settings_);
    if (!made) return made.error();
    TracedLaunch traced;
    traced.shape = data_shape();
    traced.config = launch_config();
    auto records = sink.acquire(device, traced.shape.elements());
    if (!records) return records.error();
    const Status launched = (*made)->forward_first_layer_traced(settings_.batch, *records);
    const Status synced = launched.is_ok() ? device.synchronize() : launched;
    // Publish even after a failed launch: the sink must give its buffer back.
    const Status published = sink.publish(device);
    TL_RETURN_IF_ERROR(synced);
    TL_RETURN_IF_ERROR(published);
    return traced;
  }

  [[nodiscard]] std::string size_label() const override {
    return "batch";
  }
  [[nodiscard]] std::vector<std::uint64_t> sweep_sizes(const Device& device) const override {
    return device.is_gpu() ? size_sweep(64, 65536, 1) : size_sweep(16, 512, 1);
  }

 private:
  // The emulator runs every GPU thread on the CPU: a timed run (a dozen steps) of a large network
  // at a large batch would take minutes and hold hundreds of MiB there. Refused, with what to do.
  [[nodiscard]] Status check_emulator_work(const Device& device) const {
    constexpr double kEmulatorMultiplyAdds = 4.0 * 1024 * 1024;  // per step: a timed run of seconds
    const double work = 3.0 * settings_.batch * shape_.forward_multiply_adds();
    if (device.is_gpu() || work <= kEmulatorMultiplyAdds) return Status::ok();
    char text[64];
    std::snprintf(text, sizeof text, "%.3g", work);
    return Error{ErrorKind::kTooSlow,
                 "one training step of " + shape_.to_string() + " at batch " +
                     std::to_string(settings_.batch) + " is " + text +
                     " multiply-adds, too many for the CPU emulator (at most 4.19e+06): try a "
                     "smaller batch or hidden width, e.g. hidden 32 and batch 64"};
  }

  // The device's gradients of the mean loss over the first examples against the double-precision
  // reference's, with the same parameters.
  Result<LessonCheck> check_gradients(lessons::MlpTrainer& trainer) const {
    const int rows = std::min(settings_.batch, 128);
    auto params = trainer.parameters();
    if (!params) return params.error();
    auto device_gradients = trainer.gradients(rows);
    if (!device_gradients) return device_gradients.error();
    const lessons::TrainingData& data = trainer.data();
    const lessons::ReferencePass reference =
        lessons::reference_pass(shape_, *params, data.x, data.labels, rows, true);
    double largest = 0, worst = 0;
    for (std::size_t i = 0; i < reference.gradients.size(); ++i) {
      largest = std::max(largest, std::abs(reference.gradients[i]));
      worst = std::max(worst, std::abs(reference.gradients[i] - device_gradients->values[i]));
    }
    const double tolerance = 1e-3 * largest + 1e-7;
    const double loss_error = std::abs(device_gradients->loss - reference.loss);
    const bool passed = worst <= tolerance && loss_error <= 1e-4 * std::max(1.0, reference.loss);
    char text[256];
    std::snprintf(text, sizeof text,
                  "gradients of %zu parameters over %d examples: largest difference from the "
                  "float64 reference %.3g (tolerance %.3g, 0.1 %% of the largest gradient); loss "
                  "%.6g against %.6g",
                  reference.gradients.size(), rows, worst, tolerance, device_gradients->loss,
                  reference.loss);
    return LessonCheck{passed, text};
  }

  lessons::TrainingSettings settings_;
  lessons::MlpShape shape_;
};

}  // namespace

Result<lessons::TrainingSettings> training_settings_from(const lessons::ParamValues& values) {
  lessons::ParamReader reader(specs(), values);
  lessons::TrainingSettings settings;
  auto data = reader.choice("data");
  if (!data) return data.error();
  auto hidden = reader.choice("hidden");
  if (!hidden) return hidden.error();
  auto depth = reader.choice("depth");
  if (!depth) return depth.error();
  auto batch = reader.count("batch");
  if (!batch) return batch.error();
  auto optimizer_text = reader.choice("optimizer");
  if (!optimizer_text) return optimizer_text.error();
  auto seed = reader.count("seed");
  if (!seed) return seed.error();
  if (*batch < 4 || *batch > 65536) {
    return invalid_argument("batch: from 4 to 65536 examples, not " + std::to_string(*batch));
  }
  auto optimizer = lessons::parse_optimizer(*optimizer_text);
  if (!optimizer) return optimizer.error();
  const bool digits = *data == "digits";
  std::string layers = digits ? "64" : "2";
  for (int l = 0; l < std::stoi(*depth); ++l) layers += "," + *hidden;
  layers += digits ? ",10" : ",2";
  settings.data = *data;
  settings.layers = layers;
  settings.batch = static_cast<int>(*batch);
  settings.samples = settings.batch;  // the step's batch is the whole data set
  settings.optimizer = *optimizer;
  settings.seed = *seed;
  return settings;
}

std::unique_ptr<Lesson> make_training_lesson() {
  return std::make_unique<TrainingLesson>();
}

}  // namespace tl::compute
