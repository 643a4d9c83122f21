#include "device_placeholders.hpp"

#include <array>
#include <cctype>
#include <limits>
#include <optional>

namespace tl::lessons {
namespace {

constexpr std::string_view kOpen = "{{";
constexpr std::string_view kClose = "}}";
constexpr std::string_view kDevicePrefix = "device.";
// Far above any figure a launch can use, far below where int64 arithmetic could overflow.
constexpr std::int64_t kMaxValue = std::int64_t{1} << 53;

constexpr std::array<std::string_view, 7> kNames = {"sm_count",
                                                    "max_threads_per_sm",
                                                    "max_blocks_per_sm",
                                                    "max_threads_per_block",
                                                    "warp_size",
                                                    "l2_cache_mb",
                                                    "name"};

DeviceFigure figure_of(std::int64_t value, std::string note = {}, bool applicable = true,
                       std::string unit = {}) {
  return DeviceFigure{value, std::move(note), applicable, std::move(unit)};
}

bool is_emulator(const DeviceInfo& device) {
  return device.compute_major == 0;
}

std::string known_names() {
  std::string list;
  for (std::string_view name : kNames) {
    if (!list.empty()) list += ", ";
    list += "device.";
    list += name;
  }
  return list;
}

// A recursive-descent parser over one expression. With no device it checks names only and every
// figure reads as 1, so that a check cannot fail on a division by a figure that is 0 somewhere.
class Parser {
 public:
  Parser(std::string_view text, const DeviceInfo* device) : text_(text), device_(device) {}

  Result<std::int64_t> parse() {
    auto value = expr();
    if (!value) return value;
    skip_spaces();
    if (pos_ != text_.size()) return fail("unexpected '" + std::string(1, text_[pos_]) + "'");
    return value;
  }

