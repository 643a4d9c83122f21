#pragma once
// A small picture of a dense layer for the lesson view: the input vector as a strip of cells, W as
// a heatmap, the output vector as another strip. A real layer has millions of weights, so the
// picture averages W over at most max_cells × max_cells cells, and averages the first batch row's
// inputs and outputs over the same column and row groups, so that strip and heatmap line up: input
// cell j feeds heatmap column j, heatmap row k produces output cell k. A layer with at most
// max_cells inputs and neurons is drawn exactly, one cell per value.

#include <cstdint>
#include <span>
#include <vector>

#include "core/color_scheme.hpp"
#include "lessons/05_dense_layer/dense_layer.hpp"

namespace tl::lessons {

// The half-open range [begin, end) of the `count` items that cell `cell` of `cells` covers: the
// items are split as evenly as integers allow, every cell covers at least one item when cells <=
// count.
struct CellRange {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
};
[[nodiscard]] CellRange cell_range(std::uint32_t cell, std::uint32_t cells, std::uint64_t count);

struct ValueRange {
  float min = 0;
  float max = 0;
};

struct LayerPicture {
  std::uint32_t input_cells = 0;   // heatmap columns: min(in, max_cells)
  std::uint32_t neuron_cells = 0;  // heatmap rows: min(out, max_cells)
  std::uint64_t in = 0;            // the layer's size, for captions
  std::uint64_t out = 0;
  std::vector<float> inputs;   // input_cells means of X[0][...]
  std::vector<float> weights;  // neuron_cells × input_cells means of W, row-major
  std::vector<float> outputs;  // neuron_cells means of Y[0][...]; empty when no Y was given
  // Colour scales: the smallest and largest value drawn in each part.
  ValueRange input_range;
  ValueRange weight_range;
  ValueRange output_range;
};

inline constexpr std::uint32_t kLayerPictureMaxCells = 32;

// `y` is the layer's output (batch × out) or empty when it has not been computed yet.
LayerPicture summarize_layer(const DenseLayerParams& params, const DenseLayerData& data,
                             std::span<const float> y,
                             std::uint32_t max_cells = kLayerPictureMaxCells);

// The colour of one cell of the picture whose part spans `range`: signed data (weights, inputs
// around zero) on the diverging ramp scaled by the largest magnitude, so zero is always grey;
// data of one sign (the sigmoid's outputs) on the sequential ramp from min to max. A part whose
// values are all equal gets the ramp's middle.
[[nodiscard]] Rgb layer_cell_color(float value, ValueRange range);

}  // namespace tl::lessons
