#pragma once
// The network the capstone trains, on the host: its shape (the width of every layer), where each
// layer's parameters lie in the one parameter array, their initial values, and a reference forward
// and backward pass in double precision (the gradient check and the device check compare with it).
// No CUDA here.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace tl::lessons {

// widths[0] inputs, then each layer's neurons; the last layer's are the classes. Layer l
// (0-based) maps widths[l] inputs to widths[l + 1] neurons with a matrix of widths[l + 1] rows and
// widths[l] + 1 columns (the weights, then the bias), at layer_offset(l) in the parameters.
struct MlpShape {
  std::vector<int> widths;

  [[nodiscard]] int layers() const { return static_cast<int>(widths.size()) - 1; }
  [[nodiscard]] int inputs() const { return widths.front(); }
  [[nodiscard]] int classes() const { return widths.back(); }
  [[nodiscard]] std::size_t layer_offset(int layer) const;
  [[nodiscard]] std::size_t parameter_count() const;
  [[nodiscard]] int widest() const;
  // "2,256,256,2"
  [[nodiscard]] std::string to_string() const;
  // Multiply-adds of one forward pass per example.
  [[nodiscard]] double forward_multiply_adds() const;
};

inline constexpr int kMaxLayerWidth = 4096;
inline constexpr int kMaxLayers = 8;

// "2,256,256,2": at least an input and an output width, each 1..4096, at most 8 layers.
Result<MlpShape> parse_mlp_shape(std::string_view text);

// He initialisation for ReLU layers: weights uniform in ±√(6 / inputs), biases 0; from `seed`.
std::vector<float> initial_parameters(const MlpShape& shape, std::uint64_t seed);

// The reference pass on `batch` examples, in double precision: the mean cross-entropy, the count
// of correct predictions and, if asked, the gradient of the mean loss with respect to every
// parameter (laid out as the parameters are).
struct ReferencePass {
  double loss = 0;
  int correct = 0;
  std::vector<double> gradients;
};
ReferencePass reference_pass(const MlpShape& shape, std::span<const float> params,
                             std::span<const float> x, std::span<const int> labels, int batch,
                             bool with_gradients);
// The same loss with double-precision parameters (the finite differences' nudged copies).
double reference_loss(const MlpShape& shape, std::span<const double> params,
                      std::span<const float> x, std::span<const int> labels, int batch);

}  // namespace tl::lessons
