#pragma once
// `threadlab lab check FILE --memory`: a passing kernel's memory figures per source line as a
// table for people, CSV or JSON. CSV and JSON name each figure's Nsight Compute counter, so that
// a learner with a GPU can hold the model's numbers against `ncu --metrics ...`.

#include <ostream>
#include <string_view>

#include <nlohmann/json.hpp>

#include "lab/exercise.hpp"
#include "lab/memory_findings.hpp"

namespace tl::cli {

// The table: the scope label first (what was recorded, whether extrapolated, whose model), then
// one row per line: line, source, access, space, requests, sectors, sectors per request, ideal,
// bank conflicts; then each input array's access budget (loads per element per block).
void print_memory_table(const lab::Exercise& exercise, std::string_view source,
                        const lab::MemoryFindings& findings, std::ostream& out);
// RFC 4180, a header line and one row per source line; the scope in columns of every row, and on
// a load row of one input array that array's access budget (loads_per_element; empty on a line
// that loads several, whose figures are JSON's "budgets" and the table's).
void print_memory_csv(const lab::Exercise& exercise, std::string_view source,
                      const lab::MemoryFindings& findings, std::ostream& out);
// {"scope", "budgets": [...], "extrapolated", "recorded_blocks", "grid_blocks", "figures",
// "rows": [...]}; each row holds its figures under their own names and under the counters'
// ("metrics"), a load row of one input array its "loads_per_element"; each budget its array,
// figure, the exercise's expected figure where it states one, and the note.
[[nodiscard]] nlohmann::json memory_json(const lab::Exercise& exercise, std::string_view source,
                                         const lab::MemoryFindings& findings);

}  // namespace tl::cli
