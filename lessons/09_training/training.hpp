#pragma once
// The capstone (issue #21): who it is, and the parameters of its lesson view (one training step of
// a network, timed piece by piece, its first layer traced). Training itself is mlp_trainer.hpp.

#include "core/lessons/catalog.hpp"

namespace tl::lessons {

inline constexpr LessonInfo kTrainingInfo{
    9, "training", "Training a network",
    "The capstone: a small neural network trained from scratch with the lessons' own kernels",
    "09_training"};
inline constexpr std::string_view kTrainingId = kTrainingInfo.id;

}  // namespace tl::lessons
