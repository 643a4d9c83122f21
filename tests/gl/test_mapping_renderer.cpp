#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/color_scheme.hpp"
#include "core/mapping_layout.hpp"
#include "gl_test_support.hpp"
#include "render/gl_check.hpp"
#include "render/mapping_renderer.hpp"
#include "render/trace_buffer.hpp"

namespace tl {
namespace {

using render::MappingRenderer;
using render::MappingView;
using render::TraceBuffer;
using testing::near_color;
using testing::pixel_at;
using testing::Rgba8;

class MappingRendererTest : public testing::GlTest {
 protected:
  void SetUp() override {
    GlTest::SetUp();
    if (HasFatalFailure()) return;
    Result<std::unique_ptr<MappingRenderer>> created = MappingRenderer::create();
    ASSERT_TRUE(created.is_ok()) << created.message();
    renderer_ = std::move(*created);
  }

  std::vector<std::uint8_t> render(const TraceBuffer& trace, const MappingView& view, Viewport size,
                                   MappingRenderer* renderer = nullptr) {
    MappingRenderer& target = renderer != nullptr ? *renderer : *renderer_;
    const Status status = target.render(trace, view, size);
    EXPECT_TRUE(status.is_ok()) << status.message();
    Result<std::vector<std::uint8_t>> pixels = target.read_pixels();
    EXPECT_TRUE(pixels.is_ok()) << pixels.message();
    return pixels.is_ok() ? std::move(*pixels) : std::vector<std::uint8_t>{};
  }

