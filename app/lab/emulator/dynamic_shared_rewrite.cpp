#include "lab/emulator/dynamic_shared_rewrite.hpp"

#include <regex>

namespace tl::lab {

std::string rewrite_dynamic_shared(std::string_view source) {
  // extern __shared__ [__align__(N) | alignas(N) | __attribute__((...))]* TYPE NAME [ ] ;
  // TYPE may hold qualifiers, templates and pointers; no newline is crossed, so lines stay put.
  static const std::regex declaration(
      R"(\bextern[ \t]+__shared__[ \t]+((?:(?:__align__|alignas)[ \t]*\([^()\n]*\)[ \t]*|__attribute__[ \t]*\(\([^\n]*?\)\)[ \t]*)*)([^;\[\]\n]*?)[ \t]*\b([A-Za-z_]\w*)[ \t]*\[[ \t]*\][ \t]*;)");
  static const std::regex attributes(
      R"((?:__align__|alignas)[ \t]*\([^()\n]*\)|__attribute__[ \t]*\(\([^\n]*?\)\))");
  std::string text(source);
  std::string out;
  out.reserve(text.size() + 64);
  auto begin = std::sregex_iterator(text.begin(), text.end(), declaration);
  std::size_t copied = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    const std::smatch& match = *it;
    out.append(text, copied, static_cast<std::size_t>(match.position(0)) - copied);
    // An attribute written after the type (`float __align__(16) s[]`) is dropped as well.
    std::string type = std::regex_replace(match[2].str(), attributes, "");
    while (!type.empty() && (type.back() == ' ' || type.back() == '\t')) type.pop_back();
    out += "auto& " + match[3].str() + " = ::tl::emu::dynamic_shared_array<" + type + ">();";
    copied = static_cast<std::size_t>(match.position(0) + match.length(0));
  }
  out.append(text, copied, std::string::npos);
  return out;
}

}  // namespace tl::lab
