#pragma once
// What a timing row measures, as a value the code can ask for: its role (the kernel alone, end to
// end with pageable or pinned copies, one copy, the CPU on one thread or on all of them, a library
// reference such as cuBLAS, one launch of a multi-launch chain) and, where a lesson times several
// of one role, which one (its variant: "naive", "tiled", "fused", "x-to-row" ...). Plots, the
// crossover marker, the ratio tables and the exports pick rows by this key; the display name is for
// people only and may change with the backend ("GPU ..." / "Emulated ...") or the wording.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tl {

enum class TimingRole : std::uint8_t {
  kKernel,            // one kernel (or the lesson's chain of kernels), on the device alone
  kEndToEndPageable,  // copies from and to pageable host memory, plus the kernel
  kEndToEndPinned,    // the same with page-locked (pinned) host memory
  kCopy,              // one host↔device copy
  kCpuOneThread,      // the CPU reference on one thread
  kCpuAllThreads,     // the CPU reference on every hardware thread
  kLibrary,           // a library's implementation of the same work (cuBLAS)
  kChainStep,         // one launch of a multi-launch chain (the unfused dense layer's 1/3)
};

struct TimingKey {
  TimingRole role = TimingRole::kKernel;
  std::string variant;  // empty where the lesson times one row of this role

  friend bool operator==(const TimingKey&, const TimingKey&) = default;
};

// "kernel", "end-to-end-pinned", "cpu-one-thread" ...: the role as exports and the CLI write it.
[[nodiscard]] std::string_view to_string(TimingRole role);
[[nodiscard]] std::optional<TimingRole> parse_timing_role(std::string_view text);

// "kernel/naive", or the role alone when there is no variant.
[[nodiscard]] std::string to_string(const TimingKey& key);

// The CPU's side of a CPU-against-GPU comparison (the plots draw the two sides in warm and cool
// hues).
[[nodiscard]] constexpr bool is_cpu(TimingRole role) {
  return role == TimingRole::kCpuOneThread || role == TimingRole::kCpuAllThreads;
}
// Rows that include the copies to and from the host.
[[nodiscard]] constexpr bool is_end_to_end(TimingRole role) {
  return role == TimingRole::kEndToEndPageable || role == TimingRole::kEndToEndPinned;
}

}  // namespace tl
