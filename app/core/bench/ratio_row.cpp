#include "core/bench/ratio_row.hpp"

#include <utility>

namespace tl {

RatioRow with_target(RatioRow row, double target) {
  row.target = target;
  return row;
}

RatioRow rate_ratio(std::string what, double value, std::string unit, std::string against,
                    double reference) {
  RatioRow row{std::move(what), value, std::move(unit), std::move(against), reference, {}, 0};
  if (reference > 0) row.ratio = value / reference;
  return row;
}

RatioRow time_ratio(std::string what, double milliseconds, std::string against,
                    double reference_milliseconds) {
  RatioRow row{std::move(what),        milliseconds, "ms", std::move(against),
               reference_milliseconds, {},           0};
  if (reference_milliseconds > 0 && milliseconds > 0)
    row.ratio = reference_milliseconds / milliseconds;
  return row;
}

}  // namespace tl
