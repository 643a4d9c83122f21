#include "core/classroom/toml_fields.hpp"

#include <algorithm>

#include "core/format.hpp"

namespace tl::classroom {

Result<toml::table> parse_toml(std::string_view text, const std::string& file) {
  try {
    return toml::parse(text, file);
  } catch (const toml::parse_error& error) {
    const auto& where = error.source().begin;
    return Error{ErrorKind::kParseError, file + ":" + std::to_string(where.line) + ":" +
                                             std::to_string(where.column) + ": " +
                                             // toml++ may quote a newline or a control byte.
                                             one_line(error.description())};
  }
}

std::vector<std::pair<std::string, const toml::node*>> in_file_order(const toml::table& table) {
  std::vector<std::pair<std::string, const toml::node*>> entries;
  for (auto&& [key, node] : table) entries.emplace_back(std::string(key.str()), &node);
  std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    const auto& pa = a.second->source().begin;
    const auto& pb = b.second->source().begin;
    return pa.line != pb.line ? pa.line < pb.line : pa.column < pb.column;
  });
  return entries;
}

std::string located(const std::string& file, const toml::node& node, const std::string& what) {
  // `what` may quote a key from the file, and a quoted TOML key may hold a newline.
  const auto line = node.source().begin.line;
  if (line == 0) return file + ": " + one_line(what);
  return file + ":" + std::to_string(line) + ": " + one_line(what);
}

}  // namespace tl::classroom
