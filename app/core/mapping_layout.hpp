#pragma once
// Where each data element and each idle thread is drawn: cells in rows, and the view transform from
// cells to pixels. Pure math, shared by the mapping shader (through ShaderTransform) and by hover
// picking, so that the element picked under the mouse is the element drawn there.
//
// Cell space: cell (row, col) covers [col, col + 1) x [row, row + 1); its index is
// row * columns + col. Cells [0, elements) are data elements (cell index == element index, for 2D
// data too, which is stored row-major). In 1D, cells [elements, elements + idle_threads) are the
// threads launched beyond the data (global thread index == cell index), drawn after the data.

#include <cstdint>

#include "core/result.hpp"

namespace tl {

// The shader indexes cells with 32-bit unsigned integers.
inline constexpr std::uint64_t kMaxLayoutCells = 0xFFFFFFFFull;

struct MappingLayout {
  std::uint64_t elements = 0;
  std::uint64_t idle_threads = 0;  // 1D only: threads launched with no element (index >= n)
  std::uint64_t columns = 1;
  bool matrix = false;  // 2D data drawn as its own rows x cols

  [[nodiscard]] std::uint64_t cells() const { return elements + idle_threads; }
  [[nodiscard]] std::uint64_t rows() const {
    return columns == 0 ? 0 : (cells() + columns - 1) / columns;
  }
};

// A column count for `cells` cells that gives a block of about `aspect` (width / height), rounded
// up to a multiple of `align` (the warp size) so that every warp starts at the same column.
std::uint64_t default_columns(std::uint64_t cells, double aspect = 1.0, std::uint32_t align = 32);

// n elements of 1D data wrapped into rows, followed by the idle threads when more threads than
// elements were launched. columns == 0 picks default_columns for the given aspect.
Result<MappingLayout> layout_1d(std::uint64_t elements, std::uint64_t threads_launched,
                                std::uint64_t columns = 0, double aspect = 1.0);
// A rows x cols matrix, one cell per element.
Result<MappingLayout> layout_2d(std::uint64_t rows, std::uint64_t cols);

struct Viewport {
  int width = 0;
  int height = 0;
};

// Pixels per cell and the cell-space point at the viewport's top-left corner.
struct ViewTransform {
  double cell_pixels = 1.0;
  double origin_x = 0.0;
  double origin_y = 0.0;
  friend bool operator==(const ViewTransform&, const ViewTransform&) = default;
};

inline constexpr double kMinCellPixels = 1.0 / 4096.0;
inline constexpr double kMaxCellPixels = 4096.0;

// The whole layout, centred, as large as fits with `margin_pixels` free on every side.
ViewTransform fit_to_view(const MappingLayout& layout, Viewport viewport, double margin_pixels = 0);
// Zooms by `factor` keeping the cell-space point under pixel (x, y) where it is.
ViewTransform zoom_about(const ViewTransform& view, double factor, double pixel_x, double pixel_y);
// Moves the picture by (dx, dy) pixels, as when dragging it.
ViewTransform pan_by_pixels(const ViewTransform& view, double dx, double dy);

// What the view transform becomes in the shader. Picking goes through the same float values.
struct ShaderTransform {
  float origin_x = 0;
  float origin_y = 0;
  float cells_per_pixel = 1;
};
ShaderTransform shader_transform(const ViewTransform& view);

enum class CellKind { kNone, kElement, kIdleThread };

struct CellHit {
  CellKind kind = CellKind::kNone;
  std::uint64_t cell = 0;  // element index for kElement, global thread index for kIdleThread
  std::uint64_t row = 0;
  std::uint64_t col = 0;
  [[nodiscard]] bool is_element() const { return kind == CellKind::kElement; }
};

// The cell at (row, col), kNone past the last cell of the layout.
CellHit cell_at(const MappingLayout& layout, std::uint64_t row, std::uint64_t col);

// The cell under pixel (x, y), counted from the viewport's top-left corner; the pixel's centre is
// tested, with the shader's float arithmetic.
CellHit element_at(const MappingLayout& layout, const ViewTransform& view, int pixel_x, int pixel_y,
                   Viewport viewport);

// The pixel at the centre of a cell (top-left origin), for tests and for scrolling to an element.
struct PixelPoint {
  double x = 0;
  double y = 0;
};
PixelPoint cell_center_pixel(const MappingLayout& layout, const ViewTransform& view,
                             std::uint64_t cell);

}  // namespace tl
