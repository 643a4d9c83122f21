// Lesson 5's model: the sigmoid, the parameters and their validation, the inputs, the CPU
// references, the predicted CPU time and the check with its tolerance.

#include "lessons/05_dense_layer/dense_layer.hpp"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <limits>
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

TEST(DenseLayerSigmoid, KnownValuesSymmetryAndMonotonicity) {
  EXPECT_EQ(sigmoid_reference(0.0f), 0.5f);
  EXPECT_NEAR(sigmoid_reference(1.0f), 0.7310586f, 1e-7f);
  EXPECT_NEAR(sigmoid_reference(-1.0f), 0.2689414f, 1e-7f);
  float previous = 0.0f;
  for (float x = -30.0f; x <= 30.0f; x += 0.125f) {
    const float y = sigmoid_reference(x);
    EXPECT_NEAR(y + sigmoid_reference(-x), 1.0f, 2 * FLT_EPSILON) << x;  // σ(-x) = 1 - σ(x)
    EXPECT_GE(y, previous) << x;
    previous = y;
  }
}

TEST(DenseLayerSigmoid, ExtremeInputsNeverOverflowToNaN) {
  const float inf = std::numeric_limits<float>::infinity();
  for (float x : {88.0f, 89.0f, 100.0f, 1e4f, FLT_MAX, inf}) {
    EXPECT_EQ(sigmoid_reference(x), 1.0f) << x;
  }
  for (float x : {-1e4f, -FLT_MAX, -inf}) {
    EXPECT_EQ(sigmoid_reference(x), 0.0f) << x;
  }
  // Past -88, 1 / (1 + e^-x) would divide by infinity and give exactly 0; the stable form keeps
  // the tiny true value (e^-100 ≈ 3.7e-44, a subnormal float).
  EXPECT_GT(sigmoid_reference(-100.0f), 0.0f);
  EXPECT_NEAR(sigmoid_reference(-100.0f), 3.72e-44f, 3e-45f);
  EXPECT_NEAR(sigmoid_reference(-50.0f), 1.9287498e-22f, 1e-27f);
  // A NaN input (for example an element no thread computed) must stay visible.
  EXPECT_TRUE(std::isnan(sigmoid_reference(std::numeric_limits<float>::quiet_NaN())));
}

TEST(DenseLayerPathNames, RoundTripAndUnknownNames) {
  for (DenseLayerPath path :
       {DenseLayerPath::kUnfused, DenseLayerPath::kFused, DenseLayerPath::kCublas}) {
    auto parsed = parse_dense_layer_path(to_string(path));
    ASSERT_TRUE(parsed.is_ok());
    EXPECT_EQ(*parsed, path);
  }
  auto unknown = parse_dense_layer_path("cudnn");
  ASSERT_FALSE(unknown.is_ok());
  EXPECT_NE(unknown.message().find("unfused"), std::string::npos);
}

TEST(DenseLayerModel, Validation) {
  EXPECT_TRUE(validate_dense_layer(layer(1, 1, 1), 0).is_ok());
  EXPECT_TRUE(validate_dense_layer(layer(256, 4096, 4096), 0).is_ok());
  for (const DenseLayerParams& zero : {layer(0, 4, 4), layer(4, 0, 4), layer(4, 4, 0)}) {
    const Status status = validate_dense_layer(zero, 0);
    ASSERT_FALSE(status.is_ok());
    EXPECT_EQ(status.error().kind, ErrorKind::kInvalidArgument);
  }
  // W = 65536 × 32768 is 2^31 elements, one more than the int index reaches.
  EXPECT_TRUE(validate_dense_layer(layer(1, 32768, 65535), 0).is_ok());
  const Status too_big = validate_dense_layer(layer(1, 32768, 65536), 0);
  ASSERT_FALSE(too_big.is_ok());
  EXPECT_NE(too_big.message().find("int index"), std::string::npos);
  // Products that overflow 64 bits are refused, not wrapped around.
  EXPECT_FALSE(validate_dense_layer(layer(1ull << 40, 1ull << 40, 1ull << 40), 0).is_ok());
  // batch 2, in 3, out 4: W 12, X 6, b 4, Z 8, Y 8 floats = 152 bytes.
  EXPECT_EQ(dense_layer_device_bytes(layer(2, 3, 4)), 152u);
  EXPECT_TRUE(validate_dense_layer(layer(2, 3, 4), 152).is_ok());
  const Status no_memory = validate_dense_layer(layer(2, 3, 4), 151);
  ASSERT_FALSE(no_memory.is_ok());
  EXPECT_EQ(no_memory.error().kind, ErrorKind::kOutOfMemory);
}

