#include "render/cell_marks.hpp"

#include <glad/gl.h>

#include <bit>
#include <utility>

#include "render/gl_check.hpp"

namespace tl::render {

std::vector<std::uint32_t> cell_mark_words(std::span<const std::int64_t> cells,
                                           std::uint64_t cell_count) {
  std::vector<std::uint32_t> words((cell_count + 31) / 32, 0u);
  for (const std::int64_t cell : cells) {
    if (cell < 0 || static_cast<std::uint64_t>(cell) >= cell_count) continue;
    words[static_cast<std::size_t>(cell) / 32] |= 1u << (static_cast<std::uint32_t>(cell) % 32);
  }
  return words;
}

CellMarks::~CellMarks() {
  release();
}

CellMarks::CellMarks(CellMarks&& other) noexcept
    : buffer_(std::exchange(other.buffer_, 0)),
      capacity_bytes_(std::exchange(other.capacity_bytes_, 0)),
      cell_count_(std::exchange(other.cell_count_, 0)),
      marked_(std::exchange(other.marked_, 0)) {}

CellMarks& CellMarks::operator=(CellMarks&& other) noexcept {
  if (this != &other) {
    release();
    buffer_ = std::exchange(other.buffer_, 0);
    capacity_bytes_ = std::exchange(other.capacity_bytes_, 0);
    cell_count_ = std::exchange(other.cell_count_, 0);
    marked_ = std::exchange(other.marked_, 0);
  }
  return *this;
}

void CellMarks::release() {
  if (buffer_ != 0) glDeleteBuffers(1, &buffer_);
  buffer_ = 0;
  capacity_bytes_ = 0;
}

Status CellMarks::upload(std::span<const std::int64_t> cells, std::uint64_t cell_count) {
  if (cell_count > 0xFFFFFFFFull) return invalid_argument("at most 2^32 - 1 cells can be marked");
  std::vector<std::uint32_t> words = cell_mark_words(cells, cell_count);
  if (words.empty()) words.push_back(0u);  // a binding needs some storage
  const std::size_t bytes = words.size() * sizeof(std::uint32_t);
  clear_gl_errors();
  if (buffer_ == 0) glGenBuffers(1, &buffer_);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer_);
  if (bytes > capacity_bytes_) {
    glBufferData(GL_SHADER_STORAGE_BUFFER, static_cast<GLsizeiptr>(bytes), words.data(),
                 GL_DYNAMIC_DRAW);
    capacity_bytes_ = bytes;
  } else {
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, static_cast<GLsizeiptr>(bytes), words.data());
  }
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  std::uint64_t marked = 0;
  for (const std::uint32_t word : words) marked += static_cast<std::uint64_t>(std::popcount(word));
  marked_ = marked;
  cell_count_ = cell_count;
  return check_gl("uploading the marked cells");
}

}  // namespace tl::render
