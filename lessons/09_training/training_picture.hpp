#pragma once
// The decision boundary as a picture: the plane [-kPlaneExtent, kPlaneExtent]² sampled on a grid,
// each pixel coloured by the class the network picks there (paler where it is less sure), and the
// training points drawn on top in darker shades of their class. No CUDA, no OpenGL: RGBA bytes.

#include <cstdint>
#include <span>
#include <vector>

#include "training_data.hpp"

namespace tl::lessons {

// The grid's points, row by row from the top (y = +extent) down, x left to right: side × side × 2.
std::vector<float> boundary_points(int side);

// side × side × 4 bytes, top row first. `probabilities`: side × side × classes, in
// boundary_points' order.
std::vector<std::uint8_t> boundary_image(std::span<const float> probabilities, int side,
                                         int classes, const TrainingData& points);

// The colour of class `c` (RGB), the same in the picture and the window.
void class_colour(int c, std::uint8_t rgb[3]);

}  // namespace tl::lessons
