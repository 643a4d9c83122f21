#include "headless_chromium.hpp"

#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace tl::net_test {

std::string find_chromium() {
  for (const char* path :
       {"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"}) {
    if (::access(path, X_OK) == 0) return path;
  }
  return {};
}

std::string dump_dom(const std::string& chromium, const std::string& url) {
  std::string profile_template =
      (std::filesystem::temp_directory_path() / "threadlab-chromium-XXXXXX").string();
  if (::mkdtemp(profile_template.data()) == nullptr) return {};
  std::string command = "timeout 90 " + chromium +
                        " --headless --no-sandbox --disable-gpu --no-first-run"
                        " --disable-dev-shm-usage --user-data-dir=" +
                        profile_template + " --virtual-time-budget=3000 --dump-dom '" + url +
                        "' 2>/dev/null";
  std::string out;
  std::FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  std::array<char, 4096> buffer{};
  for (std::size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0;)
    out.append(buffer.data(), n);
  ::pclose(pipe);
  std::error_code ignored;
  std::filesystem::remove_all(profile_template, ignored);
  return out;
}

}  // namespace tl::net_test
