// Demo scripts, as a teacher writes them the night before: toml++'s parse and our reading of the
// steps must give a script or a one-line "file:line: what", never a crash or a silent half-script.

#include <cstdint>
#include <string_view>

#include "core/classroom/demo_script.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto script = tl::classroom::parse_demo_script(text, "fuzz.toml");
  if (!script) {
    const std::string& message = script.message();
    if (message.rfind("fuzz.toml", 0) != 0 || message.find('\n') != std::string::npos) {
      __builtin_trap();
    }
    return 0;
  }
  if (script->steps.empty()) __builtin_trap();
  for (std::size_t i = 0; i < script->steps.size(); ++i) {
    (void)tl::classroom::step_error(*script, i, "x");
    if (script->steps[i].shot.empty()) __builtin_trap();
  }
  return 0;
}
