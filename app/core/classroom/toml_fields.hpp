#pragma once
// The small layer over toml++ that the settings and demo-script readers share: parsing into a
// Result instead of an exception, and "file:line: message" for a value that is wrong.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <toml++/toml.h>

#include "core/result.hpp"

namespace tl::classroom {

// A syntax error is a kParseError "file:line:column: what toml++ says".
Result<toml::table> parse_toml(std::string_view text, const std::string& file);

// A table's entries in the order they appear in the file (toml++ iterates in key order), so the
// first problem reported is the first one a reader meets.
std::vector<std::pair<std::string, const toml::node*>> in_file_order(const toml::table& table);

// "file:line: what" for the node's first line ("file: what" where it has no position).
std::string located(const std::string& file, const toml::node& node, const std::string& what);

}  // namespace tl::classroom
