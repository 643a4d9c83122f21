#pragma once
// The tracing contract, shared by the traced kernels (GPU and emulator), the OpenGL renderer and
// the exporters. One record per data element, 16 bytes, laid out so that a GLSL std430 `uvec4`
// array reads it unchanged. A zero-filled buffer means "nobody wrote anything": every launch starts
// from zeros.
//
// This header is included by CUDA device code, so it holds plain data only.

#include <cstdint>

namespace tl {

struct TraceRecord {
  std::uint32_t block;  // linear block index: x + gridDim.x * (y + gridDim.y * z)
  std::uint32_t
      thread_and_sm;  // bits 0..15 linear thread index in its block, 16..31 SM id + 1 (0: unknown)
  std::uint32_t iteration;  // grid-stride pass that wrote the element, 0 without a grid-stride loop
  std::uint32_t writes;     // how many times the element was written (atomically incremented)
};
static_assert(sizeof(TraceRecord) == 16, "the GL shaders read a TraceRecord as one uvec4");

inline constexpr std::uint32_t kTraceThreadMask = 0xFFFFu;
inline constexpr std::uint32_t kTraceSmShift = 16;

// Per block: where and when it ran. `sm` is -1 and the times 0 on the emulator.
struct BlockRecord {
  std::int32_t sm;
  std::uint32_t reserved;
  std::uint64_t start_ns;
  std::uint64_t end_ns;
};
static_assert(sizeof(BlockRecord) == 24);

}  // namespace tl
