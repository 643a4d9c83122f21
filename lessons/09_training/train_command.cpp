// `threadlab train`: trains the capstone's network headless, printing the loss and the accuracy of
// every epoch, and writes the curves (CSV) and the final decision boundary (PNG). Exit 0 when
// training ran to the end, 1 when it diverged (naming the step) or could not run, 2 on bad usage.
// With --gpus N (N ≥ 2) it trains data parallel on N GPUs (data_parallel.hpp), then times the step
// on 1..N GPUs at the same global batch and prints the scaling against the ideal.

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "compute/device.hpp"
#include "compute/lessons/lesson_command.hpp"
#include "core/backend_name.hpp"
#include "core/format.hpp"
#include "core/user_files.hpp"
#include "data_parallel.hpp"
#include "mlp_trainer.hpp"
#include "train_command.hpp"
#include "training_picture.hpp"

namespace tl::lessons {
namespace {

constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;

constexpr const char* kHelp =
    R"(Train a small neural network with ThreadLab's own kernels, headless.
Usage: threadlab train [options]

  --backend B          auto (a CUDA GPU if there is one, else the emulator), gpu or emulator
  --data NAME          spirals, circles, blobs (2 inputs, 2 classes) or digits (64 inputs, 10
                       classes); default spirals
  --samples N          examples in the data set (default 2000; emulator 600)
  --layers W,W,...     widths from the inputs to the classes (default 2,256,256,2; emulator
                       2,32,32,2; the hidden widths stay when --data changes the ends)
  --batch N            examples per step (default 100; emulator 50)
  --learning-rate X    step size (default 0.005 for adam; emulator 0.01)
  --optimizer O        adam (default) or sgd (with momentum)
  --momentum X         SGD's momentum (default 0.9)
  --epochs E           passes over the data set (default 100; emulator 60)
  --seed S             seed of the data, the weights and the shuffles (default 1)
  --curves FILE        write epoch, steps, losses, accuracies and seconds as CSV
  --boundary FILE      write the final decision boundary as a PNG (2-input data only)
  --boundary-size N    its side in pixels (default 256; emulator 128)
  --progress, --no-progress
                       the per-epoch progress bar (default: on a terminal)
  --gpus N             data parallel on N CUDA GPUs (default 1): each takes 1/N of every batch,
                       NCCL sums their gradients (an all-reduce), every GPU makes the same update;
                       then the step is timed on 1..N GPUs at the same batch: each GPU's share,
                       step time, all-reduce time and bytes, speedup against the ideal N×.
                       Needs N GPUs and NCCL (libnccl.so.2: $THREADLAB_NCCL_LIBRARY, the CUDA
                       toolkit's lib64, then the loader's path); refused (exit 1) without them
  --format F           that scaling table as table (default), csv or json; with csv or json the
                       per-epoch lines go to stderr
  --scaling-repeats R  timed steps per GPU count (default 50)
  --help               this text

Exit status: 0 trained, 1 diverged (the loss became NaN, infinite or exploded: the message names
the step) or could not run (e.g. --gpus 2 on a machine with one GPU), 2 bad usage.
)";

int usage_error(const compute::LessonCommandContext& io, const std::string& message) {
  // The message may echo an argument: a newline in it must not break the one line.
  io.err << "threadlab: train: " << one_line(message) << " (see threadlab train --help)\n";
  return kExitUsage;
}

int failed(const compute::LessonCommandContext& io, const std::string& message) {
  io.err << "threadlab: train: " << one_line(message) << "\n";
  return kExitFailed;
}

template <class T>
bool parse_number(const std::string& text, T& value) {
  if constexpr (std::is_floating_point_v<T>) {
    try {
      std::size_t used = 0;
      value = static_cast<T>(std::stod(text, &used));
      return used == text.size() && std::isfinite(value);
    } catch (...) {
      return false;
    }
  } else {
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc() && end == text.data() + text.size();
  }
}

std::string bar(int done, int total) {
  constexpr int kWidth = 24;
  const int filled = total > 0 ? done * kWidth / total : kWidth;
  return "[" + std::string(filled, '#') + std::string(kWidth - filled, '-') + "]";
}

// The hidden widths of `layers` ("2,256,256,2" → "256,256,"), for defaults that follow the data.
std::string hidden_part(const std::string& layers) {
  const auto first = layers.find(',');
  const auto last = layers.rfind(',');
  if (first == std::string::npos || first == last) return "";
  return layers.substr(first + 1, last - first);
}

// What the command line asks for, every value checked, before any device is opened.
struct TrainRequest {
  std::map<std::string, std::string> given;  // --option → its value, as typed
  std::optional<bool> progress;
  bool help = false;
  std::string backend = "auto";
  int gpus = 1;
  int scaling_repeats = 50;
  std::string format = "table";
};

// The arguments' own mistakes (an unknown option, a missing or malformed value): the reason, for
// usage_error.
Result<TrainRequest> parse_train_request(std::span<const std::string> args) {
  static const std::set<std::string> kValued{
      "--backend",       "--data",          "--samples",   "--layers",
      "--batch",         "--learning-rate", "--optimizer", "--momentum",
      "--epochs",        "--seed",          "--curves",    "--boundary",
      "--boundary-size", "--gpus",          "--format",    "--scaling-repeats"};
  TrainRequest request;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string arg = args[i];
    if (arg == "--help" || arg == "-h") {
      request.help = true;
      return request;
    }
    if (arg == "--progress" || arg == "--no-progress") {
      request.progress = arg == "--progress";
      continue;
    }
    std::string value;
    const auto equals = arg.find('=');
    if (equals != std::string::npos) {
      value = arg.substr(equals + 1);
      arg = arg.substr(0, equals);
    }
    if (kValued.count(arg) == 0) return invalid_argument("unknown option '" + args[i] + "'");
    if (equals == std::string::npos) {
      if (i + 1 >= args.size()) return invalid_argument(arg + " needs a value");
      value = args[++i];
    }
    request.given[arg] = value;
  }
  auto& given = request.given;
  if (given.count("--backend")) request.backend = given["--backend"];
  // Every command's backend names (core/backend_name.hpp), held as the canonical one. Training
  // draws no traces, so gpu-copy would be gpu under another name: refused.
  {
    auto name = parse_backend_name(request.backend);
    if (!name || *name == BackendName::kGpuCopy) {
      return invalid_argument("--backend must be auto, gpu or emulator, not '" + request.backend +
                              "'");
    }
    request.backend = std::string(to_string(*name));
  }
  if (given.count("--gpus") &&
      (!parse_number(given["--gpus"], request.gpus) || request.gpus < 1 || request.gpus > 64)) {
    return invalid_argument("--gpus must be a whole number from 1 to 64");
  }
  if (given.count("--scaling-repeats") &&
      (!parse_number(given["--scaling-repeats"], request.scaling_repeats) ||
       request.scaling_repeats < 1 || request.scaling_repeats > 100000)) {
    return invalid_argument("--scaling-repeats must be a whole number from 1 to 100000");
  }
  if (given.count("--format")) request.format = given["--format"];
  if (request.format != "table" && request.format != "csv" && request.format != "json") {
    return invalid_argument("--format must be table, csv or json, not '" + request.format + "'");
  }
  if (request.gpus < 2 && (given.count("--format") || given.count("--scaling-repeats"))) {
    return invalid_argument(
        "--format and --scaling-repeats are for the data parallel table (--gpus 2 or more)");
  }
  return request;
}