TEST(DenseLayerModel, LaunchShapeFitsTheSharedMemoryTiles) {
  EXPECT_TRUE(validate_dense_layer_launch({{4, 4, 1}, {32, 8, 1}}).is_ok());
  EXPECT_TRUE(validate_dense_layer_launch({{1, 1, 1}, {1, 1, 1}}).is_ok());
  EXPECT_TRUE(validate_dense_layer_launch({{1, 1, 1}, {32, 32, 1}}).is_ok());
  for (const LaunchConfig& wrong :
       {LaunchConfig{{1, 1, 1}, {33, 1, 1}}, LaunchConfig{{1, 1, 1}, {256, 1, 1}},
        LaunchConfig{{1, 1, 1}, {32, 33, 1}}}) {
    const Status status = validate_dense_layer_launch(wrong);
    ASSERT_FALSE(status.is_ok()) << wrong.to_string();
    EXPECT_EQ(status.error().kind, ErrorKind::kInvalidArgument);
    EXPECT_NE(status.message().find("shared memory"), std::string::npos) << status.message();
  }
  EXPECT_FALSE(validate_dense_layer_launch({{1, 1, 1}, {32, 8, 2}}).is_ok());
  EXPECT_FALSE(validate_dense_layer_launch({{1, 1, 2}, {32, 8, 1}}).is_ok());
}

TEST(DenseLayerModel, CoveringConfigGivesEveryOutputAThread) {
  EXPECT_EQ(dense_layer_config(layer(3, 37, 29)), (LaunchConfig{{1, 1, 1}, {32, 8, 1}}));
  EXPECT_EQ(dense_layer_config(layer(1, 4096, 4096)), (LaunchConfig{{128, 1, 1}, {32, 8, 1}}));
  EXPECT_EQ(dense_layer_config(layer(257, 10, 33), {16, 4, 1}),
            (LaunchConfig{{3, 65, 1}, {16, 4, 1}}));
}

TEST(DenseLayerModel, FlopsAndBytesShowWhatFusingSaves) {
  const DenseLayerParams p = layer(2, 3, 4);
  EXPECT_DOUBLE_EQ(dense_layer_flops(p), 2.0 * 24 + 8);
  // W 12 + X 6 + b 4 + Y 8 floats, plus 0, 2 or 4 passes over Z (8 floats).
  EXPECT_DOUBLE_EQ(dense_layer_bytes(p, DenseLayerPath::kFused), 4.0 * 30);
  EXPECT_DOUBLE_EQ(dense_layer_bytes(p, DenseLayerPath::kCublas), 4.0 * 46);
  EXPECT_DOUBLE_EQ(dense_layer_bytes(p, DenseLayerPath::kUnfused), 4.0 * 62);
}

