#include "row_label.hpp"

#include <array>

namespace tl {
namespace {

constexpr std::array<std::string_view, 2> kPrefixes = {"GPU ", "Emulated "};
constexpr std::array<std::string_view, 3> kSuffixes = {" (CPU)", " (emulated)", " (emulated, CPU)"};

}  // namespace

bool names_backend(std::string_view name) {
  for (std::string_view prefix : kPrefixes) {
    if (name.starts_with(prefix)) return true;
  }
  for (std::string_view suffix : kSuffixes) {
    if (name.ends_with(suffix)) return true;
  }
  return false;
}

std::string row_label_without_backend(std::string_view name) {
  std::string_view rest = name;
  for (std::string_view prefix : kPrefixes) {
    if (rest.starts_with(prefix) && rest.size() > prefix.size()) {
      rest.remove_prefix(prefix.size());
      break;
    }
  }
  for (std::string_view suffix : kSuffixes) {
    if (rest.ends_with(suffix) && rest.size() > suffix.size()) {
      rest.remove_suffix(suffix.size());
      break;
    }
  }
  return std::string(rest);
}

}  // namespace tl
