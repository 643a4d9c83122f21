#pragma once
// Lesson parameters as the command line, the UI and lesson links ("threadlab:set?m=64&k=32") give
// them: named text values. Each lesson declares its parameters (ParamSpec) and parses the values it
// receives, naming the parameter in every error.

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/dim3.hpp"
#include "core/result.hpp"

namespace tl::lessons {

enum class ParamKind {
  kCount,   // a non-negative integer: 1000, 2^20, 16M
  kDim3,    // "256", "16,16", "8,8,4"; grids also accept "auto" (enough blocks to cover the data)
  kChoice,  // one of `choices`
  kFlag,    // "1"/"0", "true"/"false", "on"/"off"
};

struct ParamSpec {
  std::string name;   // as on the command line without "--" and in lesson links: "n", "block"
  std::string label;  // as in the UI: "N elements"
  ParamKind kind = ParamKind::kCount;
  std::string default_value;
  std::vector<std::string> choices;  // kChoice only
  std::string help;                  // one sentence, for tooltips and --help
  // Other names accepted on the command line and in lesson links, e.g. the dense layer's "in" and
  // "out" for "inputs" and "neurons". merge_values turns them into `name` for the lesson.
  std::vector<std::string> aliases{};
  // A refinement rather than the lesson's point (a tile size, which product): presenter mode hides
  // it from the launch panel and keeps its value; guided steps and demo scripts still set it.
  bool advanced = false;
};

// The controls the launch panel shows, in order: all of them, or while presenting all but the
// advanced ones.
[[nodiscard]] std::vector<const ParamSpec*> shown_params(std::span<const ParamSpec> specs,
                                                         bool presenting);

using ParamValues = std::map<std::string, std::string>;

// Typed access to a lesson's parameter values, with errors that name the parameter.
class ParamReader {
 public:
  ParamReader(std::span<const ParamSpec> specs, const ParamValues& values);

  // Fails if `values` holds a name that is not among the specs.
  [[nodiscard]] Status check_names(const std::string& lesson_id) const;

  Result<std::uint64_t> count(const std::string& name) const;
  Result<Dim3> dim3(const std::string& name) const;
  // "auto" (or empty) gives std::nullopt-like Dim3{0,0,0}; callers replace it with a covering grid.
  Result<Dim3> grid(const std::string& name) const;
  Result<std::string> choice(const std::string& name) const;
  Result<bool> flag(const std::string& name) const;

 private:
  [[nodiscard]] const ParamSpec* spec(const std::string& name) const;
  [[nodiscard]] std::string value(const std::string& name) const;  // given, or the default

  std::span<const ParamSpec> specs_;
  const ParamValues& values_;
};

// `values` with every alias replaced by its parameter's name. Names that are neither are kept, for
// the lesson to refuse with its own message; a parameter given under two names is an error.
Result<ParamValues> with_canonical_names(std::span<const ParamSpec> specs,
                                         const ParamValues& values);

// Every parameter at its default.
ParamValues default_values(std::span<const ParamSpec> specs);

// What every lesson's configure starts from: `current` with `given` merged in, aliases resolved,
// and every name checked against `specs` (an unknown one is an error naming `lesson_id`).
Result<ParamValues> merge_values(std::span<const ParamSpec> specs, const ParamValues& current,
                                 const ParamValues& given, std::string_view lesson_id);

// "--n --grid --block", for messages that list what a lesson accepts.
std::string list_param_names(std::span<const ParamSpec> specs);

}  // namespace tl::lessons
