#pragma once
// Lesson 5, a dense layer Y = sigmoid(X · Wᵀ + b), behind the Lesson interface. A timed run
// measures the unfused, fused and cuBLAS paths side by side on the same data; a traced run records
// who computed each element of Y on the selected path.
// A timed run's report also carries the small picture of the layer (input strip, weight heatmap,
// output strip).

#include <memory>
#include <optional>

#include "compute/lessons/parameterized_lesson.hpp"
#include "lessons/05_dense_layer/dense_layer.hpp"
#include "lessons/05_dense_layer/dense_layer_picture.hpp"

namespace tl::compute {

class DenseLayerLesson final : public ParameterizedLesson {
 public:
  DenseLayerLesson();

  // The selected path's configuration; every path's kernels launch with it.
  [[nodiscard]] LaunchConfig launch_config() const override { return config_; }
  // Y: batch rows of `out` neurons.
  [[nodiscard]] DataShape data_shape() const override {
    return lessons::dense_layer_trace_shape(layer_);
  }

  // The fused kernel, or the unfused chain's product (where its time goes); none for cuBLAS.
  [[nodiscard]] std::optional<std::string> occupancy_kernel() const override;
  [[nodiscard]] std::optional<KernelWork> longest_kernel() const override;

  Result<LessonReport> run_timed(Device& device, const std::atomic<bool>* cancel) override;
  Result<TracedLaunch> run_traced(Device& device, TraceSink& sink) override;

  [[nodiscard]] std::string size_label() const override { return "batch"; }
  [[nodiscard]] std::vector<std::uint64_t> sweep_sizes(const Device& device) const override;
  [[nodiscard]] std::vector<BlockStep> block_sweep() const override;
  [[nodiscard]] std::optional<std::pair<TimingKey, TimingKey>> crossover() const override;

 private:
  Status apply(const lessons::ParamReader& reader, const lessons::ParamValues& values) override;

  lessons::DenseLayerParams layer_;
  LaunchConfig config_;
};

std::unique_ptr<Lesson> make_dense_layer_lesson();

// The layer drawn small, as a timed run's report carries it for the lesson's views.
struct LayerPictureAttachment final : LessonAttachment {
  explicit LayerPictureAttachment(lessons::LayerPicture p) : picture(std::move(p)) {}
  lessons::LayerPicture picture;
};

// The picture a report carries; null when it has none.
[[nodiscard]] inline const lessons::LayerPicture* layer_picture(
    const std::shared_ptr<const LessonAttachment>& attachment) {
  const auto* layer = dynamic_cast<const LayerPictureAttachment*>(attachment.get());
  return layer == nullptr ? nullptr : &layer->picture;
}

}  // namespace tl::compute
