#pragma once
// What the Lab says about a passing kernel's memory accesses: the per-line table the emulator's
// recording returned (lab_protocol.hpp, MemoryReply), where it was recorded, and a note per access
// line in words ("your loads of `in` move 32 sectors for every 4 used (8× the bytes needed) —
// line 5"). Notes teach; they never fail a check. The same findings serve the Lab tab,
// `threadlab lab check --memory` and its CSV and JSON.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/memory/memory_model.hpp"
#include "lab/exercise.hpp"
#include "lab/worker/lab_protocol.hpp"

namespace tl::lab {

struct MemoryNote {
  int line = 0;  // in kernel.cu; 0 if unknown
  std::string text;
  bool ideal = false;  // the line moves the fewest sectors, or has no bank conflict
};

// An input array's access budget: how many times, on average over the recorded blocks, a block
// loaded each element of it that it used (core/memory/load_budget.hpp), in words: "each block
// reads each element of `A` it uses 15.7 times from global memory (on average over the 4 recorded
// blocks); through 16 × 16 shared-memory tiles it needs about 1". A note, never a failed check.
struct LoadBudgetNote {
  int argument = 0;   // the kernel parameter's index
  std::string array;  // its name
  double loads_per_element = 0.0;
  std::uint64_t blocks = 0;        // recorded blocks that loaded it
  std::optional<double> expected;  // the exercise's budget (Exercise::access_budgets), if stated
  // Within the exercise's budget (to a tenth of it); where none is stated, at most once.
  bool within = false;
  std::string text;
};

struct MemoryFindings {
  std::string unavailable;  // why there is no table; empty: there is one
  std::string case_label;   // the case recorded (the example case)
  LaunchShape launch;
  // The check ran on a GPU; these figures are the emulator's model of the same kernel, not the
  // GPU's counters.
  bool beside_gpu = false;
  MemoryReply reply;
  std::vector<MemoryNote> notes;        // one per row of reply.table, in its order
  std::vector<LoadBudgetNote> budgets;  // one per input array the recorded blocks loaded
};

// What row `row` of the table touches, for people: "`in`", "shared memory", "several arrays".
[[nodiscard]] std::string row_target(const Exercise& exercise, const MemoryReply& reply,
                                     std::size_t row);

// One note per row of the table.
[[nodiscard]] std::vector<MemoryNote> memory_notes(const Exercise& exercise,
                                                   const MemoryReply& reply);

// One note per input array of the exercise that the recorded blocks loaded, in parameter order.
[[nodiscard]] std::vector<LoadBudgetNote> load_budget_notes(const Exercise& exercise,
                                                            const MemoryReply& reply);

// The budget note of the array a row's loads touch; null for stores, shared memory, several arrays
// or an array that is not an input.
[[nodiscard]] const LoadBudgetNote* row_budget(const MemoryFindings& findings, std::size_t row);

// What the counts stand for: "every warp of all 64 blocks of n = 4096 <<<64, 256>>>: exact" or
// "every warp of 4 of 4096 blocks of ...: counts are those blocks'; the grid's are about 1024×
// (extrapolated)"; and, on the GPU, that the figures are the emulator's model.
[[nodiscard]] std::string memory_scope_label(const MemoryFindings& findings);

// A row's badge in the Memory panel: "4 sectors / request — ideal", "32 sectors / request — 8×
// the bytes needed", "no bank conflict", "8-way bank conflict".
[[nodiscard]] std::string memory_badge(const memory::LineTotals& row);

// One access line as the Lab's Memory panel lists it; computed once per verdict, drawn as is.
struct MemoryLine {
  int line = 0;
  std::string source;  // the line's text, trimmed
  std::string access;  // "load of `in`", "store to `out`", "shared-memory load"
  std::string badge;   // memory_badge
  std::string note;    // the verdict's note, for the tooltip
  bool ideal = false;
};
[[nodiscard]] std::vector<MemoryLine> memory_lines(const Exercise& exercise,
                                                   std::string_view source,
                                                   const MemoryFindings& findings);

// The line's text in the source (1-based), trimmed; empty beyond its end.
[[nodiscard]] std::string source_line(std::string_view source, int line);

// "4", "2.5", "10.7": a per-request figure with at most one decimal.
[[nodiscard]] std::string per_request_text(double value);

}  // namespace tl::lab
