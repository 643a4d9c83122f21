#include "parse.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>

namespace tl {
namespace {

std::string trim(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t");
  if (begin == std::string::npos) return {};
  const auto end = s.find_last_not_of(" \t");
  return s.substr(begin, end - begin + 1);
}

Result<std::uint64_t> parse_plain(const std::string& text, const std::string& original) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec == std::errc::result_out_of_range)
    return invalid_argument("'" + original + "' is too large");
  if (ec != std::errc{} || ptr != end)
    return invalid_argument("'" + original + "' is not a whole number");
  return value;
}

Result<std::uint64_t> power_of_two(const std::string& exponent_text, const std::string& original) {
  auto exponent = parse_plain(exponent_text, original);
  if (!exponent) return exponent;
  if (*exponent > 62) return invalid_argument("'" + original + "' is too large (at most 2^62)");
  return std::uint64_t{1} << *exponent;
}

}  // namespace

Result<std::uint64_t> parse_count(const std::string& raw) {
  const std::string text = trim(raw);
  if (text.empty()) return invalid_argument("expected a number, got nothing");
  if (text.rfind("2^", 0) == 0) return power_of_two(text.substr(2), raw);
  if (text.rfind("1<<", 0) == 0) return power_of_two(text.substr(3), raw);
  if (text.find_first_of("eE") != std::string::npos) {
    double value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || ptr != text.data() + text.size() || value < 0 || value > 9.2e18 ||
        value != std::floor(value)) {
      return invalid_argument("'" + raw + "' is not a whole number");
    }
    return static_cast<std::uint64_t>(value);
  }
  struct Suffix {
    const char* text;
    std::uint64_t factor;
  };
  for (const Suffix s : {Suffix{"Ki", 1ull << 10}, Suffix{"Mi", 1ull << 20},
                         Suffix{"Gi", 1ull << 30}, Suffix{"K", 1000ull}, Suffix{"k", 1000ull},
                         Suffix{"M", 1000000ull}, Suffix{"G", 1000000000ull}}) {
    const std::string suffix = s.text;
    if (text.size() > suffix.size() &&
        text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0) {
      auto base = parse_plain(text.substr(0, text.size() - suffix.size()), raw);
      if (!base) return base;
      if (*base > UINT64_MAX / s.factor) return invalid_argument("'" + raw + "' is too large");
      return *base * s.factor;
    }
  }
  return parse_plain(text, raw);
}

Result<std::vector<std::uint64_t>> parse_count_list(const std::string& text) {
  std::vector<std::uint64_t> values;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    const std::string item = trim(text.substr(start, comma - start));
    if (item.empty()) return invalid_argument("empty entry in the list '" + text + "'");
    const std::size_t dots = item.find("..");
    if (dots != std::string::npos) {
      auto low = parse_count(item.substr(0, dots));
      if (!low) return low.error();
      auto high = parse_count(item.substr(dots + 2));
      if (!high) return high.error();
      if (!std::has_single_bit(*low) || !std::has_single_bit(*high) || *low > *high) {
        return invalid_argument("range '" + item +
                                "' must go from a power of two up to a power of two");
      }
      for (std::uint64_t v = *low; v <= *high && v != 0; v <<= 1) values.push_back(v);
    } else {
      auto value = parse_count(item);
      if (!value) return value.error();
      values.push_back(*value);
    }
    start = comma + 1;
  }
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

}  // namespace tl
