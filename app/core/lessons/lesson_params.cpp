#include "lesson_params.hpp"

#include <algorithm>
#include <map>

#include "core/launch_config.hpp"
#include "core/parse.hpp"

namespace tl::lessons {
namespace {

// "x_to_row" and "x-to-row" are one spelling: command lines hyphenate, older links used
// underscores.
bool same_spelling(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const char x = a[i] == '_' ? '-' : a[i];
    const char y = b[i] == '_' ? '-' : b[i];
    if (x != y) return false;
  }
  return true;
}

}  // namespace

ParamReader::ParamReader(std::span<const ParamSpec> specs, const ParamValues& values)
    : specs_(specs), values_(values) {}

const ParamSpec* ParamReader::spec(const std::string& name) const {
  for (const ParamSpec& s : specs_) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::string ParamReader::value(const std::string& name) const {
  auto it = values_.find(name);
  if (it != values_.end()) return it->second;
  const ParamSpec* s = spec(name);
  return s != nullptr ? s->default_value : std::string();
}

Status ParamReader::check_names(const std::string& lesson_id) const {
  for (const auto& [name, text] : values_) {
    if (spec(name) == nullptr) {
      return invalid_argument("'" + name + "' is not a parameter of " + lesson_id + " (it takes " +
                              list_param_names(specs_) + ")");
    }
  }
  return Status::ok();
}

Result<std::uint64_t> ParamReader::count(const std::string& name) const {
  auto parsed = parse_count(value(name));
  if (!parsed) return invalid_argument(name + ": " + parsed.message());
  return *parsed;
}

Result<Dim3> ParamReader::dim3(const std::string& name) const {
  auto parsed = parse_dim3(value(name));
  if (!parsed) return invalid_argument(name + ": " + parsed.message());
  if (parsed->volume() == 0) return invalid_argument(name + ": every dimension must be at least 1");
  return *parsed;
}

Result<Dim3> ParamReader::grid(const std::string& name) const {
  const std::string text = value(name);
  if (text.empty() || text == "auto") return Dim3{0, 0, 0};
  return dim3(name);
}

Result<std::string> ParamReader::choice(const std::string& name) const {
  const std::string text = value(name);
  const ParamSpec* s = spec(name);
  if (s == nullptr) return invalid_argument("unknown parameter " + name);
  for (const std::string& c : s->choices) {
    if (c == text || same_spelling(c, text)) return c;
  }
  std::string allowed;
  for (const std::string& c : s->choices) allowed += (allowed.empty() ? "" : ", ") + c;
  return invalid_argument(name + ": '" + text + "' is not one of " + allowed);
}

Result<bool> ParamReader::flag(const std::string& name) const {
  const std::string text = value(name);
  if (text == "1" || text == "true" || text == "on" || text == "yes") return true;
  if (text == "0" || text == "false" || text == "off" || text == "no" || text.empty()) return false;
  return invalid_argument(name + ": '" + text + "' is not on or off");
}

Result<ParamValues> with_canonical_names(std::span<const ParamSpec> specs,
                                         const ParamValues& values) {
  ParamValues canonical;
  std::map<std::string, std::string> given_as;  // canonical name -> the name it was given under
  for (const auto& [given_name, text] : values) {
    std::string name = given_name;
    for (const ParamSpec& spec : specs) {
      if (std::find(spec.aliases.begin(), spec.aliases.end(), given_name) != spec.aliases.end()) {
        name = spec.name;
        break;
      }
    }
    // A choice given in another spelling (x_to_row for x-to-row, the form of older scripts and
    // links) is stored as the choice itself.
    std::string value = text;
    for (const ParamSpec& spec : specs) {
      if (spec.name != name || spec.kind != ParamKind::kChoice) continue;
      for (const std::string& choice : spec.choices) {
        if (choice != value && same_spelling(choice, value)) value = choice;
      }
    }
    if (!canonical.emplace(name, value).second) {
      return invalid_argument("'" + given_as[name] + "' and '" + given_name +
                              "' name the same parameter: give only one");
    }
    given_as[name] = given_name;
  }
  return canonical;
}

ParamValues default_values(std::span<const ParamSpec> specs) {
  ParamValues values;
  for (const ParamSpec& spec : specs) values[spec.name] = spec.default_value;
  return values;
}

Result<ParamValues> merge_values(std::span<const ParamSpec> specs, const ParamValues& current,
                                 const ParamValues& given, std::string_view lesson_id) {
  auto canonical = with_canonical_names(specs, given);
  if (!canonical) return canonical.error();
  ParamValues merged = current;
  for (auto& [name, value] : *canonical) merged[name] = std::move(value);
  TL_RETURN_IF_ERROR(ParamReader(specs, merged).check_names(std::string(lesson_id)));
  return merged;
}

std::string list_param_names(std::span<const ParamSpec> specs) {
  std::string names;
  for (const ParamSpec& s : specs) names += (names.empty() ? "--" : " --") + s.name;
  return names;
}

std::vector<const ParamSpec*> shown_params(std::span<const ParamSpec> specs, bool presenting) {
  std::vector<const ParamSpec*> shown;
  for (const ParamSpec& spec : specs) {
    if (!(presenting && spec.advanced)) shown.push_back(&spec);
  }
  return shown;
}

}  // namespace tl::lessons
