#include "core/classroom/demo_script.hpp"

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include <toml++/toml.h>

#include "core/classroom/toml_fields.hpp"
#include "core/user_files.hpp"

namespace tl::classroom {
namespace {

// A problem with the script, thrown from the readers below and turned into one Error at the top:
// the first mistake stops the reading, as a compiler's first error does.
struct ScriptError {
  std::string message;
};

class StepReader {
 public:
  StepReader(const std::string& file, std::size_t number) : file_(file), number_(number) {}

  [[noreturn]] void fail(const toml::node& node, const std::string& what) const {
    throw ScriptError{located(file_, node, "step " + std::to_string(number_) + ": " + what)};
  }

  std::string text(const toml::node& node, const std::string& key) const {
    auto value = node.value<std::string>();
    if (!value || !node.is_string()) fail(node, key + " must be a string in quotes");
    return *value;
  }

  bool flag(const toml::node& node, const std::string& key) const {
    if (!node.is_boolean()) fail(node, key + " must be true or false");
    return *node.value<bool>();
  }

  // Control values as the lesson's fields take them: 1000, "2^20", "auto", [4, 3, 2] or true.
  std::string control_value(const toml::node& node, const std::string& key) const {
    if (node.is_string()) return *node.value<std::string>();
    if (node.is_integer()) return std::to_string(*node.value<std::int64_t>());
    if (node.is_boolean()) return *node.value<bool>() ? "1" : "0";
    if (const toml::array* list = node.as_array()) {
      std::string joined;
      for (const toml::node& item : *list) {
        if (!item.is_integer()) fail(item, key + ": a list holds whole numbers, e.g. [4, 3, 2]");
        if (!joined.empty()) joined += ',';
        joined += std::to_string(*item.value<std::int64_t>());
      }
      if (joined.empty()) fail(node, key + ": the list is empty");
      return joined;
    }
    fail(node,
         key + " must be a whole number, a string such as \"2^20\" or a list such as [4, 3, 2]");
  }

  DemoStep read(const toml::table& table) const {
    DemoStep step;
    step.line = table.source().begin.line;
    step.shot = "step-" + std::string(number_ < 10 ? "0" : "") + std::to_string(number_);
    for (const auto& [name, node_pointer] : in_file_order(table)) {
      const toml::node& node = *node_pointer;
      if (name == "caption") {
        step.caption = text(node, name);
        // ImGui draws a caption in one draw list of 16-bit indices: 20,000 characters overflow it
        // and abort the app (F10). A caption is a line or two on a slide; this is far above that.
        if (step.caption.size() > kMaxCaptionBytes) {
          fail(node, "the caption has " + std::to_string(step.caption.size()) +
                         " characters; a caption holds at most " +
                         std::to_string(kMaxCaptionBytes) + " (split it over several steps)");
        }
      } else if (name == "lesson") {
        step.action.lesson = text(node, name);
      } else if (name == "set") {
        const toml::table* values = node.as_table();
        if (values == nullptr)
          fail(node, "set must be a table, e.g. set = { n = 1000, block = 256 }");
        for (const auto& [control, value] : in_file_order(*values)) {
          step.action.values[control] = control_value(*value, control);
        }
      } else if (name == "color") {
        step.action.color_by = text(node, name);
      } else if (name == "view") {
        step.action.view = text(node, name);
      } else if (name == "plot") {
        step.action.plot = text(node, name);
      } else if (name == "pick") {
        step.action.pick = text(node, name);
      } else if (name == "launch") {
        step.action.launch = flag(node, name);
      } else if (name == "exercise") {
        step.action.exercise = text(node, name);
      } else if (name == "submission") {
        step.action.submission = text(node, name);
      } else if (name == "check") {
        step.action.check = flag(node, name);
      } else if (name == "lab_grid") {
        step.action.lab_grid = text(node, name);
      } else if (name == "run") {
        step.action.run = flag(node, name);
      } else if (name == "sweep") {
        const std::string kind = text(node, name);
        if (kind != "size" && kind != "block") fail(node, "sweep must be \"size\" or \"block\"");
        step.action.sweep = true;
        step.action.sweep_blocks = kind == "block";
      } else if (name == "wait") {
        const auto seconds = node.is_number() ? node.value<double>() : std::nullopt;
        if (!seconds || !std::isfinite(*seconds) || *seconds < 0 || *seconds > kMaxWaitSeconds) {
          fail(node, "wait must be a number of seconds from 0 to 600");
        }
        step.wait_seconds = *seconds;
      } else if (name == "shot") {
        step.shot = text(node, name);
        if (step.shot.empty() || step.shot.size() > 64 ||
            step.shot.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                        "0123456789_-") != std::string::npos) {
          fail(node, "shot must be 1 to 64 letters, digits, '-' or '_' (it names a file)");
        }
      } else {
        fail(node, "unknown key '" + name +
                       "' (expected caption, lesson, set, color, view, plot, pick, launch, sweep, "
                       "exercise, submission, check, wait or shot)");
      }
    }
    return step;
  }

 private:
  const std::string& file_;
  std::size_t number_;
};

DemoScript read_script(const toml::table& table, const std::string& file) {
  DemoScript script;
  script.file = file;
  auto fail = [&](const toml::node& node, const std::string& what) {
    throw ScriptError{located(file, node, what)};
  };
  for (const auto& [name, node_pointer] : in_file_order(table)) {
    const toml::node& node = *node_pointer;
    if (name == "title") {
      if (!node.is_string()) fail(node, "title must be a string in quotes");
      script.title = *node.value<std::string>();
    } else if (name == "presenter") {
      if (!node.is_boolean()) fail(node, "presenter must be true or false");
      script.presenter = *node.value<bool>();
    } else if (name == "step") {
      const toml::array* steps = node.as_array();
      if (steps == nullptr || !steps->is_array_of_tables()) {
        fail(node, "steps are written as [[step]] tables");
      }
      std::set<std::string> shots;
      for (const toml::node& item : *steps) {
        StepReader reader(file, script.steps.size() + 1);
        DemoStep step = reader.read(*item.as_table());
        if (!shots.insert(step.shot).second)
          reader.fail(item, "shot '" + step.shot + "' is used twice");
        script.steps.push_back(std::move(step));
      }
    } else {
      fail(node, "unknown key '" + name + "' (expected title, presenter or [[step]] tables)");
    }
  }
  if (script.steps.empty()) throw ScriptError{file + ": no steps (add [[step]] tables)"};
  return script;
}

}  // namespace

Result<DemoScript> parse_demo_script(std::string_view text, const std::string& file) {
  auto table = parse_toml(text, file);
  if (!table) return table.error();
  try {
    return read_script(*table, file);
  } catch (const ScriptError& error) {
    return Error{ErrorKind::kParseError, error.message};
  }
}

Result<DemoScript> load_demo_script(const std::string& path) {
  // A regular file of bounded size only: `demo /dev/zero` or a FIFO must not read forever or block.
  Result<std::string> text = read_input_file(path, kMaxDemoScriptBytes);
  if (!text) return Error{ErrorKind::kIoError, "the demo script: " + text.message()};
  return parse_demo_script(*text, path);
}

std::string step_error(const DemoScript& script, std::size_t index, const std::string& what) {
  const DemoStep& step = script.steps.at(index);
  return script.file + ":" + std::to_string(step.line) + ": step " + std::to_string(index + 1) +
         ": " + what;
}

}  // namespace tl::classroom