// The training run's settings: the device's defaults (the emulator's are smaller) with the command
// line's values over them, all checked as the trainer would check them.
struct TrainPlan {
  TrainingSettings settings;
  int boundary_side = 256;
};

Result<TrainPlan> training_plan(TrainRequest& request, bool on_gpu) {
  auto& given = request.given;
  TrainPlan plan;
  TrainingSettings& settings = plan.settings;
  settings = on_gpu ? TrainingSettings{} : emulator_training_settings();
  const std::string layers_default = settings.layers;
  plan.boundary_side = on_gpu ? 256 : 128;
  const auto number_option = [&](const char* name, auto& into) -> bool {
    if (!given.count(name)) return true;
    return parse_number(given[name], into);
  };
  if (!number_option("--samples", settings.samples))
    return invalid_argument("--samples must be a whole number");
  if (!number_option("--batch", settings.batch))
    return invalid_argument("--batch must be a whole number");
  if (!number_option("--epochs", settings.epochs))
    return invalid_argument("--epochs must be a whole number");
  if (!number_option("--seed", settings.seed))
    return invalid_argument("--seed must be a whole number");
  if (!number_option("--learning-rate", settings.learning_rate)) {
    return invalid_argument("--learning-rate must be a number, e.g. 0.005 or 1e-3");
  }
  if (!number_option("--momentum", settings.momentum))
    return invalid_argument("--momentum must be a number");
  if (!number_option("--boundary-size", plan.boundary_side) || plan.boundary_side < 16 ||
      plan.boundary_side > 4096) {
    return invalid_argument("--boundary-size must be a whole number from 16 to 4096");
  }
  if (given.count("--optimizer")) {
    auto optimizer = parse_optimizer(given["--optimizer"]);
    if (!optimizer) return optimizer.error();
    settings.optimizer = *optimizer;
  }
  if (given.count("--data")) settings.data = given["--data"];
  // Without --layers, the default hidden widths between this data set's inputs and classes.
  if (given.count("--layers")) {
    settings.layers = given["--layers"];
  } else if (settings.data == "digits") {
    settings.layers = "64," + hidden_part(layers_default) + "10";
  }
  // Every value the trainer would refuse, refused here, before a device or the data is made.
  TL_RETURN_IF_ERROR(validate_training_settings(settings));
  if (given.count("--boundary")) {
    // Four examples say how many inputs the data set has; the boundary is a plane of two.
    auto sample = make_training_data(settings.data, 4, settings.seed);
    if (!sample) return sample.error();
    if (!sample->planar()) {
      return invalid_argument("--boundary draws the plane of 2-input data; " + settings.data +
                              " has " + std::to_string(sample->inputs) + " inputs");
    }
  }
  return plan;
}