  std::unique_ptr<MappingRenderer> renderer_;
};

// A 1D launch <<<blocks, threads>>> over n elements with i = blockIdx.x * blockDim.x + threadIdx.x:
// the record every element gets. Block b ran on SM b % 3, except that SM is unknown for block 1.
std::vector<TraceRecord> one_d_trace(std::uint32_t n, std::uint32_t threads_per_block) {
  std::vector<TraceRecord> records(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t block = i / threads_per_block;
    const std::uint32_t sm_plus_one = block == 1 ? 0 : block % 3 + 1;
    // Passes cycle 0..4 so that colour-by-pass has something to tell apart.
    records[i] = {block, (i % threads_per_block) | (sm_plus_one << kTraceSmShift), i % 5, 1};
  }
  return records;
}

struct PixelXY {
  int x;
  int y;
};

PixelXY center_of(const MappingLayout& layout, const ViewTransform& view, std::uint64_t cell) {
  const PixelPoint p = cell_center_pixel(layout, view, cell);
  return {static_cast<int>(std::floor(p.x)), static_cast<int>(std::floor(p.y))};
}

TEST_F(MappingRendererTest, CellColoursMatchTheCppPaletteInEveryMode) {
  constexpr std::uint32_t kThreadsPerBlock = 64;
  std::vector<TraceRecord> records = one_d_trace(100, kThreadsPerBlock);
  records[5] = {};        // never written
  records[6].writes = 2;  // written twice
  records[70].writes = 3;
  TraceBuffer trace;
  ASSERT_TRUE(trace.upload(records).is_ok());

  MappingView view;
  view.launch = {{2, 1, 1}, {kThreadsPerBlock, 1, 1}};  // 128 threads: 28 idle
  Result<MappingLayout> layout = layout_1d(100, view.launch.total_threads(), 24);
  ASSERT_TRUE(layout.is_ok());
  view.layout = *layout;
  view.transform = {8.0, 0.0, 0.0};
  view.grid_lines = false;
  view.block_lines = false;
  const Viewport size{24 * 8, 6 * 8};

  for (const ColorBy mode : all_color_modes()) {
    view.color_by = mode;
    const std::vector<std::uint8_t> pixels = render(trace, view, size);
    ASSERT_FALSE(pixels.empty());
    for (std::uint64_t cell = 0; cell < view.layout.cells(); ++cell) {
      const PixelXY p = center_of(view.layout, view.transform, cell);
      const Rgba8 actual = pixel_at(pixels, size.width, p.x, p.y);
      const Rgb expected = cell < 100 ? color_for(mode, records[cell], kThreadsPerBlock, 32)
                                      : idle_thread_color(idle_thread_stripe(p.x, p.y));
      EXPECT_TRUE(near_color(actual, expected)) << to_string(mode) << " cell " << cell;
      EXPECT_EQ(actual.a, 255);
    }
    // Past the last cell (row 5 holds cells 120..127, then 16 empty cells): background.
    const Rgba8 empty = pixel_at(pixels, size.width, 23 * 8 + 4, 5 * 8 + 4);
    EXPECT_TRUE(near_color(empty, kBackgroundColor)) << to_string(mode);
  }
}

TEST_F(MappingRendererTest, IdleThreadsAreHatchedAndUnwrittenElementsStandOut) {
  std::vector<TraceRecord> records = one_d_trace(40, 32);
  TraceBuffer trace;
  ASSERT_TRUE(trace.upload(records).is_ok());
  MappingView view;
  view.launch = {{4, 1, 1}, {32, 1, 1}};  // 128 threads
  // 60 elements but only 40 records: elements 40..59 were never written (grid too small).
  view.layout = *layout_1d(60, view.launch.total_threads(), 32);
  view.transform = {16.0, 0.0, 0.0};
  view.grid_lines = false;
  view.block_lines = false;
  const Viewport size{32 * 16, 4 * 16};
  const std::vector<std::uint8_t> pixels = render(trace, view, size);
  ASSERT_FALSE(pixels.empty());
  int stripe_pixels = 0;
  int plain_pixels = 0;
  for (std::uint64_t cell = 60; cell < 128; ++cell) {
    const PixelXY p = center_of(view.layout, view.transform, cell);
    for (int dy = -6; dy <= 6; ++dy) {
      for (int dx = -6; dx <= 6; ++dx) {
        const bool stripe = idle_thread_stripe(p.x + dx, p.y + dy);
        EXPECT_TRUE(
            near_color(pixel_at(pixels, size.width, p.x + dx, p.y + dy), idle_thread_color(stripe)))
            << "idle cell " << cell;
        (stripe ? stripe_pixels : plain_pixels)++;
      }
    }
  }
  EXPECT_GT(stripe_pixels, 0);  // hatched: both greys appear
  EXPECT_GT(plain_pixels, 0);
  for (std::uint64_t cell = 40; cell < 60; ++cell) {
    const PixelXY p = center_of(view.layout, view.transform, cell);
    EXPECT_TRUE(near_color(pixel_at(pixels, size.width, p.x, p.y), kUnwrittenColor)) << cell;
  }
}

TEST_F(MappingRendererTest, PickedElementIsTheOneDrawnUnderThePixel) {
  // Every element its own block, so that neighbouring cells have clearly different colours.
  constexpr std::uint32_t kElements = 1000;
  std::vector<TraceRecord> records(kElements);
  for (std::uint32_t i = 0; i < kElements; ++i) records[i] = {i, 0, 0, 1};
  TraceBuffer trace;
  ASSERT_TRUE(trace.upload(records).is_ok());
  MappingView view;
  view.launch = {{1100, 1, 1}, {1, 1, 1}};
  view.layout = *layout_1d(kElements, view.launch.total_threads(), 40);
  view.grid_lines = false;
  view.block_lines = false;
  const Viewport size{301, 199};
  std::mt19937 random(3);
  std::uniform_real_distribution<double> zoom(2.3, 19.7);
  std::uniform_real_distribution<double> pan(-3.0, 10.0);
  int checked_elements = 0;
  for (int round = 0; round < 6; ++round) {
    view.transform = {zoom(random), pan(random), pan(random)};
    const std::vector<std::uint8_t> pixels = render(trace, view, size);
    ASSERT_FALSE(pixels.empty());
    for (int y = 0; y < size.height; y += 3) {
      for (int x = 0; x < size.width; x += 3) {
        const CellHit hit = element_at(view.layout, view.transform, x, y, size);
        const Rgba8 actual = pixel_at(pixels, size.width, x, y);
        Rgb expected = kBackgroundColor;
        if (hit.kind == CellKind::kElement) {
          expected = color_for(ColorBy::kBlock, records[hit.cell], 1, 32);
          ++checked_elements;
        } else if (hit.kind == CellKind::kIdleThread) {
          expected = idle_thread_color(idle_thread_stripe(x, y));
        }
        ASSERT_TRUE(near_color(actual, expected))
            << "pixel (" << x << ", " << y << ") picked cell " << hit.cell << " kind "
            << static_cast<int>(hit.kind) << " in round " << round;
      }
    }
  }
  EXPECT_GT(checked_elements, 1000);
}

TEST_F(MappingRendererTest, RangeByRangeDrawingMatchesOneBinding) {
  // A tiny binding limit forces many passes; the picture must not change, block lines included.
  render::MappingRendererOptions options;
  options.max_records_per_binding = 128;
  Result<std::unique_ptr<MappingRenderer>> chunked = MappingRenderer::create(options);
  ASSERT_TRUE(chunked.is_ok()) << chunked.message();
  std::vector<TraceRecord> records = one_d_trace(1000, 48);
  records[333] = {};
  TraceBuffer trace;
  ASSERT_TRUE(trace.upload(records).is_ok());
  MappingView view;
  view.launch = {{22, 1, 1}, {48, 1, 1}};
  view.layout = *layout_1d(1000, view.launch.total_threads(), 32);
  const Viewport size{32 * 13, 34 * 13};
  view.transform = fit_to_view(view.layout, size);
  ASSERT_GE(view.transform.cell_pixels, 12.0);  // big enough for grid and 2-pixel block lines
  for (const ColorBy mode : {ColorBy::kBlock, ColorBy::kWrites}) {
    view.color_by = mode;
    view.highlighted_cell = 77;
    const std::vector<std::uint8_t> whole = render(trace, view, size);
    const std::vector<std::uint8_t> in_ranges = render(trace, view, size, chunked->get());
    ASSERT_EQ(whole.size(), in_ranges.size());
    std::size_t different = 0;
    for (std::size_t i = 0; i < whole.size(); ++i) different += whole[i] != in_ranges[i] ? 1 : 0;
    EXPECT_EQ(different, 0u) << to_string(mode);
  }
}

TEST_F(MappingRendererTest, MatrixShowsBlockLinesGridLinesAndHighlight) {
  // A 20 x 30 matrix computed by 8 x 8 blocks with row = blockIdx.y * 8 + threadIdx.y and
  // col = blockIdx.x * 8 + threadIdx.x, on a 4 x 3 grid.
  constexpr std::uint32_t kRows = 20;
  constexpr std::uint32_t kCols = 30;
  std::vector<TraceRecord> records(kRows * kCols);
  for (std::uint32_t r = 0; r < kRows; ++r) {
    for (std::uint32_t c = 0; c < kCols; ++c) {
      const std::uint32_t block = c / 8 + 4 * (r / 8);
      const std::uint32_t thread = c % 8 + 8 * (r % 8);
      records[r * kCols + c] = {block, thread, 0, 1};
    }
  }
  TraceBuffer trace;
  ASSERT_TRUE(trace.upload(records).is_ok());
  MappingView view;
  view.launch = {{4, 3, 1}, {8, 8, 1}};
  view.layout = *layout_2d(kRows, kCols);
  view.transform = {16.0, 0.0, 0.0};
  view.highlighted_cell = 3 * kCols + 5;
  const Viewport size{kCols * 16, kRows * 16};
  const std::vector<std::uint8_t> pixels = render(trace, view, size);
  ASSERT_FALSE(pixels.empty());
  auto color_of = [&](std::uint32_t r, std::uint32_t c) {
    return color_for(ColorBy::kBlock, records[r * kCols + c], 64, 32);
  };
  // Cell (2, 8) starts block 1: its left two pixel columns are a block line.
  EXPECT_TRUE(near_color(pixel_at(pixels, size.width, 8 * 16, 2 * 16 + 8), kBlockLineColor));
  EXPECT_TRUE(near_color(pixel_at(pixels, size.width, 8 * 16 + 1, 2 * 16 + 8), kBlockLineColor));
  // Cell (2, 4) is inside block 0: a one-pixel grid line, then the cell colour.
  EXPECT_TRUE(near_color(pixel_at(pixels, size.width, 4 * 16, 2 * 16 + 8),
                         shade_grid_line(color_of(2, 4))));
  EXPECT_TRUE(near_color(pixel_at(pixels, size.width, 4 * 16 + 1, 2 * 16 + 8), color_of(2, 4)));
  // Row 8 starts the second row of blocks: a block line along its top.
  EXPECT_TRUE(near_color(pixel_at(pixels, size.width, 2 * 16 + 8, 8 * 16), kBlockLineColor));
  // The highlighted cell (3, 5): outline at its edges, its own colour inside.
  EXPECT_TRUE(near_color(pixel_at(pixels, size.width, 5 * 16 + 8, 3 * 16 + 15), kHighlightColor));
  EXPECT_TRUE(near_color(pixel_at(pixels, size.width, 5 * 16 + 15, 3 * 16 + 8), kHighlightColor));
  EXPECT_TRUE(near_color(pixel_at(pixels, size.width, 5 * 16 + 8, 3 * 16 + 8), color_of(3, 5)));
  // Lines off: the same pixels show the plain cell colours.
  view.grid_lines = false;
  view.block_lines = false;
  const std::vector<std::uint8_t> plain = render(trace, view, size);
  EXPECT_TRUE(near_color(pixel_at(plain, size.width, 8 * 16, 2 * 16 + 8), color_of(2, 8)));
  EXPECT_TRUE(near_color(pixel_at(plain, size.width, 4 * 16, 2 * 16 + 8), color_of(2, 4)));
}

// The Lab's wrong elements: outlined in red around their own (tinted) colour, so the picture still
// tells who wrote them; tiny cells are filled red; other cells and a view without marks unchanged.
TEST_F(MappingRendererTest, MarkedCellsAreOutlinedInRed) {
  constexpr std::uint32_t kRows = 6;
  constexpr std::uint32_t kCols = 10;
  std::vector<TraceRecord> records(kRows * kCols);
  for (std::uint32_t i = 0; i < kRows * kCols; ++i) records[i] = {i / 8, i % 8, 0, 1};
  TraceBuffer trace;
  ASSERT_TRUE(trace.upload(records).is_ok());
  render::CellMarks marks;
  const std::vector<std::int64_t> wrong = {2 * kCols + 3, 5 * kCols + 9, -1, 1000};
  ASSERT_TRUE(marks.upload(wrong, kRows * kCols).is_ok());
  EXPECT_EQ(marks.marked(), 2u) << "cells outside the layout are not marked";
  MappingView view;
  view.launch = {{8, 1, 1}, {8, 1, 1}};
  view.layout = *layout_2d(kRows, kCols);
  view.transform = {20.0, 0.0, 0.0};
  view.grid_lines = false;
  view.block_lines = false;
  view.marks = &marks;
  const Viewport size{kCols * 20, kRows * 20};
  const std::vector<std::uint8_t> pixels = render(trace, view, size);
  auto color_of = [&](std::uint32_t r, std::uint32_t c) {
    return color_for(ColorBy::kBlock, records[r * kCols + c], 8, 32);
  };
  // Cell (2, 3): a red edge, its own colour tinted inside.
  EXPECT_TRUE(near_color(pixel_at(pixels, size.width, 3 * 20, 2 * 20 + 10), kWrongElementColor));
  EXPECT_TRUE(
      near_color(pixel_at(pixels, size.width, 3 * 20 + 10, 2 * 20 + 19), kWrongElementColor));
  EXPECT_TRUE(near_color(pixel_at(pixels, size.width, 3 * 20 + 10, 2 * 20 + 10),
                         tint_wrong_element(color_of(2, 3))));
  // The last cell too; its neighbour is untouched.
  EXPECT_TRUE(
      near_color(pixel_at(pixels, size.width, 9 * 20 + 19, 5 * 20 + 10), kWrongElementColor));
  EXPECT_TRUE(near_color(pixel_at(pixels, size.width, 8 * 20 + 19, 5 * 20 + 10), color_of(5, 8)));
  // The hovered cell's outline goes over the mark.
  view.highlighted_cell = 2 * kCols + 3;
  const std::vector<std::uint8_t> hovered = render(trace, view, size);
  EXPECT_TRUE(near_color(pixel_at(hovered, size.width, 3 * 20, 2 * 20 + 10), kHighlightColor));
  view.highlighted_cell.reset();
  // Tiny cells: filled.
  view.transform = {2.0, 0.0, 0.0};
  const std::vector<std::uint8_t> tiny = render(trace, view, {kCols * 2, kRows * 2});
  EXPECT_TRUE(near_color(pixel_at(tiny, kCols * 2, 3 * 2 + 1, 2 * 2 + 1), kWrongElementColor));
  // No marks (none given, or cleared): the plain colours.
  view.transform = {20.0, 0.0, 0.0};
  marks.clear();
  const std::vector<std::uint8_t> cleared = render(trace, view, size);
  EXPECT_TRUE(near_color(pixel_at(cleared, size.width, 3 * 20, 2 * 20 + 10), color_of(2, 3)));
  view.marks = nullptr;
  const std::vector<std::uint8_t> none = render(trace, view, size);
  EXPECT_EQ(none, cleared);
}

TEST(CellMarkWords, OneBitPerCell) {
  const std::vector<std::int64_t> cells = {0, 31, 32, 69, 70, -3};
  const std::vector<std::uint32_t> words = render::cell_mark_words(cells, 70);
  ASSERT_EQ(words.size(), 3u);
  EXPECT_EQ(words[0], 0x80000001u);
  EXPECT_EQ(words[1], 0x00000001u);
  EXPECT_EQ(words[2], 1u << 5) << "69 is the last cell; 70 is outside";
}

// 2^24 elements: more records than one binding covers on llvmpipe. Cells on both sides of the
// range seam and at the very end must show their own records.
TEST_F(MappingRendererTest, DrawsTwoToTheTwentyFourElements) {
  constexpr std::uint32_t kCount = 1u << 24;
  constexpr std::uint32_t kThreadsPerBlock = 256;
  const std::vector<TraceRecord> records = one_d_trace(kCount, kThreadsPerBlock);
  TraceBuffer trace;
  ASSERT_TRUE(trace.upload(records).is_ok());
  MappingView view;
  view.launch = {{kCount / kThreadsPerBlock, 1, 1}, {kThreadsPerBlock, 1, 1}};
  view.layout = *layout_1d(kCount, view.launch.total_threads());
  EXPECT_EQ(view.layout.columns % 32, 0u);
  view.color_by = ColorBy::kBlock;
  const Viewport size{256, 256};

  // The whole trace, fitted: every pixel samples one cell; picking says which.
  view.transform = fit_to_view(view.layout, size);
  std::vector<std::uint8_t> pixels = render(trace, view, size);
  ASSERT_FALSE(pixels.empty());
  for (int y = 1; y < size.height; y += 17) {
    for (int x = 1; x < size.width; x += 17) {
      const CellHit hit = element_at(view.layout, view.transform, x, y, size);
      ASSERT_TRUE(hit.is_element()) << x << ", " << y;
      EXPECT_TRUE(near_color(pixel_at(pixels, size.width, x, y),
                             color_for(view.color_by, records[hit.cell], kThreadsPerBlock, 32)))
          << "pixel (" << x << ", " << y << ") cell " << hit.cell;
    }
  }

  // Zoomed in around cells whose records sit in different bindings, and at the end.
  const std::uint64_t per_binding = render::max_records_per_binding();
  for (const std::uint64_t focus :
       {std::min<std::uint64_t>(per_binding, kCount - 1), std::uint64_t{kCount - 1}}) {
    const PixelPoint at = cell_center_pixel(view.layout, {1.0, 0.0, 0.0}, focus);
    view.transform = {4.0, at.x - 32.0, at.y - 32.0};  // the focus cell lands near the centre
    view.block_lines = false;  // they would cover the left pixel column sampled below
    pixels = render(trace, view, size);
    int checked = 0;
    for (int y = 2; y < size.height; y += 4) {
      for (int x = 2; x < size.width; x += 4) {
        const CellHit hit = element_at(view.layout, view.transform, x, y, size);
        if (!hit.is_element()) continue;
        const Rgb expected = color_for(view.color_by, records[hit.cell], kThreadsPerBlock, 32);
        const Rgba8 actual = pixel_at(pixels, size.width, x, y);
        // Block lines may cover a cell's left or top pixel; the sampled centres stay clear.
        ASSERT_TRUE(near_color(actual, expected)) << "cell " << hit.cell;
        ++checked;
      }
    }
    EXPECT_GT(checked, 1000) << "around cell " << focus;
  }
}

TEST_F(MappingRendererTest, RejectsAnEmptyImage) {
  TraceBuffer trace;
  MappingView view;
  view.layout = *layout_1d(10, 10);
  const Status status = renderer_->render(trace, view, {0, 10});
  ASSERT_FALSE(status.is_ok());
  EXPECT_EQ(status.error().kind, ErrorKind::kInvalidArgument);
}

TEST_F(MappingRendererTest, EmptyTraceDrawsEveryElementUnwritten) {
  TraceBuffer trace;  // never filled: no GL buffer at all
  MappingView view;
  view.launch = {{1, 1, 1}, {32, 1, 1}};
  view.layout = *layout_1d(20, 32, 8);
  view.transform = {10.0, 0.0, 0.0};
  view.grid_lines = false;
  const Viewport size{80, 40};
  const std::vector<std::uint8_t> pixels = render(trace, view, size);
  ASSERT_FALSE(pixels.empty());
  for (std::uint64_t cell = 0; cell < 20; ++cell) {
    const PixelXY p = center_of(view.layout, view.transform, cell);
    EXPECT_TRUE(near_color(pixel_at(pixels, size.width, p.x, p.y), kUnwrittenColor)) << cell;
  }
}

}  // namespace
}  // namespace tl
