// Lesson 3's kernels, described once for both executors (kernels/kernel_description.hpp explains
// the pattern). Included inside namespace tl::gpu or tl::emulated, after
// lessons/03_2d_blocks/kernels/matrix_add.cuh.

constexpr auto kXToCol = describe("matrix_add_x_to_col", &matrix_add_x_to_col<tl::Untraced>);
constexpr auto kXToRow = describe("matrix_add_x_to_row", &matrix_add_x_to_row<tl::Untraced>);
constexpr auto kXToColTraced =
    describe("matrix_add_x_to_col_traced", &matrix_add_x_to_col<tl::Traced>);
constexpr auto kXToRowTraced =
    describe("matrix_add_x_to_row_traced", &matrix_add_x_to_row<tl::Traced>);

inline kernels::MatrixAddKernels matrix_add_kernels() {
  return {launch<kXToCol>, launch<kXToRow>, launch<kXToColTraced>, launch<kXToRowTraced>};
}

inline std::span<const kernels::KernelSymbol> matrix_add_symbols() {
  static const kernels::KernelSymbol kSymbols[] = {symbol(kXToCol), symbol(kXToRow)};
  return kSymbols;
}
