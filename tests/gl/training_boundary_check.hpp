#pragma once
// The capstone's decision boundary delivered into OpenGL (render::ClassMap) by the app's path: a
// TrainingSession whose background thread evaluates the boundary's grid with the network's own
// kernels into the destination a class-map sink offers (interop: the mapped GL buffer; copy:
// device memory; emulator: host memory), then published and coloured by the class-map shader. The
// result is compared with a CPU evaluation, in double precision, of the same network (a twin
// trainer stepped alike: one seed gives one network). Shared by the GL tests (the emulator's
// upload) and the GPU tests (interop and copy).

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "compute/float_sink.hpp"
#include "lessons/09_training/mlp_trainer.hpp"
#include "lessons/09_training/training_picture.hpp"
#include "lessons/09_training/training_session.hpp"
#include "render/class_map.hpp"

namespace tl::testing {

// Class probabilities of `points` (count × inputs) through the network, in double precision.
inline std::vector<double> cpu_probabilities(const lessons::MlpShape& shape,
                                             const std::vector<float>& params,
                                             const std::vector<float>& points) {
  const int inputs = shape.inputs(), classes = shape.classes();
  const std::size_t count = points.size() / inputs;
  std::vector<double> result(count * classes);
  std::vector<double> a, z;
  for (std::size_t p = 0; p < count; ++p) {
    a.assign(points.begin() + p * inputs, points.begin() + (p + 1) * inputs);
    for (int l = 0; l < shape.layers(); ++l) {
      const int in = shape.widths[l], out = shape.widths[l + 1];
      const float* w = params.data() + shape.layer_offset(l);
      z.assign(out, 0.0);
      for (int o = 0; o < out; ++o) {
        double sum = w[o * (in + 1) + in];  // the bias
        for (int i = 0; i < in; ++i) sum += static_cast<double>(w[o * (in + 1) + i]) * a[i];
        z[o] = l + 1 < shape.layers() ? std::max(sum, 0.0) : sum;
      }
      a = z;
    }
    const double top = *std::max_element(a.begin(), a.end());
    double total = 0;
    for (double& v : a) total += (v = std::exp(v - top));
    for (int c = 0; c < classes; ++c) result[p * classes + c] = a[c] / total;
  }
  return result;
}

// Trains `steps` steps in a session that delivers its boundary through `sink` into `map`, and
// checks the map's buffer and texture against the CPU's evaluation of the same network.
inline void expect_boundary_is_the_networks(compute::Device& device, compute::FloatSink& sink,
                                            render::ClassMap& map,
                                            const lessons::TrainingSettings& settings, int steps) {
  lessons::TrainingSessionOptions options;
  options.boundary_side = 48;
  options.refresh_every = 1000;  // the boundary only when the steps end
  const int side = options.boundary_side;
  const std::size_t points = static_cast<std::size_t>(side) * side;
  lessons::TrainingSession session(device, options);
  ASSERT_TRUE(session.reset(settings).is_ok());
  session.wait_until_idle();
  ASSERT_EQ(session.snapshot()->phase, lessons::TrainingPhase::kPaused)
      << session.snapshot()->error;
  // Offered now, filled by the refresh at the end of the steps (on the session's thread).
  auto destination = sink.acquire(device, points * 2);
  ASSERT_TRUE(destination.is_ok()) << destination.message();
  session.offer_boundary(*destination, points * 2);
  ASSERT_TRUE(session.step(steps).is_ok());
  session.wait_until_idle();
  ASSERT_EQ(session.snapshot()->steps, steps);
  ASSERT_TRUE(session.take_boundary_written());
  ASSERT_EQ(session.snapshot()->boundary_step, steps);
  const Status published = sink.publish(device);
  ASSERT_TRUE(published.is_ok()) << published.message();
  std::vector<std::array<std::uint8_t, 3>> colours(2);
  for (int c = 0; c < 2; ++c) lessons::class_colour(c, colours[c].data());
  const Status coloured = map.colour(side, 2, colours);
  ASSERT_TRUE(coloured.is_ok()) << coloured.message();

  // The same network on the CPU: a twin trainer, stepped alike.
  auto twin = lessons::MlpTrainer::create(device, settings);
  ASSERT_TRUE(twin.is_ok()) << twin.message();
  for (int done = 0; done < steps;) {
    auto stats = (*twin)->train_steps(steps - done);
    ASSERT_TRUE(stats.is_ok()) << stats.message();
    done += static_cast<int>(stats->size());
  }
  auto params = (*twin)->parameters();
  ASSERT_TRUE(params.is_ok()) << params.message();
  const std::vector<double> expected =
      cpu_probabilities((*twin)->shape(), *params, lessons::boundary_points(side));

  auto written = map.read(points * 2);
  ASSERT_TRUE(written.is_ok()) << written.message();
  auto pixels = map.read_pixels();
  ASSERT_TRUE(pixels.is_ok()) << pixels.message();
  ASSERT_EQ(pixels->size(), points * 4);
  std::vector<float> expected_float(expected.begin(), expected.end());
  const std::vector<std::uint8_t> expected_rgba =
      lessons::boundary_image(expected_float, side, 2, lessons::TrainingData{});
  std::size_t compared = 0, class_counts[2] = {0, 0};
  for (std::size_t p = 0; p < points; ++p) {
    ASSERT_NEAR((*written)[2 * p], expected[2 * p], 1e-4) << "point " << p;
    ASSERT_NEAR((*written)[2 * p + 1], expected[2 * p + 1], 1e-4) << "point " << p;
    const int cpu_class = expected[2 * p + 1] > expected[2 * p] ? 1 : 0;
    ++class_counts[cpu_class];
    if (std::abs(expected[2 * p + 1] - expected[2 * p]) < 1e-3) continue;  // a tie: either class
    const int gl_class = (*written)[2 * p + 1] > (*written)[2 * p] ? 1 : 0;
    ASSERT_EQ(gl_class, cpu_class) << "point " << p;
    for (int ch = 0; ch < 3; ++ch) {
      ASSERT_NEAR((*pixels)[4 * p + ch], expected_rgba[4 * p + ch], 3)
          << "pixel " << p << " channel " << ch;
    }
    ++compared;
  }
  EXPECT_GT(compared, points * 9 / 10);
  // A boundary, not a blank: after training, both classes have ground.
  EXPECT_GT(class_counts[0], points / 10);
  EXPECT_GT(class_counts[1], points / 10);
}

}  // namespace tl::testing
