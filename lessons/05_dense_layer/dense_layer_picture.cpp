#include "dense_layer_picture.hpp"

#include <algorithm>

namespace tl::lessons {
namespace {

// Mean of values[begin, end); the sum is kept in double so a cell of a million weights stays exact
// enough to draw.
float mean(std::span<const float> values, CellRange range) {
  double sum = 0;
  for (std::uint64_t i = range.begin; i < range.end; ++i) sum += values[i];
  return static_cast<float>(sum / static_cast<double>(range.end - range.begin));
}

ValueRange range_of(const std::vector<float>& values) {
  if (values.empty()) return {};
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  return {*lo, *hi};
}

}  // namespace

CellRange cell_range(std::uint32_t cell, std::uint32_t cells, std::uint64_t count) {
  return {cell * count / cells, (std::uint64_t{cell} + 1) * count / cells};
}

LayerPicture summarize_layer(const DenseLayerParams& params, const DenseLayerData& data,
                             std::span<const float> y, std::uint32_t max_cells) {
  LayerPicture picture;
  picture.in = params.in;
  picture.out = params.out;
  max_cells = std::max(1u, max_cells);
  picture.input_cells = static_cast<std::uint32_t>(std::min<std::uint64_t>(params.in, max_cells));
  picture.neuron_cells = static_cast<std::uint32_t>(std::min<std::uint64_t>(params.out, max_cells));
  const std::span<const float> weights = data.weights;
  const std::span<const float> first_input = std::span<const float>(data.inputs).first(params.in);

  for (std::uint32_t c = 0; c < picture.input_cells; ++c) {
    picture.inputs.push_back(mean(first_input, cell_range(c, picture.input_cells, params.in)));
  }
  picture.weights.reserve(std::size_t{picture.neuron_cells} * picture.input_cells);
  for (std::uint32_t k = 0; k < picture.neuron_cells; ++k) {
    const CellRange neurons = cell_range(k, picture.neuron_cells, params.out);
    for (std::uint32_t c = 0; c < picture.input_cells; ++c) {
      const CellRange inputs = cell_range(c, picture.input_cells, params.in);
      double sum = 0;
      for (std::uint64_t o = neurons.begin; o < neurons.end; ++o) {
        for (std::uint64_t i = inputs.begin; i < inputs.end; ++i) sum += weights[o * params.in + i];
      }
      const double count =
          static_cast<double>((neurons.end - neurons.begin) * (inputs.end - inputs.begin));
      picture.weights.push_back(static_cast<float>(sum / count));
    }
  }
  if (y.size() >= params.out) {
    const std::span<const float> first_output = y.first(params.out);
    for (std::uint32_t k = 0; k < picture.neuron_cells; ++k) {
      picture.outputs.push_back(
          mean(first_output, cell_range(k, picture.neuron_cells, params.out)));
    }
  }
  picture.input_range = range_of(picture.inputs);
  picture.weight_range = range_of(picture.weights);
  picture.output_range = range_of(picture.outputs);
  return picture;
}

Rgb layer_cell_color(float value, ValueRange range) {
  if (range.min < 0.0f && range.max > 0.0f) {
    const float largest = std::max(-range.min, range.max);
    return diverging_color(value / largest);
  }
  const float span = range.max - range.min;
  if (!(span > 0.0f)) return sequential_color(0.5f);
  return sequential_color((value - range.min) / span);
}

}  // namespace tl::lessons
