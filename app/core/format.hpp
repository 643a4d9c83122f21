#pragma once
// Human-readable numbers for messages and tables.

#include <cstdint>
#include <string>

namespace tl {

std::string format_bytes(double bytes);            // "1.50 GiB"
std::string format_milliseconds(double ms);        // "412 µs", "3.21 ms", "1.20 s"
std::string format_count(std::uint64_t n);         // "16,777,216"
std::string format_power_of_two(std::uint64_t n);  // "2^24" when n is one, else format_count

}  // namespace tl
