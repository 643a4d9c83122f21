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
// bank conflicts.
void print_memory_table(const lab::Exercise& exercise, std::string_view source,
                        const lab::MemoryFindings& findings, std::ostream& out);
// RFC 4180, a header line and one row per source line; the scope in columns of every row.
void print_memory_csv(const lab::Exercise& exercise, std::string_view source,
                      const lab::MemoryFindings& findings, std::ostream& out);
// {"scope", "extrapolated", "recorded_blocks", "grid_blocks", "figures", "rows": [...]}; each row
// holds its figures under their own names and under the counters' ("metrics").
[[nodiscard]] nlohmann::json memory_json(const lab::Exercise& exercise, std::string_view source,
                                         const lab::MemoryFindings& findings);

}  // namespace tl::cli
