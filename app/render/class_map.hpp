#pragma once
// A class map on the GPU: an OpenGL shader storage buffer of class probabilities for a side × side
// grid of points (side² × classes floats, row 0 at the top) and the RGBA8 texture a compute shader
// colours from it — each pixel its most probable class's colour, paler where the choice is less
// sure. The buffer is filled by CUDA through interop (the network's own softmax writes it), or by
// an upload from the host; the texture is drawn with ImGui::Image (uv (0,0)–(1,1): row 0 on top).
//
// Every call needs the OpenGL context that created it to be current. GL names are created on first
// use, so a ClassMap can be declared before a context exists.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/result.hpp"

namespace tl::render {

inline constexpr int kMaxClassMapClasses = 16;

class ClassMap {
 public:
  ClassMap();
  ~ClassMap();
  ClassMap(const ClassMap&) = delete;
  ClassMap& operator=(const ClassMap&) = delete;

  // Room for `floats` probabilities. Growing reallocates the buffer (its contents are lost) and
  // increments generation(), which tells CUDA-GL interop to register it again.
  Status reserve(std::size_t floats);
  // Whether reserve(floats) reallocates: interop unregisters the buffer before that happens.
  [[nodiscard]] bool reserve_reallocates(std::size_t floats) const {
    return buffer_ == 0 || floats > capacity_;
  }
  Status upload(std::span<const float> probabilities);
  // The first `floats` probabilities, read back (tests).
  [[nodiscard]] Result<std::vector<float>> read(std::size_t floats) const;
  [[nodiscard]] std::uint32_t gl_buffer() const { return buffer_; }
  [[nodiscard]] std::uint64_t generation() const { return generation_; }
  [[nodiscard]] std::size_t capacity() const { return capacity_; }

  // Colours the texture (side × side) from the buffer's first side² × classes floats; `colours`
  // holds each class's RGB, 0–255.
  Status colour(int side, int classes, std::span<const std::array<std::uint8_t, 3>> colours);
  [[nodiscard]] std::uint32_t texture() const { return texture_; }
  [[nodiscard]] int side() const { return side_; }
  // RGBA, 4 bytes per pixel, top row first.
  [[nodiscard]] Result<std::vector<std::uint8_t>> read_pixels() const;

 private:
  void release();

  std::uint32_t buffer_ = 0;
  std::size_t capacity_ = 0;
  std::uint64_t generation_ = 0;
  std::uint32_t texture_ = 0;
  int side_ = 0;
  struct Kernel;
  std::unique_ptr<Kernel> kernel_;
};

}  // namespace tl::render
