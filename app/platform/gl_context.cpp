#include "platform/gl_context.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

namespace tl::platform {

bool is_software_renderer(const std::string& renderer) {
  std::string lower(renderer);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  constexpr std::array<std::string_view, 4> kSoftwareNames = {"llvmpipe", "softpipe",
                                                              "software rasterizer", "swr"};
  return std::any_of(kSoftwareNames.begin(), kSoftwareNames.end(),
                     [&](std::string_view name) { return lower.find(name) != std::string::npos; });
}

}  // namespace tl::platform
