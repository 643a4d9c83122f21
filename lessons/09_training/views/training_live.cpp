#include "training_live.hpp"

#include <array>

#include "lesson_view_context.hpp"
#include "lessons/09_training/training_data.hpp"
#include "lessons/09_training/training_picture.hpp"

namespace tl::ui::training_views {
namespace {

constexpr std::uint32_t kBatchLossColour = plot::rgba(0x9A, 0xA4, 0xB8);
constexpr std::uint32_t kDataSetColour = plot::rgba(0xE6, 0x9F, 0x00);

plot::PlotSeries series(std::string name, const std::vector<lessons::CurvePoint>& points,
                        std::uint32_t colour, double scale) {
  plot::PlotSeries s;
  s.name = std::move(name);
  s.key = {TimingRole::kChainStep, s.name};
  s.color = colour;
  s.points.reserve(points.size());
  for (const lessons::CurvePoint& p : points) {
    const double y = p.value * scale;
    s.points.push_back({static_cast<double>(p.step), y, y, y, 0, 0});
  }
  return s;
}

std::string path_name(BackendKind kind) {
  switch (kind) {
    case BackendKind::kCudaInterop:
      return "written by the network straight into the OpenGL buffer (CUDA-GL interop)";
    case BackendKind::kCudaCopy:
      return "computed on the GPU, copied to the host and uploaded (no interop here)";
    case BackendKind::kEmulator:
      return "computed on the CPU by the emulator and uploaded";
  }
  return "";
}

}  // namespace

TrainingLive::TrainingLive(LessonViewContext& context)
    : device_(context.lesson_device()), sink_kind_(context.state().backend) {
  sink_ = context.make_class_map_sink(map_, sink_kind_);
  boundary_path_ = path_name(sink_kind_);
  // The emulator runs every GPU thread on the CPU: a quarter of the boundary's points, half as
  // often, so that its steps are not mostly boundary.
  lessons::TrainingSessionOptions options;
  if (!device_.is_gpu()) {
    options.boundary_side = 64;
    options.refresh_every = 20;
  }
  session_ = std::make_unique<lessons::TrainingSession>(device_, options);
  snapshot_ = session_->snapshot();
  const lessons::TrainingSettings defaults =
      device_.is_gpu() ? lessons::TrainingSettings{} : lessons::emulator_training_settings();
  const auto names = lessons::training_data_names();
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == defaults.data) form_.data = static_cast<int>(i);
  }
  form_.layers = defaults.layers;
  form_.batch = defaults.batch;
  form_.samples = defaults.samples;
  form_.optimizer = defaults.optimizer == lessons::Optimizer::kAdam ? 1 : 0;
  form_.learning_rate = defaults.learning_rate;
  form_.seed = static_cast<int>(defaults.seed);
  (void)session_->reset(settings_from_form());
}

TrainingLive::~TrainingLive() {
  // The worker may be writing into the offered (mapped) buffer: it stops before the buffer goes.
  session_->stop();
  withdraw_offer();
  session_.reset();
}

void TrainingLive::withdraw_offer() {
  if (!offered_) return;
  session_->withdraw_boundary();
  sink_->abandon(device_);
  offered_ = false;
}

Result<std::vector<float>> TrainingLive::read_class_map(std::size_t floats) {
  withdraw_offer();
  return map_.read(floats);
}

lessons::TrainingSettings TrainingLive::settings_from_form() const {
  lessons::TrainingSettings s;
  const auto names = lessons::training_data_names();
  s.data = std::string(names[static_cast<std::size_t>(form_.data) % names.size()]);
  s.layers = form_.layers;
  s.batch = form_.batch;
  s.samples = form_.samples;
  s.optimizer = form_.optimizer == 1 ? lessons::Optimizer::kAdam : lessons::Optimizer::kSgdMomentum;
  s.learning_rate = form_.learning_rate;
  s.seed = static_cast<std::uint64_t>(form_.seed);
  return s;
}

bool TrainingLive::form_changed() const {
  const lessons::TrainingSettings a = settings_from_form(), &b = snapshot_->settings;
  return a.data != b.data || a.layers != b.layers || a.batch != b.batch || a.samples != b.samples ||
         a.optimizer != b.optimizer || a.learning_rate != b.learning_rate || a.seed != b.seed;
}

