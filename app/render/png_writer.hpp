#pragma once
// Saving a rendered image as PNG (screenshots, `threadlab render`, test artefacts).

#include <cstdint>
#include <filesystem>
#include <span>

#include "core/result.hpp"

namespace tl::render {

// `rgba`: width * height * 4 bytes, top row first (what MappingRenderer::read_pixels returns).
Status write_png(const std::filesystem::path& path, int width, int height,
                 std::span<const std::uint8_t> rgba);

}  // namespace tl::render
