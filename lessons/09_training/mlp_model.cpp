#include "mlp_model.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "training_data.hpp"

namespace tl::lessons {

std::size_t MlpShape::layer_offset(int layer) const {
  std::size_t offset = 0;
  for (int l = 0; l < layer; ++l) {
    offset += static_cast<std::size_t>(widths[l + 1]) * (widths[l] + 1);
  }
  return offset;
}

std::size_t MlpShape::parameter_count() const {
  return layer_offset(layers());
}

int MlpShape::widest() const {
  return *std::max_element(widths.begin(), widths.end());
}

std::string MlpShape::to_string() const {
  std::string text;
  for (std::size_t i = 0; i < widths.size(); ++i) {
    text += (i == 0 ? "" : ",") + std::to_string(widths[i]);
  }
  return text;
}

double MlpShape::forward_multiply_adds() const {
  double total = 0;
  for (int l = 0; l < layers(); ++l) total += static_cast<double>(widths[l]) * widths[l + 1];
  return total;
}

Result<MlpShape> parse_mlp_shape(std::string_view text) {
  MlpShape shape;
  if (!text.empty() && text.back() == ',') {
    return invalid_argument("layers '" + std::string(text) +
                            "': a width is missing after the "
                            "last comma.");
  }
  std::string item;
  std::stringstream stream{std::string(text)};
  while (std::getline(stream, item, ',')) {
    int width = 0;
    std::size_t used = 0;
    try {
      width = std::stoi(item, &used);
    } catch (...) {
      used = 0;
    }
    if (used == 0 || used != item.size() || width < 1 || width > kMaxLayerWidth) {
      return invalid_argument("layers '" + std::string(text) + "': each width must be a whole " +
                              "number from 1 to " + std::to_string(kMaxLayerWidth) + ", not '" +
                              item + "'.");
    }
    shape.widths.push_back(width);
  }
  if (shape.widths.size() < 2 || shape.layers() > kMaxLayers) {
    return invalid_argument("layers '" + std::string(text) +
                            "': give the input width, any hidden widths and the number of " +
                            "classes, e.g. 2,256,256,2 (at most " + std::to_string(kMaxLayers) +
                            " layers).");
  }
  if (shape.classes() < 2) {
    return invalid_argument("layers '" + std::string(text) +
                            "': the last width is the number of classes, at least 2.");
  }
  return shape;
}

std::vector<float> initial_parameters(const MlpShape& shape, std::uint64_t seed) {
  std::vector<float> params(shape.parameter_count(), 0.0f);
  TrainingRandom random(seed * 0x9E3779B97F4A7C15ull + 0x5DEECE66Dull);
  for (int l = 0; l < shape.layers(); ++l) {
    const int in = shape.widths[l], out = shape.widths[l + 1];
    const double limit = std::sqrt(6.0 / in);
    float* layer = params.data() + shape.layer_offset(l);
    for (int o = 0; o < out; ++o) {
      for (int i = 0; i < in; ++i) {
        layer[static_cast<std::size_t>(o) * (in + 1) + i] =
            static_cast<float>(random.uniform(-limit, limit));
      }
      // The bias, column `in`, stays 0.
    }
  }
  return params;
}

namespace {

template <class Param>
ReferencePass pass(const MlpShape& shape, std::span<const Param> params, std::span<const float> x,
                   std::span<const int> labels, int batch, bool with_gradients) {
  const int layers = shape.layers();
  // activations[l]: batch × widths[l] (activations[0] is the input).
  std::vector<std::vector<double>> activations(layers + 1);
  activations[0].assign(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(batch) * shape.inputs());
  for (int l = 0; l < layers; ++l) {
    const int in = shape.widths[l], out = shape.widths[l + 1];
    const Param* w = params.data() + shape.layer_offset(l);
    std::vector<double>& y = activations[l + 1];
    y.assign(static_cast<std::size_t>(batch) * out, 0.0);
    for (int r = 0; r < batch; ++r) {
      for (int o = 0; o < out; ++o) {
        double z = w[static_cast<std::size_t>(o) * (in + 1) + in];
        for (int i = 0; i < in; ++i) {
          z += static_cast<double>(w[static_cast<std::size_t>(o) * (in + 1) + i]) *
               activations[l][static_cast<std::size_t>(r) * in + i];
        }
        y[static_cast<std::size_t>(r) * out + o] = l + 1 < layers ? std::max(z, 0.0) : z;
      }
    }
  }
  ReferencePass result;
  const int classes = shape.classes();
  std::vector<double> delta(static_cast<std::size_t>(batch) * classes);
  for (int r = 0; r < batch; ++r) {
    const double* z = activations[layers].data() + static_cast<std::size_t>(r) * classes;
    const int predicted = static_cast<int>(std::max_element(z, z + classes) - z);
    const double largest = z[predicted];
    double sum = 0;
    for (int c = 0; c < classes; ++c) sum += std::exp(z[c] - largest);
    const int y = labels[r];
    result.loss += std::log(sum) - (z[y] - largest);
    result.correct += predicted == y ? 1 : 0;
    for (int c = 0; c < classes; ++c) {
      delta[static_cast<std::size_t>(r) * classes + c] =
          (std::exp(z[c] - largest) / sum - (c == y ? 1.0 : 0.0)) / batch;
    }
  }
  result.loss /= batch;
  if (!with_gradients) return result;

  result.gradients.assign(shape.parameter_count(), 0.0);
  for (int l = layers - 1; l >= 0; --l) {
    const int in = shape.widths[l], out = shape.widths[l + 1];
    const Param* w = params.data() + shape.layer_offset(l);
    double* g = result.gradients.data() + shape.layer_offset(l);
    const std::vector<double>& a = activations[l];
    for (int r = 0; r < batch; ++r) {
      for (int o = 0; o < out; ++o) {
        const double d = delta[static_cast<std::size_t>(r) * out + o];
        for (int i = 0; i < in; ++i) {
          g[static_cast<std::size_t>(o) * (in + 1) + i] +=
              d * a[static_cast<std::size_t>(r) * in + i];
        }
        g[static_cast<std::size_t>(o) * (in + 1) + in] += d;
      }
    }
    if (l == 0) break;
    std::vector<double> previous(static_cast<std::size_t>(batch) * in, 0.0);
    for (int r = 0; r < batch; ++r) {
      for (int i = 0; i < in; ++i) {
        if (a[static_cast<std::size_t>(r) * in + i] <= 0.0) continue;  // relu'(z) = 0
        double sum = 0;
        for (int o = 0; o < out; ++o) {
          sum += delta[static_cast<std::size_t>(r) * out + o] *
                 static_cast<double>(w[static_cast<std::size_t>(o) * (in + 1) + i]);
        }
        previous[static_cast<std::size_t>(r) * in + i] = sum;
      }
    }
    delta = std::move(previous);
  }
  return result;
}

}  // namespace

ReferencePass reference_pass(const MlpShape& shape, std::span<const float> params,
                             std::span<const float> x, std::span<const int> labels, int batch,
                             bool with_gradients) {
  return pass<float>(shape, params, x, labels, batch, with_gradients);
}

double reference_loss(const MlpShape& shape, std::span<const double> params,
                      std::span<const float> x, std::span<const int> labels, int batch) {
  return pass<double>(shape, params, x, labels, batch, false).loss;
}

}  // namespace tl::lessons
