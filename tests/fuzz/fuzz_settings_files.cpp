// The files ThreadLab reads back on start: the device ceilings cache (JSON in the XDG cache) and
// the settings (TOML in the XDG config). A file another version wrote, or a half-written one, must
// give a clear error or defaults, never a crash.

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/classroom/settings.hpp"
#include "core/device_ceilings.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("threadlab-fuzz-ceilings-" + std::to_string(getpid()) + ".json");
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  auto cache = tl::CeilingsCache::load(path);
  if (cache) {
    // What loaded saves and loads again to the same entries.
    (void)cache->find("x");
    if (cache->save(path).is_ok() && !tl::CeilingsCache::load(path).is_ok()) __builtin_trap();
  }
  // Settings never fail: whatever loads saves and loads again to the same values, silently.
  const tl::classroom::LoadedSettings settings = tl::classroom::load_settings(path);
  if (tl::classroom::save_settings(path, settings.settings).is_ok()) {
    const tl::classroom::LoadedSettings again = tl::classroom::load_settings(path);
    if (again.warning || !(again.settings == settings.settings)) __builtin_trap();
  }
  return 0;
}
