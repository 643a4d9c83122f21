#pragma once
// Which lane of a warp holds which element of A, B and C for one tensor-core instruction,
// mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 (and .bf16): the layout the PTX ISA documents
// ("Matrix Fragments for mma.m16n8k16 with floating point type", figures for A, B and C/D). It is a
// fixed function of the lane index, so it can be drawn and tested without a GPU; the mma rung
// (lessons/04_matmul/kernels/matmul_mma.cuh) relies on it when it computes ldmatrix addresses and
// when it stores C, and a GPU test (tests/gpu) reads the registers of a real mma back and compares
// them with it.
//
// A warp's 32 lanes form 8 groups of 4: groupID = lane / 4, threadID_in_group = lane % 4.
//   A (16×16, row major), 8 halves per lane in 4 32-bit registers a0a1 | a2a3 | a4a5 | a6a7:
//     row = groupID (+8 for a2, a3, a6, a7), col = 2·threadID_in_group + (i & 1) (+8 for a4..a7)
//   B (16×8, k × n), 4 halves per lane in 2 registers b0b1 | b2b3:
//     k = 2·threadID_in_group + (i & 1) (+8 for b2, b3), n = groupID
//   C and D (16×8, float), 4 floats per lane c0..c3:
//     row = groupID (+8 for c2, c3), col = 2·threadID_in_group + (i & 1)
// No CUDA here: the lesson's views and tests include it.

namespace tl::kernels {

inline constexpr int kMmaM = 16;  // rows of A and C
inline constexpr int kMmaN = 8;   // columns of B and C
inline constexpr int kMmaK = 16;  // columns of A, rows of B
inline constexpr int kMmaAPerLane = 8;
inline constexpr int kMmaBPerLane = 4;
inline constexpr int kMmaCPerLane = 4;

// Which fragment of the instruction.
enum class MmaOperand { kA, kB, kC };

struct FragmentElement {
  int row = 0;  // for B: k
  int col = 0;  // for B: n
  friend constexpr bool operator==(const FragmentElement&, const FragmentElement&) = default;
};

// Who holds an element: the lane and its index among that lane's elements (a0..a7, b0..b3, c0..c3).
// Two 16-bit elements share one 32-bit register: element i is in register i / 2, the low half when
// i is even.
struct FragmentSlot {
  int lane = 0;
  int index = 0;
  friend constexpr bool operator==(const FragmentSlot&, const FragmentSlot&) = default;
};

[[nodiscard]] constexpr int mma_rows(MmaOperand operand) {
  return operand == MmaOperand::kB ? kMmaK : kMmaM;
}
[[nodiscard]] constexpr int mma_cols(MmaOperand operand) {
  return operand == MmaOperand::kA ? kMmaK : kMmaN;
}
[[nodiscard]] constexpr int mma_per_lane(MmaOperand operand) {
  switch (operand) {
    case MmaOperand::kA:
      return kMmaAPerLane;
    case MmaOperand::kB:
      return kMmaBPerLane;
    default:
      return kMmaCPerLane;
  }
}

// Element `index` of `lane`'s fragment.
[[nodiscard]] constexpr FragmentElement mma_element(MmaOperand operand, int lane, int index) {
  const int group = lane / 4, in_group = lane % 4;
  switch (operand) {
    case MmaOperand::kA:
      return {group + 8 * ((index / 2) % 2), 2 * in_group + index % 2 + 8 * (index / 4)};
    case MmaOperand::kB:
      return {2 * in_group + index % 2 + 8 * (index / 2), group};
    default:
      return {group + 8 * (index / 2), 2 * in_group + index % 2};
  }
}

// The inverse: the lane and index that hold (row, col).
[[nodiscard]] constexpr FragmentSlot mma_slot(MmaOperand operand, int row, int col) {
  switch (operand) {
    case MmaOperand::kA:
      return {4 * (row % 8) + (col % 8) / 2, col % 2 + 2 * (row / 8) + 4 * (col / 8)};
    case MmaOperand::kB:
      return {4 * col + (row % 8) / 2, row % 2 + 2 * (row / 8)};
    default:
      return {4 * (row % 8) + col / 2, col % 2 + 2 * (row / 8)};
  }
}

// "a0".."a7", "b0".."b3", "c0".."c3": the names the PTX ISA's figures give a lane's elements.
[[nodiscard]] constexpr char mma_operand_letter(MmaOperand operand) {
  return operand == MmaOperand::kA ? 'a' : operand == MmaOperand::kB ? 'b' : 'c';
}

// The layout is a bijection between (lane, index) and the operand's elements: every element has
// exactly one owner. Checked at compile time for all three operands.
[[nodiscard]] constexpr bool mma_layout_is_bijective(MmaOperand operand) {
  for (int lane = 0; lane < 32; ++lane) {
    for (int index = 0; index < mma_per_lane(operand); ++index) {
      const FragmentElement e = mma_element(operand, lane, index);
      if (e.row < 0 || e.row >= mma_rows(operand) || e.col < 0 || e.col >= mma_cols(operand)) {
        return false;
      }
      if (!(mma_slot(operand, e.row, e.col) == FragmentSlot{lane, index})) return false;
    }
  }
  return 32 * mma_per_lane(operand) == mma_rows(operand) * mma_cols(operand);
}
static_assert(mma_layout_is_bijective(MmaOperand::kA));
static_assert(mma_layout_is_bijective(MmaOperand::kB));
static_assert(mma_layout_is_bijective(MmaOperand::kC));

}  // namespace tl::kernels
