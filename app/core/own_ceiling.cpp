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
  std::snprintf(text, sizeof text, "%.0f%%", share * 100.0);
  return text;
}

}  // namespace tl
