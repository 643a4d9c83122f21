#pragma once
// Checks that a timed kernel and its traced variant map threads to elements identically: what the
// mapping view draws (the traced kernel's records) must be what was timed.
//
// The probe runs both on the emulator through the kernel set's own launch functions
// (emulator_kernels().get<Set>()), on a small, awkward configuration (partial blocks, sizes that
// are not multiples of anything):
//   - the timed kernel with its output pre-filled with a sentinel bit pattern, watched thread by
//     thread (emu::WatchLaunches): after every step of every emulated thread, each element that no
//     longer holds the sentinel was written by that thread; it is noted and the sentinel put back,
//     so a second write is seen too. Kernels whose threads cooperate through shared memory and
//     barriers are watched the same way, stretch by stretch between barriers, so every kernel is
//     checked at the granularity of one thread, every block of the grid included;
//   - the traced kernel once, reading its records.
// Both must name the same writer (block, thread) and the same number of writes for every element.
// The timed kernel must not read its own output (the sentinel would change what it computes).

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/launch_config.hpp"
#include "core/result.hpp"
#include "core/trace_record.hpp"

namespace tl::kernels {

struct MappingProbe {
  std::string name;  // the pair and the configuration, e.g. "matrix_add x_to_row 37×29 ..."
  LaunchConfig config;
  // The output's shape: element (r, c) is at r * cols + c (rows = 1 for a vector).
  std::uint64_t rows = 1;
  std::uint64_t cols = 0;
  // Launch the timed kernel / the traced kernel on `config`, writing `out` (rows × cols floats)
  // and, for the traced one, one record per element into `trace`. They own their inputs.
  std::function<Status(float* out)> timed;
  std::function<Status(float* out, TraceRecord* trace)> traced;
};

struct MappingReport {
  std::uint64_t elements = 0;        // rows × cols, all compared
  std::uint64_t timed_written = 0;   // elements the timed kernel wrote at least once
  std::uint64_t thread_steps = 0;    // steps watched: the probe saw the grid run thread by thread
  std::vector<std::string> kernels;  // the kernels launched: timed, then traced
  // Empty when the mappings agree, else the first element where they differ:
  // "element (r, c): timed written by block b thread t, traced by block b' thread t'".
  std::string mismatch;

  [[nodiscard]] bool same() const { return mismatch.empty(); }
};

// Inputs for a probe's kernels: `count` floats in [-1, 1], a different pattern per `seed`. Shared,
// so that a probe's launch functions can own them.
inline std::shared_ptr<const std::vector<float>> probe_inputs(std::size_t count, unsigned seed) {
  auto data = std::make_shared<std::vector<float>>(count);
  for (std::size_t i = 0; i < count; ++i) {
    (*data)[i] = static_cast<float>((i * 37 + seed * 11) % 41) / 20.0f - 1.0f;
  }
  return data;
}

// Runs `probe`; an error only if a launch fails.
Result<MappingReport> compare_mappings(const MappingProbe& probe);

// One kernel set's probes: every timed/traced pair of the set, on configurations that cover its
// variants (tile sizes, register-tiled rungs, GEMV and GEMM with whole and edge tiles, ...), from
// lessons/NN_name/kernels/<set>_probes.cpp; or, for a set whose traced kernels record something
// other than writes, why it has none.
struct MappingProbeSet {
  std::string_view set;
  std::string_view lesson;
  std::vector<MappingProbe> (*probes)() = nullptr;
  std::string_view no_probes_because;
};

// Every registered kernel set, in the lessons' order (generated from lessons/CMakeLists.txt).
std::span<const MappingProbeSet> registered_mapping_probes();

}  // namespace tl::kernels
