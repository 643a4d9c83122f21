#include "own_ceiling.hpp"

#include <cmath>

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

}  // namespace tl
