#pragma once
// Cells marked over the mapping view: the Kernel Lab's wrong elements, outlined in red so that the
// learner sees where their kernel went wrong on top of who wrote what. One bit per cell in a shader
// storage buffer (bit cell % 32 of word cell / 32), so a million elements cost 128 KiB.
//
// Needs a current OpenGL context, like TraceBuffer; the buffer is created on the first upload.

#include <cstdint>
#include <span>
#include <vector>

#include "core/result.hpp"

namespace tl::render {

// The words the shader reads for `cells` marked among `cell_count`; cells outside are ignored.
std::vector<std::uint32_t> cell_mark_words(std::span<const std::int64_t> cells,
                                           std::uint64_t cell_count);

class CellMarks {
 public:
  CellMarks() = default;
  ~CellMarks();
  CellMarks(CellMarks&& other) noexcept;
  CellMarks& operator=(CellMarks&& other) noexcept;
  CellMarks(const CellMarks&) = delete;
  CellMarks& operator=(const CellMarks&) = delete;

  // Marks exactly `cells` out of the first `cell_count` (replacing earlier marks).
  Status upload(std::span<const std::int64_t> cells, std::uint64_t cell_count);
  // No cell marked (the buffer is kept).
  void clear() {
    marked_ = 0;
    cell_count_ = 0;
  }

  [[nodiscard]] std::uint64_t marked() const { return marked_; }
  [[nodiscard]] std::uint64_t cell_count() const { return cell_count_; }
  [[nodiscard]] std::uint32_t gl_buffer() const { return buffer_; }

 private:
  void release();
  std::uint32_t buffer_ = 0;
  std::size_t capacity_bytes_ = 0;
  std::uint64_t cell_count_ = 0;
  std::uint64_t marked_ = 0;
};

}  // namespace tl::render