 private:
  Error fail(const std::string& what) const {
    return invalid_argument("{{" + std::string(text_) + "}}: " + what);
  }
  void skip_spaces() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool take(char c) {
    skip_spaces();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  Result<std::int64_t> checked(std::int64_t value) const {
    if (value < 0) return fail("the result is below zero");
    if (value > kMaxValue) return fail("the result is too large");
    return value;
  }

  Result<std::int64_t> expr() {
    auto left = term();
    if (!left) return left;
    std::int64_t value = *left;
    while (true) {
      const bool plus = take('+');
      if (!plus && !take('-')) return value;
      auto right = term();
      if (!right) return right;
      auto next = checked(plus ? value + *right : value - *right);
      if (!next) return next;
      value = *next;
    }
  }

  Result<std::int64_t> term() {
    auto left = factor();
    if (!left) return left;
    std::int64_t value = *left;
    while (true) {
      const bool times = take('*');
      if (!times && !take('/')) return value;
      auto right = factor();
      if (!right) return right;
      if (times) {
        if (*right != 0 && value > kMaxValue / *right) return fail("the result is too large");
        value *= *right;
      } else {
        if (*right == 0) return fail("division by zero on this device");
        value /= *right;
      }
    }
  }

  Result<std::int64_t> factor() {
    skip_spaces();
    if (pos_ >= text_.size()) return fail("a number or a device.name is missing at the end");
    if (take('(')) {
      auto inner = expr();
      if (!inner) return inner;
      if (!take(')')) return fail("a ')' is missing");
      return inner;
    }
    const char c = text_[pos_];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      std::int64_t value = 0;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
        value = value * 10 + (text_[pos_] - '0');
        if (value > kMaxValue) return fail("a number is too large");
        ++pos_;
      }
      return value;
    }
    if (text_.substr(pos_).starts_with(kDevicePrefix)) {
      pos_ += kDevicePrefix.size();
      const std::size_t start = pos_;
      while (pos_ < text_.size() &&
             (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
        ++pos_;
      const std::string_view name = text_.substr(start, pos_ - start);
      if (name == "name") return fail("device.name is text and cannot be computed with");
      if (device_ == nullptr) {
        for (std::string_view known : kNames)
          if (known == name) return std::int64_t{1};
        return fail("unknown name device." + std::string(name) + " (known: " + known_names() + ")");
      }
      auto figure = device_figure(name, *device_);
      if (!figure)
        return Error{figure.error().kind, "{{" + std::string(text_) + "}}: " + figure.message()};
      return figure->value;
    }
    return fail("expected a number, device.<name> or '(' at '" + std::string(text_.substr(pos_)) +
                "'");
  }

  std::string_view text_;
  const DeviceInfo* device_;
  std::size_t pos_ = 0;
};

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// One placeholder's replacement; `device` null: check only.
Result<std::string> replacement(std::string_view inner, const DeviceInfo* device,
                                PlaceholderUse use) {
  const std::string_view expression = trimmed(inner);
  if (expression == "device.name") {
    if (use == PlaceholderUse::kLink)
      return invalid_argument("{{device.name}}: the GPU's name is text, not a control's value");
    return device ? device->name : std::string("name");
  }
  // A single figure in a text carries its note; a computed one is a plain number.
  if (use == PlaceholderUse::kText && device != nullptr && expression.starts_with(kDevicePrefix)) {
    auto figure = device_figure(expression.substr(kDevicePrefix.size()), *device);
    if (figure) {
      if (!figure->applicable) return figure->note;
      std::string text = std::to_string(figure->value);
      if (!figure->unit.empty()) text += " " + figure->unit;
      if (!figure->note.empty()) text += " (" + figure->note + ")";
      return text;
    }
  }
  auto value = Parser(expression, device).parse();
  if (!value) return value.error();
  return std::to_string(*value);
}

Result<std::string> fill(std::string_view text, const DeviceInfo* device, PlaceholderUse use) {
  std::string out;
  std::size_t pos = 0;
  while (true) {
    const std::size_t open = text.find(kOpen, pos);
    if (open == std::string_view::npos) {
      out.append(text.substr(pos));
      return out;
    }
    const std::size_t close = text.find(kClose, open + kOpen.size());
    if (close == std::string_view::npos) {
      return invalid_argument("'" + std::string(text.substr(open, 40)) +
                              "': a placeholder without its closing '}}'");
    }
    const std::string_view inner = text.substr(open + kOpen.size(), close - open - kOpen.size());
    if (inner.find(kOpen) != std::string_view::npos) {
      return invalid_argument("'{{" + std::string(inner) + "}}': a '{{' inside a placeholder");
    }
    auto value = replacement(inner, device, use);
    if (!value) return value;
    out.append(text.substr(pos, open - pos));
    out += *value;
    pos = close + kClose.size();
  }
}

}  // namespace

std::span<const std::string_view> device_figure_names() {
  return kNames;
}

Result<DeviceFigure> device_figure(std::string_view name, const DeviceInfo& device) {
  const bool emulator = is_emulator(device);
  constexpr const char* kOneBlock = "a worker runs one block at a time";
  if (name == "sm_count") {
    return figure_of(device.multiprocessors, emulator ? "the emulator's worker threads" : "");
  }
  if (name == "max_threads_per_sm") {
    return figure_of(device.max_threads_per_multiprocessor, emulator ? kOneBlock : "");
  }
  if (name == "max_blocks_per_sm") {
    // CUDA reports it; the emulator's workers take one block each.
    if (emulator) return figure_of(1, kOneBlock);
    return figure_of(device.max_blocks_per_multiprocessor, "");
  }
  if (name == "max_threads_per_block") return figure_of(device.limits.max_threads_per_block, "");
  if (name == "warp_size") return figure_of(device.limits.warp_size, "");
  if (name == "l2_cache_mb") {
    if (emulator) return figure_of(0, "none: the emulator runs on the CPU's caches", false);
    if (device.l2_cache_bytes == 0) return figure_of(0, "unknown", false);
    return figure_of(static_cast<std::int64_t>(device.l2_cache_bytes >> 20), "", true, "MiB");
  }
  return invalid_argument("unknown name device." + std::string(name) + " (known: " + known_names() +
                          ")");
}

Result<std::int64_t> evaluate_device_expression(std::string_view expression,
                                                const DeviceInfo& device) {
  return Parser(trimmed(expression), &device).parse();
}

Result<std::string> fill_device_placeholders(std::string_view text, const DeviceInfo& device,
                                             PlaceholderUse use) {
  return fill(text, &device, use);
}

Status check_device_placeholders(std::string_view text, PlaceholderUse use) {
  auto filled = fill(text, nullptr, use);
  if (!filled) return filled.error();
  return Status::ok();
}

Result<LessonAction> fill_action_placeholders(const LessonAction& action,
                                              const DeviceInfo& device) {
  LessonAction filled = action;
  for (auto& [key, value] : filled.values) {
    if (value.find(kOpen) == std::string::npos) continue;
    auto text = fill_device_placeholders(value, device, PlaceholderUse::kLink);
    if (!text) return invalid_argument(key + "=" + value + ": " + text.message());
    value = std::move(*text);
  }
  return filled;
}

std::vector<std::string> fill_document_placeholders(markdown::Document& document,
                                                    const DeviceInfo& device) {
  std::vector<std::string> problems;
  for (markdown::Block& block : document.blocks) {
    for (markdown::Span& span : block.spans) {
      if (span.text.find(kOpen) == std::string::npos) continue;
      auto text = fill_device_placeholders(span.text, device, PlaceholderUse::kText);
      if (text) {
        span.text = std::move(*text);
      } else {
        problems.push_back("line " + std::to_string(block.line) + ": " + text.message());
      }
    }
  }
  return problems;
}

DeviceInfo example_gpu_device_info() {
  DeviceInfo info;
  info.name = "NVIDIA H100 80GB HBM3";
  info.compute_major = 9;
  info.compute_minor = 0;
  info.multiprocessors = 132;
  info.limits = standard_cuda_limits();
  info.max_threads_per_multiprocessor = 2048;
  info.max_blocks_per_multiprocessor = 32;
  info.registers_per_multiprocessor = 65536;
  info.shared_memory_per_multiprocessor = 228 * 1024;
  info.l2_cache_bytes = 50ull << 20;
  return info;
}

DeviceInfo example_emulator_device_info(int workers) {
  DeviceInfo info;
  info.name = "CPU emulator (" + std::to_string(workers) + " worker threads)";
  info.multiprocessors = workers;
  info.limits = standard_cuda_limits();
  info.max_threads_per_multiprocessor = info.limits.max_threads_per_block;
  return info;
}

}  // namespace tl::lessons
