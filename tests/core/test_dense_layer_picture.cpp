// The small picture of a dense layer: exact for small layers, cell means for large ones, colour
// ranges over what is drawn.

#include "lessons/05_dense_layer/dense_layer_picture.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace tl::lessons {
namespace {

DenseLayerParams layer(std::uint64_t batch, std::uint64_t in, std::uint64_t out) {
  DenseLayerParams params;
  params.batch = batch;
  params.in = in;
  params.out = out;
  return params;
}

TEST(DenseLayerPicture, CellRangesSplitEvenlyAndCoverEverything) {
  for (std::uint64_t count : {1ull, 7ull, 32ull, 33ull, 100ull, 4096ull}) {
    const std::uint32_t cells = static_cast<std::uint32_t>(std::min<std::uint64_t>(count, 32));
    std::uint64_t next = 0;
    for (std::uint32_t c = 0; c < cells; ++c) {
      const CellRange range = cell_range(c, cells, count);
      EXPECT_EQ(range.begin, next) << count << " " << c;
      EXPECT_GT(range.end, range.begin) << count << " " << c;
      const std::uint64_t size = range.end - range.begin;
      EXPECT_TRUE(size == count / cells || size == count / cells + 1) << count << " " << c;
      next = range.end;
    }
    EXPECT_EQ(next, count);
  }
}

TEST(DenseLayerPicture, SmallLayerIsDrawnExactly) {
  const DenseLayerParams p = layer(2, 3, 2);
  DenseLayerData data;
  data.weights = {1, 2, 3, -4, -5, -6};
  data.bias = {0, 0};
  data.inputs = {0.5f, -0.5f, 0.25f, 9, 9, 9};  // the second row is not drawn
  const std::vector<float> y = {0.1f, 0.9f, 0.3f, 0.4f};
  const LayerPicture picture = summarize_layer(p, data, y);
  EXPECT_EQ(picture.input_cells, 3u);
  EXPECT_EQ(picture.neuron_cells, 2u);
  EXPECT_EQ(picture.in, 3u);
  EXPECT_EQ(picture.out, 2u);
  EXPECT_EQ(picture.inputs, (std::vector<float>{0.5f, -0.5f, 0.25f}));
  EXPECT_EQ(picture.weights, data.weights);
  EXPECT_EQ(picture.outputs, (std::vector<float>{0.1f, 0.9f}));
  EXPECT_EQ(picture.input_range.min, -0.5f);
  EXPECT_EQ(picture.input_range.max, 0.5f);
  EXPECT_EQ(picture.weight_range.min, -6.0f);
  EXPECT_EQ(picture.weight_range.max, 3.0f);
  EXPECT_EQ(picture.output_range.min, 0.1f);
  EXPECT_EQ(picture.output_range.max, 0.9f);
}

TEST(DenseLayerPicture, LargeLayerIsAveragedOverAlignedCells) {
  // W[o][i] = o + i / 1000: each heatmap cell averages 2 neurons × 4 inputs.
  const DenseLayerParams p = layer(1, 128, 64);
  DenseLayerData data;
  data.weights.resize(p.out * p.in);
  for (std::uint64_t o = 0; o < p.out; ++o) {
    for (std::uint64_t i = 0; i < p.in; ++i) {
      data.weights[o * p.in + i] = static_cast<float>(o) + static_cast<float>(i) / 1000.0f;
    }
  }
  data.bias.assign(p.out, 0.0f);
  data.inputs.resize(p.in);
  for (std::uint64_t i = 0; i < p.in; ++i) data.inputs[i] = static_cast<float>(i);
  std::vector<float> y(p.out);
  for (std::uint64_t o = 0; o < p.out; ++o) y[o] = static_cast<float>(o) * 10.0f;

  const LayerPicture picture = summarize_layer(p, data, y, 32);
  ASSERT_EQ(picture.input_cells, 32u);
  ASSERT_EQ(picture.neuron_cells, 32u);
  ASSERT_EQ(picture.weights.size(), 32u * 32u);
  // Input cell 1 holds inputs 4..7, output cell 3 neurons 6 and 7.
  EXPECT_FLOAT_EQ(picture.inputs[1], 5.5f);
  EXPECT_FLOAT_EQ(picture.outputs[3], 65.0f);
  // Cell (row 3, column 1): neurons 6..7, inputs 4..7: mean 6.5 + 5.5 / 1000.
  EXPECT_NEAR(picture.weights[3 * 32 + 1], 6.5f + 0.0055f, 1e-5f);
  EXPECT_FLOAT_EQ(picture.input_range.min, 1.5f);
  EXPECT_FLOAT_EQ(picture.input_range.max, 125.5f);
  EXPECT_NEAR(picture.weight_range.min, 0.5f + 0.0015f, 1e-5f);
  EXPECT_NEAR(picture.weight_range.max, 62.5f + 0.1255f, 1e-4f);
  EXPECT_FLOAT_EQ(picture.output_range.max, 625.0f);
}

TEST(DenseLayerPicture, WithoutOutputsOnlyInputsAndWeightsAreDrawn) {
  const DenseLayerParams p = layer(4, 40, 3);
  const DenseLayerData data = make_dense_layer_data(p, 5);
  const LayerPicture picture = summarize_layer(p, data, {}, 16);
  EXPECT_EQ(picture.input_cells, 16u);
  EXPECT_EQ(picture.neuron_cells, 3u);
  EXPECT_EQ(picture.weights.size(), 48u);
  EXPECT_TRUE(picture.outputs.empty());
  EXPECT_EQ(picture.output_range.min, 0.0f);
  EXPECT_EQ(picture.output_range.max, 0.0f);
  EXPECT_LE(picture.weight_range.min, picture.weight_range.max);
}

TEST(DenseLayerPicture, SignedPartsCentreTheirColoursOnZero) {
  // Weights in [-0.5, 0.25]: zero is the grey centre, -0.5 the full blue end, and +0.25 only
  // halfway to orange, because the scale is the largest magnitude on either side.
  const ValueRange weights{-0.5f, 0.25f};
  EXPECT_EQ(layer_cell_color(0.0f, weights), diverging_color(0.0f));
  EXPECT_EQ(layer_cell_color(-0.5f, weights), diverging_color(-1.0f));
  EXPECT_EQ(layer_cell_color(0.25f, weights), diverging_color(0.5f));
  EXPECT_NE(layer_cell_color(0.25f, weights), layer_cell_color(-0.25f, weights));
}

TEST(DenseLayerPicture, OneSignedPartsSpanTheSequentialRamp) {
  // Sigmoid outputs in [0.2, 0.6]: the smallest is the ramp's dark end, the largest its light end.
  const ValueRange outputs{0.2f, 0.6f};
  EXPECT_EQ(layer_cell_color(0.2f, outputs), sequential_color(0.0f));
  EXPECT_EQ(layer_cell_color(0.6f, outputs), sequential_color(1.0f));
  EXPECT_EQ(layer_cell_color(0.4f, outputs), sequential_color(0.5f));
  // All values equal: no division by zero, the middle of the ramp.
  EXPECT_EQ(layer_cell_color(0.3f, {0.3f, 0.3f}), sequential_color(0.5f));
}

TEST(DenseLayerPicture, DivergingRampIsMonotoneInLightnessAwayFromZero) {
  // Sign is hue, magnitude is distance from the grey centre: the ends differ from the centre and
  // from each other, and values beyond [-1, 1] clamp.
  EXPECT_NE(diverging_color(-1.0f), diverging_color(0.0f));
  EXPECT_NE(diverging_color(1.0f), diverging_color(0.0f));
  EXPECT_NE(diverging_color(-1.0f), diverging_color(1.0f));
  EXPECT_EQ(diverging_color(3.0f), diverging_color(1.0f));
  EXPECT_EQ(diverging_color(-3.0f), diverging_color(-1.0f));
  EXPECT_GT(diverging_color(-1.0f).b, diverging_color(-1.0f).r);  // blue below zero
  EXPECT_GT(diverging_color(1.0f).r, diverging_color(1.0f).b);    // orange above
}

}  // namespace
}  // namespace tl::lessons
