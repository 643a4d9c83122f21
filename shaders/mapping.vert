// One quad that covers the rows [u_row_begin, u_row_end) of the layout; the fragment shader works
// out everything else from the pixel position, so the quad only has to cover the right pixels.

uniform vec2 u_viewport;       // width, height in pixels
uniform vec2 u_origin;         // cell-space point at the top-left corner
uniform float u_cell_pixels;
uniform float u_layout_columns;  // the column count, as a float
uniform float u_row_begin;
uniform float u_row_end;

void main() {
  // Triangle strip: (0,0) (1,0) (0,1) (1,1).
  vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
  vec2 cell = vec2(corner.x * u_layout_columns, mix(u_row_begin, u_row_end, corner.y));
  // Grown by a pixel on every side: a pixel whose centre lies exactly on a row boundary belongs to
  // the row below (floor in the fragment shader), but the rasterizer's fill rule may leave it to the
  // quad above; growing makes sure the pass that owns the cell sees it, the others discard it.
  vec2 pixel = (cell - u_origin) * u_cell_pixels + (corner * 2.0 - 1.0);
  // Clamped just outside the viewport: the same pixels are covered, without the huge coordinates
  // that a deep zoom into millions of cells would hand to the rasterizer.
  pixel = clamp(pixel, vec2(-1.0), u_viewport + vec2(1.0));
  vec2 ndc = pixel / u_viewport * 2.0 - 1.0;
  gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);  // pixel y grows downwards, NDC y upwards
}
