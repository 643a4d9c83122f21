#include "own_ceiling.hpp"

#include <cmath>
#include <cstdio>

namespace tl {

std::optional<OwnCeilingShare> share_of_row(double flops, double milliseconds,
                                            const std::string& ceiling_name, double ceiling_flops,
                                            double ceiling_milliseconds) {
  const double rate = flops / milliseconds;
  const double ceiling = ceiling_flops / ceiling_milliseconds;
  if (!(flops > 0) || !(milliseconds > 0) || !(ceiling_flops > 0) || !(ceiling_milliseconds > 0) ||
      !std::isfinite(rate) || !std::isfinite(ceiling)) {
    return std::nullopt;
  }
  return OwnCeilingShare{rate / ceiling, ceiling_name, true};
}

std::string format_share(double share) {
  char text[32];
  // Two significant digits below 10 %: whole percent made every emulator point of a roofline
  // read "0%" or "1%", which cannot be compared.
  const double percent = share * 100.0;
  std::snprintf(text, sizeof text, percent < 9.95 ? "%.2g%%" : "%.0f%%", percent);
  return text;
}

}  // namespace tl
