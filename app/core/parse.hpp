#pragma once
// Parsing the numbers people type: "1000", "2^24", "1<<20", "16M", "1e6", and lists of them.

#include <cstdint>
#include <string>
#include <vector>

#include "result.hpp"

namespace tl {

// A non-negative integer: decimal, 2^k, 1<<k, k-suffixed (K = 1e3, M = 1e6, G = 1e9, Ki/Mi/Gi
// powers of 1024) or scientific with an integral value (1e6).
Result<std::uint64_t> parse_count(const std::string& text);

// "a,b,c" of counts, or "a..b" for the powers of two from a to b (both powers of two, a <= b), or a
// mix: "1000,2^10..2^20". The result is sorted and without duplicates.
Result<std::vector<std::uint64_t>> parse_count_list(const std::string& text);

}  // namespace tl