TEST(DenseLayerModel, InputsAreDeterministicAndScaled) {
  const DenseLayerParams p = layer(4, 300, 50);
  const DenseLayerData a = make_dense_layer_data(p, 7);
  const DenseLayerData b = make_dense_layer_data(p, 7);
  const DenseLayerData c = make_dense_layer_data(p, 8);
  EXPECT_EQ(a.weights, b.weights);
  EXPECT_EQ(a.inputs, b.inputs);
  EXPECT_NE(a.weights, c.weights);
  ASSERT_EQ(a.weights.size(), 300u * 50u);
  ASSERT_EQ(a.bias.size(), 50u);
  ASSERT_EQ(a.inputs.size(), 4u * 300u);
  const float limit = std::sqrt(3.0f / 300.0f) * (1.0f + 1e-6f);
  double variance = 0;
  for (float w : a.weights) {
    EXPECT_LE(std::abs(w), limit);
    variance += static_cast<double>(w) * w;
  }
  variance /= static_cast<double>(a.weights.size());
  EXPECT_NEAR(variance, 1.0 / 300.0, 0.1 / 300.0);  // LeCun scaling: variance 1 / in
  for (float bias : a.bias) EXPECT_LT(std::abs(bias), 0.5f + 1e-7f);
  for (float x : a.inputs) {
    EXPECT_GE(x, -1.0f);
    EXPECT_LT(x, 1.0f);
  }
}

TEST(DenseLayerModel, ReferenceComputesTheFormula) {
  // One input vector, two neurons, worked by hand.
  const DenseLayerParams p = layer(1, 2, 2);
  DenseLayerData data;
  data.weights = {1.0f, 2.0f, -1.0f, 0.5f};
  data.bias = {0.5f, -0.25f};
  data.inputs = {0.25f, -1.0f};
  std::vector<float> y(2);
  dense_layer_reference(p, data, y);
  EXPECT_FLOAT_EQ(y[0], sigmoid_reference(0.25f - 2.0f + 0.5f));
  EXPECT_FLOAT_EQ(y[1], sigmoid_reference(-0.25f - 0.5f - 0.25f));
}

TEST(DenseLayerModel, ParallelReferenceEqualsThePlainLoopExactly) {
  for (const DenseLayerParams& p : {layer(1, 1, 1), layer(3, 37, 29), layer(64, 513, 257)}) {
    const DenseLayerData data = make_dense_layer_data(p, 3);
    std::vector<float> single(p.outputs()), multi(p.outputs());
    dense_layer_reference(p, data, single);
    dense_layer_reference_parallel(p, data, multi, 4);
    EXPECT_EQ(single, multi) << p.batch << " " << p.in << " " << p.out;
    EXPECT_TRUE(check_dense_layer(p, data, single).passed);
  }
}

TEST(DenseLayerModel, ToleranceFollowsTheRoundingBound) {
  EXPECT_GT(dense_layer_tolerance(4096, 10.0), dense_layer_tolerance(64, 10.0));
  EXPECT_GT(dense_layer_tolerance(64, 20.0), dense_layer_tolerance(64, 10.0));
  // Even a one-term sum allows the sigmoid's own rounding.
  EXPECT_GE(dense_layer_tolerance(1, 0.0), 4.0 * FLT_EPSILON);
  // in = 1024, sum |w x| = 16: 0.25 * 1025 * 2^-24 * 16 ≈ 2.4e-4, plus 4.8e-7.
  EXPECT_NEAR(dense_layer_tolerance(1024, 16.0), 2.449e-4, 1e-6);
}

