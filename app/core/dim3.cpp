#include "dim3.hpp"

namespace tl {

std::string to_string(const Dim3& d) {
  if (d.z == 1 && d.y == 1) return std::to_string(d.x);
  if (d.z == 1) return std::to_string(d.x) + "×" + std::to_string(d.y);
  return std::to_string(d.x) + "×" + std::to_string(d.y) + "×" + std::to_string(d.z);
}

}  // namespace tl