// `threadlab train ...` checked as it would run, without running: 0, or 2 with the reason.
int check_train(std::span<const std::string> args, std::ostream& err) {
  const compute::LessonCommandContext io{err, err, nullptr, false};
  auto request = parse_train_request(args);
  if (!request) return usage_error(io, request.message());
  if (request->help) return 0;
  // Whether the GPUs are there is the run's question (an exit 1), not the command line's.
  const bool on_gpu = request->gpus >= 2 || request->backend == "gpu";
  auto plan = training_plan(*request, on_gpu);
  if (!plan) return usage_error(io, plan.message());
  return 0;
}

int run_train(std::span<const std::string> args, const compute::LessonCommandContext& io) {
  auto request = parse_train_request(args);
  if (!request) return usage_error(io, request.message());
  if (request->help) {
    io.out << kHelp;
    return 0;
  }
  auto& given = request->given;
  const std::string& backend = request->backend;
  const int gpus = request->gpus;
  const int scaling_repeats = request->scaling_repeats;
  const std::string& format = request->format;
  if (gpus >= 2) {
    if (backend == "emulator") {
      return failed(io, "--gpus " + std::to_string(gpus) +
                            " trains on GPUs, and --backend emulator has none");
    }
    const Status available = gpu_data_parallel_available(gpus);
    if (!available.is_ok()) {
      return failed(io, "--gpus " + std::to_string(gpus) + ": " + available.message());
    }
  }
  std::unique_ptr<compute::Device> device;
  std::string why_emulator;
  if (gpus >= 2) {
    // The replicas make their own devices, each on its own thread; this one names the first.
  } else if (backend != "emulator") {
    auto cuda = compute::make_cuda_device(0);
    if (cuda) {
      device = std::move(*cuda);
    } else if (backend == "gpu") {
      return failed(io, "no CUDA device: " + cuda.message());
    } else {
      why_emulator = cuda.message();
    }
  }
  if (!device && gpus < 2) device = compute::make_emulator_device();
  const bool on_gpu = gpus >= 2 || device->is_gpu();

  auto plan = training_plan(*request, on_gpu);
  if (!plan) return usage_error(io, plan.message());
  const TrainingSettings& settings = plan->settings;
  const int boundary_side = plan->boundary_side;

  // One device's trainer, or the data parallel replicas': the loop below drives either.
  std::unique_ptr<MlpTrainer> single;
  std::unique_ptr<DataParallelTrainer> parallel;
  if (gpus >= 2) {
    auto made =
        DataParallelTrainer::create(settings, gpus, gpu_replica_devices(), nccl_all_reduces());
    if (!made) {
      if (made.error().kind == ErrorKind::kInvalidArgument) return usage_error(io, made.message());
      return failed(io, made.message());
    }
    parallel = std::move(*made);
  } else {
    auto made = MlpTrainer::create(*device, settings);
    if (!made) {
      if (made.error().kind == ErrorKind::kInvalidArgument) return usage_error(io, made.message());
      return failed(io, made.message());
    }
    single = std::move(*made);
  }
  const TrainingData& data = single ? single->data() : parallel->data();
  const MlpShape& shape = single ? single->shape() : parallel->shape();
  const int steps_per_epoch = single ? single->steps_per_epoch() : parallel->steps_per_epoch();
  const bool show_progress = request->progress.value_or(io.interactive);
  // With a CSV or JSON table on stdout, everything else goes to stderr.
  std::ostream& out = format == "table" ? io.out : io.err;

  out << "training " << shape.to_string() << " (" << shape.parameter_count() << " parameters) on "
      << settings.data << " (" << data.count() << " examples), "
      << "batch " << settings.batch << ", " << optimizer_name(settings.optimizer)
      << " at learning rate " << settings.learning_rate << ", " << settings.epochs << " epochs of "
      << steps_per_epoch << " steps, seed " << settings.seed << "\n";
  if (parallel) {
    out << "data parallel on " << gpus << " GPUs, gradients summed by "
        << parallel->all_reduce_name() << " (" << parallel->gradient_bytes() << " bytes a step):\n";
    for (int r = 0; r < gpus; ++r) {
      out << "  GPU " << r << ": " << parallel->device_name(r) << ", "
          << batch_share(settings.batch, gpus, r).rows << " examples of each batch of "
          << settings.batch << "\n";
    }
  } else {
    out << "device: " << device->info().name
        << (device->is_gpu()
                ? ""
                : " (the CPU emulator: smaller defaults; " +
                      (why_emulator.empty() ? std::string("asked for") : why_emulator) + ")")
        << "\n";
  }

  std::vector<EpochSummary> epochs;
  std::string diverged;
  for (int e = 0; e < settings.epochs; ++e) {
    auto summary = single ? single->train_epoch() : parallel->train_epoch();
    if (!summary) {
      diverged = summary.message();
      break;
    }
    epochs.push_back(*summary);
    char line[200];
    std::snprintf(line, sizeof line, "epoch %*d/%d %s loss %.4f  accuracy %6.2f %%  (%.2f s)",
                  static_cast<int>(std::to_string(settings.epochs).size()), summary->epoch,
                  settings.epochs,
                  show_progress ? bar(summary->epoch, settings.epochs).c_str() : "", summary->loss,
                  100.0 * summary->accuracy, summary->seconds);
    out << line << "\n";
    out.flush();
  }

  if (given.count("--curves")) {
    std::string csv = "epoch,steps,train_loss,train_accuracy,loss,accuracy,seconds\n";
    for (const EpochSummary& s : epochs) {
      char row[200];
      std::snprintf(row, sizeof row, "%d,%lld,%.9g,%.6f,%.9g,%.6f,%.4f\n", s.epoch,
                    static_cast<long long>(s.steps), s.train_loss, s.train_accuracy, s.loss,
                    s.accuracy, s.seconds);
      csv += row;
    }
    // Checked through to the close: a full disk is an exit 1, not a silently empty file.
    const Status written = write_output_file(given["--curves"], csv);
    if (!written) return failed(io, written.message());
  }
  if (!diverged.empty()) return failed(io, diverged);

  const EpochSummary& last = epochs.back();
  char done[200];
  std::snprintf(done, sizeof done,
                "trained: %lld steps in %.2f s, accuracy %.2f %% and loss %.4f over the %d "
                "examples\n",
                static_cast<long long>(last.steps), last.seconds, 100.0 * last.accuracy, last.loss,
                data.count());
  out << done;

  if (given.count("--boundary")) {
    const std::vector<float> points = boundary_points(boundary_side);
    auto probabilities = single ? single->probabilities(points) : parallel->probabilities(points);
    if (!probabilities) return failed(io, probabilities.message());
    const auto image = boundary_image(*probabilities, boundary_side, shape.classes(), data);
    const Status written = io.write_png(given["--boundary"], boundary_side, boundary_side, image);
    if (!written.is_ok()) return failed(io, written.message());
    out << "decision boundary: " << given["--boundary"] << "\n";
  }
  if (parallel) {
    // The replicas give their GPUs back before the timing makes its own, 1 to N of them.
    parallel.reset();
    out << "timing the step on 1 to " << gpus << " GPUs at batch " << settings.batch << " ("
        << scaling_repeats << " steps each)...\n";
    out.flush();
    auto scaling =
        measure_scaling(settings, gpus, gpu_replica_devices(), nccl_all_reduces(), scaling_repeats);
    if (!scaling) return failed(io, "timing the data parallel step: " + scaling.message());
    io.out << (format == "csv"    ? scaling_csv(*scaling)
               : format == "json" ? scaling_json(*scaling)
                                  : scaling_table(*scaling));
  }
  return 0;
}

}  // namespace

const compute::LessonCommand& train_command() {
  static const compute::LessonCommand kCommand{
      "train", "Train the capstone's neural network headless: loss and accuracy per epoch",
      &run_train, &check_train};
  return kCommand;
}

}  // namespace tl::lessons
