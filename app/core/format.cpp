#include "format.hpp"

#include <bit>
#include <cstdio>
#include <limits>

namespace tl {

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (bytes >= 1024.0 && unit < 4) {
    bytes /= 1024.0;
    ++unit;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, unit == 0 ? "%.0f %s" : "%.2f %s", bytes, units[unit]);
  return buffer;
}

std::string format_milliseconds(double ms) {
  char buffer[32];
  if (ms < 1.0) {
    std::snprintf(buffer, sizeof buffer, "%.1f µs", ms * 1e3);
  } else if (ms < 1000.0) {
    std::snprintf(buffer, sizeof buffer, "%.3g ms", ms);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.3g s", ms / 1e3);
  }
  return buffer;
}

std::string format_count(std::uint64_t n) {
  // Counts saturate there (saturating_multiply): the true count is at least this large.
  if (n == std::numeric_limits<std::uint64_t>::max()) return "2^64 or more";
  std::string digits = std::to_string(n);
  std::string out;
  const int len = static_cast<int>(digits.size());
  for (int i = 0; i < len; ++i) {
    if (i > 0 && (len - i) % 3 == 0) out += ',';
    out += digits[static_cast<std::size_t>(i)];
  }
  return out;
}

std::string format_power_of_two(std::uint64_t n) {
  if (n >= 1024 && std::has_single_bit(n)) return "2^" + std::to_string(std::countr_zero(n));
  return format_count(n);
}

std::size_t display_width(std::string_view text) {
  std::size_t width = 0;
  for (const char c : text) width += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  return width;
}

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

std::string one_line(std::string_view text) {
  std::string line;
  line.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n') {
      line += "\\n";
    } else if (c == '\r') {
      line += "\\r";
    } else if (c == '\t') {
      line += "\\t";
    } else if (byte < 0x20 || byte == 0x7f) {
      static constexpr char kHex[] = "0123456789abcdef";
      line += "\\x";
      line += kHex[byte >> 4];
      line += kHex[byte & 0xf];
    } else {
      line += c;
    }
  }
  return line;
}

}  // namespace tl
