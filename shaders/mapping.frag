// Per pixel: which cell, which element, its trace record, its colour. Picking on the CPU
// (tl::element_at) repeats the first steps in the same float arithmetic.
//
// Records are bound in ranges (a driver may cap one shader storage binding below the whole trace),
// so one draw pass owns the cells [u_cell_begin, u_cell_end) and sees the records
// [u_record_begin, u_record_end); other pixels are discarded and drawn by another pass.

layout(std430, binding = 0) readonly buffer TraceRecords { uvec4 records[]; };
// One bit per marked cell (render/cell_marks.hpp): the Lab's wrong elements and, past the data,
// its threads that accessed outside an array.
layout(std430, binding = 1) readonly buffer CellMarks { uint mark_words[]; };

uniform vec2 u_origin;
uniform float u_cells_per_pixel;
uniform float u_cell_pixels;
uniform float u_viewport_height;
uniform uint u_columns;
uniform uint u_elements;      // data cells; cells past them are idle threads
uniform uint u_cells;         // data cells + idle threads
uniform uint u_record_count;  // records in the trace; elements past it count as unwritten
uniform uint u_cell_begin;
uniform uint u_cell_end;
uniform uint u_record_begin;
uniform uint u_record_end;
uniform int u_color_by;
uniform uint u_threads_per_block;
uniform uint u_warp_size;
uniform bool u_highlight_enabled;
uniform uint u_highlight_cell;
uniform bool u_marks_enabled;
uniform uint u_mark_cells;  // cells the mark bits cover
uniform bool u_grid_lines;
uniform float u_grid_line_min_cell_pixels;
uniform bool u_block_lines;
uniform float u_block_line_min_cell_pixels;

out vec4 frag_color;

const uint kNoBlock = 0xFFFFFFFFu;

// The record of a data cell that this pass can see; unwritten past the end of the trace.
bool record_of(uint cell, out uvec4 record) {
  record = uvec4(0u);
  if (cell >= u_record_count) return true;
  if (cell < u_record_begin || cell >= u_record_end) return false;
  record = records[cell - u_record_begin];
  return true;
}

// The block that owns a cell: the writer for a data cell (kNoBlock when unwritten), the thread's own
// block for an idle thread. False when this pass cannot tell.
bool block_of(uint cell, out uint block) {
  block = kNoBlock;
  if (cell >= u_cells) return false;
  if (cell >= u_elements) {
    block = cell / max(u_threads_per_block, 1u);
    return true;
  }
  uvec4 record;
  if (!record_of(cell, record)) return false;
  block = record.w == 0u ? kNoBlock : record.x;
  return true;
}

bool is_marked(uint cell) {
  return u_marks_enabled && cell < u_mark_cells && ((mark_words[cell >> 5u] >> (cell & 31u)) & 1u) != 0u;
}

bool differs_from(uint cell, uint block) {
  uint other;
  return block_of(cell, other) && other != block;
}

void main() {
  // Pixel centre, counted from the top-left corner like ImGui and tl::element_at.
  vec2 pixel = vec2(gl_FragCoord.x, u_viewport_height - gl_FragCoord.y);
  vec2 position = u_origin + pixel * u_cells_per_pixel;
  vec2 cell_xy = floor(position);
  if (cell_xy.x < 0.0 || cell_xy.y < 0.0 || cell_xy.x >= float(u_columns)) discard;
  uint col = uint(cell_xy.x);
  uint row = uint(cell_xy.y);
  uint cell = row * u_columns + col;
  if (cell_xy.y >= float(u_cells / u_columns + 1u) || cell >= u_cells) discard;
  if (cell < u_cell_begin || cell >= u_cell_end) discard;

  vec3 color;
  if (cell < u_elements) {
    uvec4 record;
    record_of(cell, record);  // always visible: this pass owns the cell
    color = color_for(u_color_by, record, u_threads_per_block, u_warp_size);
  } else {
    // A marked thread past the data went outside an array: hatched orange, not idle grey.
    bool stripe = idle_thread_stripe(int(pixel.x), int(pixel.y));
    color = is_marked(cell) ? out_of_range_thread_color(stripe) : idle_thread_color(stripe);
  }

  // Position inside the cell in pixels from its top-left corner.
  vec2 local = (position - cell_xy) * u_cell_pixels;
  if (u_grid_lines && u_cell_pixels >= u_grid_line_min_cell_pixels &&
      (local.x < 1.0 || local.y < 1.0)) {
    color *= kGridLineShade;
  }
  if (u_block_lines && u_cell_pixels >= u_block_line_min_cell_pixels) {
    float width = u_cell_pixels >= 4.0 * u_block_line_min_cell_pixels ? 2.0 : 1.0;
    uint block;
    if (block_of(cell, block)) {
      bool left = col > 0u && local.x < width && differs_from(cell - 1u, block);
      bool top = row > 0u && local.y < width && differs_from(cell - u_columns, block);
      if (left || top) color = kBlockLineColor;
    }
  }
  if (cell < u_elements && is_marked(cell)) {
    // A wrong element: a red outline around its own (tinted) colour, which still tells who wrote
    // it; tiny cells are filled, or the mark would vanish.
    float width = clamp(floor(u_cell_pixels / 5.0), 1.0, 4.0);
    bool edge = local.x < width || local.y < width || local.x >= u_cell_pixels - width ||
                local.y >= u_cell_pixels - width;
    color = u_cell_pixels < 4.0 || edge ? kWrongElementColor
                                        : mix(color, kWrongElementColor, kWrongElementTint);
  }
  if (u_highlight_enabled && cell == u_highlight_cell) {
    // Small cells are filled; larger ones get an outline so their own colour stays visible.
    float width = clamp(floor(u_cell_pixels / 6.0), 1.0, 3.0);
    bool edge = local.x < width || local.y < width || local.x >= u_cell_pixels - width ||
                local.y >= u_cell_pixels - width;
    if (u_cell_pixels < 4.0 || edge) color = kHighlightColor;
  }
  frag_color = vec4(color, 1.0);
}