TEST(DenseLayerModel, CheckFindsWrongAndUnwrittenElements) {
  const DenseLayerParams p = layer(3, 37, 29);
  const DenseLayerData data = make_dense_layer_data(p, 1);
  std::vector<float> y(p.outputs());
  dense_layer_reference(p, data, y);
  const DenseCheckResult good = check_dense_layer(p, data, y);
  EXPECT_TRUE(good.passed) << good.describe();
  EXPECT_EQ(good.checked, p.outputs());
  EXPECT_EQ(good.total, p.outputs());
  EXPECT_LT(good.max_error, 1e-6);
  EXPECT_LE(good.max_error, good.tolerance_at_max);

  std::vector<float> wrong = y;
  wrong[1 * 29 + 5] += 0.01f;                                   // Y[1][5]
  wrong[2 * 29 + 7] = std::numeric_limits<float>::quiet_NaN();  // never written
  const DenseCheckResult bad = check_dense_layer(p, data, wrong);
  EXPECT_FALSE(bad.passed);
  EXPECT_EQ(bad.wrong_count, 2u);
  EXPECT_EQ(bad.first_wrong, 1u * 29 + 5);
  EXPECT_EQ(bad.first_wrong_row, 1u);
  EXPECT_EQ(bad.first_wrong_col, 5u);
  EXPECT_FLOAT_EQ(bad.actual, y[1 * 29 + 5] + 0.01f);
  EXPECT_TRUE(std::isinf(bad.max_error));
  EXPECT_NE(bad.describe().find("Y[1][5]"), std::string::npos) << bad.describe();
}

TEST(DenseLayerModel, LargeLayersAreCheckedOnASpreadOfRows) {
  const DenseLayerParams p = layer(10, 16, 8);
  const DenseLayerData data = make_dense_layer_data(p, 2);
  std::vector<float> y(p.outputs());
  dense_layer_reference(p, data, y);
  // A budget of 3 rows (3 × 16 × 8 multiply-adds): rows 0, 4 and 9 are checked.
  std::vector<float> wrong = y;
  wrong[9 * 8 + 3] = 5.0f;  // the last row is always among the checked ones
  wrong[1 * 8 + 0] = 5.0f;  // row 1 is not
  const DenseCheckResult sampled = check_dense_layer(p, data, wrong, 3 * 16 * 8);
  EXPECT_EQ(sampled.checked, 3u * 8u);
  EXPECT_EQ(sampled.total, 80u);
  EXPECT_FALSE(sampled.passed);
  EXPECT_EQ(sampled.wrong_count, 1u);
  EXPECT_EQ(sampled.first_wrong_row, 9u);
  EXPECT_NE(sampled.describe().find("of 80"), std::string::npos) << sampled.describe();
}

TEST(DenseLayerModel, PredictedCpuTimeSkipsOnlyTooSlowReferences) {
  const DenseLayerParams small = layer(1, 1024, 1024);
  EXPECT_NEAR(predicted_cpu_reference_ms(small, 1), 1.048576, 1e-9);
  EXPECT_TRUE(cpu_reference_skip_reason(small, 1, 6).empty());
  const DenseLayerParams big = layer(4096, 4096, 4096);
  EXPECT_LT(predicted_cpu_reference_ms(big, 16), predicted_cpu_reference_ms(big, 1));
  const std::string reason = cpu_reference_skip_reason(big, 1, 6);
  EXPECT_NE(reason.find("not timed"), std::string::npos) << reason;
  EXPECT_NE(reason.find("68,719,476,736"), std::string::npos) << reason;
}

TEST(DenseLayerModel, EmulatorCapSaysWhatToDo) {
  EXPECT_TRUE(check_emulator_size(layer(1, 2048, 4096)).is_ok());
  EXPECT_TRUE(check_emulator_size(layer(8, 1024, 1024)).is_ok());
  for (const DenseLayerParams& p : {layer(9, 1024, 1024), layer(1, 4096, 4096)}) {
    const Status slow = check_emulator_size(p);
    ASSERT_FALSE(slow.is_ok());
    EXPECT_EQ(slow.error().kind, ErrorKind::kTooSlow);
    EXPECT_NE(slow.message().find("GPU"), std::string::npos) << slow.message();
  }
}

TEST(DenseLayerModel, TraceShapeIsBatchRowsByOutColumns) {
  const DataShape shape = dense_layer_trace_shape(layer(3, 37, 29));
  EXPECT_EQ(shape.rows, 3u);
  EXPECT_EQ(shape.cols, 29u);
}

}  // namespace
}  // namespace tl::lessons
