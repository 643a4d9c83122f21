#pragma once
// `threadlab bench --suite ratios`: each result next to what it should be compared with, measured
// in the same run: a kernel's GB/s against the device's copy, its GFLOP/s against cuBLAS, one
// path's time against another's. As a table, CSV or JSON.

#include <ostream>
#include <string>
#include <vector>

#include "core/bench/ratio_row.hpp"

namespace tl::cli {

void print_ratio_table(std::ostream& out, const std::string& device,
                       const std::vector<RatioRow>& rows);
void print_ratio_csv(std::ostream& out, const std::vector<RatioRow>& rows);
void print_ratio_json(std::ostream& out, const std::string& device,
                      const std::vector<RatioRow>& rows);

}  // namespace tl::cli
