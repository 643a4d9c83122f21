#pragma once
// The capstone behind the Lesson interface: one training step of the network (the current data,
// widths, batch and optimizer), timed piece by piece — forward, loss, backward, update and the
// copies — and checked against the double-precision reference's gradients; the traced launch is
// the first layer's forward product, one thread per output element as lesson 5 draws it.
// Training over epochs is mlp_trainer.hpp (the `train` command, the lesson's views).

#include <memory>

#include "compute/lessons/lesson.hpp"
#include "mlp_trainer.hpp"

namespace tl::compute {

std::unique_ptr<Lesson> make_training_lesson();

// The settings the lesson's parameters describe (layers from the data's inputs and classes, the
// hidden width and depth), for the views and the benchmark.
Result<lessons::TrainingSettings> training_settings_from(const lessons::ParamValues& values);

// What a timed run found, for the lesson's views: the step's pieces and the gradient check.
struct TrainingStepTimes {
  TimingStats step, forward, loss, backward, update, copy_in, copy_out;
};

}  // namespace tl::compute
