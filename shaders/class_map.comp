// A class map: one pixel per point of a side × side grid, coloured by the class the point's
// probabilities pick (the most probable), paler where the choice is less sure, as
// lessons/09_training/training_picture.cpp colours its PNG. Row 0 of the grid is the top row.

layout(local_size_x = 16, local_size_y = 16) in;

layout(std430, binding = 0) readonly buffer Probabilities { float probabilities[]; };
layout(rgba8, binding = 0) uniform writeonly image2D u_image;

uniform int u_side;
uniform int u_classes;
uniform vec3 u_colours[16];

void main() {
  ivec2 cell = ivec2(gl_GlobalInvocationID.xy);
  if (cell.x >= u_side || cell.y >= u_side) return;
  int first = (cell.y * u_side + cell.x) * u_classes;
  int best = 0;
  float best_p = probabilities[first];
  for (int c = 1; c < u_classes; ++c) {
    float p = probabilities[first + c];
    if (p > best_p) {
      best = c;
      best_p = p;
    }
  }
  float chance = 1.0 / float(u_classes);
  float sure = clamp((best_p - chance) / (1.0 - chance), 0.0, 1.0);
  vec3 colour = vec3(1.0) + (u_colours[best % 16] - vec3(1.0)) * (0.25 + 0.45 * sure);
  // Stored with the top row at texture row 0: ImGui::Image draws texture row 0 at the top.
  imageStore(u_image, cell, vec4(colour, 1.0));
}