void TrainingLive::start() {
  const Status started = session_->start();
  problem_ = started ? "" : started.message();
}

void TrainingLive::pause() {
  session_->pause();
}

void TrainingLive::step() {
  const Status stepped = session_->step(std::max(form_.steps_per_click, 1));
  problem_ = stepped ? "" : stepped.message();
}

void TrainingLive::reset() {
  problem_.clear();
  (void)session_->reset(settings_from_form());
}

bool TrainingLive::busy() const {
  // Only while a step or a refresh runs: commands waiting for the device let a launch go first.
  return session_->running();
}

void TrainingLive::stop() {
  session_->stop();
}

void TrainingLive::wait_until_idle() {
  session_->wait_until_idle();
}

void TrainingLive::update(LessonViewContext& context) {
  // A measurement (a timed launch, a sweep) holds the device: training waits for it.
  device_free_ = !context.busy();
  if (device_free_) session_->update();
  const std::uint64_t before = snapshot_->version;
  take_snapshot();
  const lessons::TrainingSnapshot& s = *snapshot_;
  // A stop is also said in the status bar, once, for whoever is not looking at the tab.
  if (s.version != before && !s.error.empty() && s.error != announced_error_) {
    announced_error_ = s.error;
    context.post(
        s.phase == lessons::TrainingPhase::kDiverged ? Severity::kWarning : Severity::kError,
        "Training: " + s.error);
  }
  if (s.error.empty()) announced_error_.clear();
  deliver_boundary(context);
}

void TrainingLive::take_snapshot() {
  auto snapshot = session_->snapshot();
  if (snapshot == snapshot_) return;
  snapshot_ = std::move(snapshot);
  const lessons::TrainingSnapshot& s = *snapshot_;
  loss_ = {series("batch loss (each step)", s.batch_loss, kBatchLossColour, 1.0),
           series("loss over the data set", s.loss, kDataSetColour, 1.0)};
  accuracy_ = {series("batch accuracy (each step)", s.batch_accuracy, kBatchLossColour, 100.0),
               series("accuracy over the data set", s.accuracy, kDataSetColour, 100.0)};
}

void TrainingLive::deliver_boundary(LessonViewContext& context) {
  const lessons::TrainingSnapshot& s = *snapshot_;
  if (!s.data || !s.data->planar()) {
    withdraw_offer();
    return;
  }
  const int classes = s.data->classes;
  const int side = session_->options().boundary_side;
  if (offered_ && session_->take_boundary_written()) {
    offered_ = false;
    Status published = sink_->publish(device_);
    if (published) {
      std::vector<std::array<std::uint8_t, 3>> colours(static_cast<std::size_t>(offered_classes_));
      for (int c = 0; c < offered_classes_; ++c) lessons::class_colour(c, colours[c].data());
      published = map_.colour(side, offered_classes_, colours);
    }
    if (published) {
      boundary_texture_ = map_.texture();
      boundary_step_ = session_->snapshot()->boundary_step;
    } else {
      problem_ = "the decision boundary: " + published.message();
    }
  }
  if (offered_ && offered_classes_ != classes) withdraw_offer();  // a network of other classes
  if (offered_ || s.phase == lessons::TrainingPhase::kFailed) return;
  const std::size_t floats = static_cast<std::size_t>(side) * side * classes;
  auto destination = sink_->acquire(device_, floats);
  if (!destination && destination.error().kind == ErrorKind::kGraphicsError &&
      sink_kind_ == BackendKind::kCudaInterop) {
    // Interop refused here: the copy path delivers the same values through the host.
    sink_kind_ = BackendKind::kCudaCopy;
    sink_ = context.make_class_map_sink(map_, sink_kind_);
    boundary_path_ = path_name(sink_kind_) + " — interop failed: " + destination.message();
    destination = sink_->acquire(device_, floats);
  }
  if (!destination) {
    problem_ = "the decision boundary: " + destination.message();
    return;
  }
  session_->offer_boundary(*destination, floats);
  offered_ = true;
  offered_classes_ = classes;
}

std::unique_ptr<LessonLiveWork> make_training_live(LessonViewContext& context) {
  return std::make_unique<TrainingLive>(context);
}

TrainingLive* training_live(LessonViewContext& context) {
  return dynamic_cast<TrainingLive*>(context.lesson_live());
}

}  // namespace tl::ui::training_views
