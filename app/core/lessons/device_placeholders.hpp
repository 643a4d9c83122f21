#pragma once
// Figures that depend on the GPU, written into lesson texts and "try this" links as placeholders
// and filled from the running device:
//
//   text:  this GPU has {{device.sm_count}} SMs of {{device.max_threads_per_sm}} threads
//   link:  threadlab:set?grid={{device.sm_count*(device.max_threads_per_sm/1024)}}&launch
//
// Grammar (whitespace allowed around tokens, but a link destination may not contain spaces):
//   placeholder := "{{" expr "}}"
//   expr        := term (("+" | "-") term)*
//   term        := factor (("*" | "/") factor)*        "/" divides integers, rounding down
//   factor      := integer | "device." name | "(" expr ")"
// A text may also hold {{device.name}} (the GPU's name), alone in its braces. Every figure is a
// non-negative integer; a result below zero, a division by zero or an overflow is an error, as
// is an unknown name, so a bad placeholder is a message shown to the user, never a crash.
//
// On the CPU emulator an "SM" is one of its worker threads, which runs one block at a time: the
// figures follow from that and the text labels them so ("2 (the emulator's worker threads)").
// A figure the emulator does not have (its L2) reads as such in a text and is 0 in a link.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/device_info.hpp"
#include "core/lessons/lesson_action.hpp"
#include "core/markdown/lesson_document.hpp"
#include "core/result.hpp"

namespace tl::lessons {

// One named figure of a device.
struct DeviceFigure {
  std::int64_t value = 0;
  std::string note;        // for the text: why the figure is what it is on this device ("")
  bool applicable = true;  // false: the device has no such thing (the emulator's L2)
  std::string unit;        // for the text, after the number ("MiB"); links take the bare value
};

// The names a placeholder may use after "device.", in the order the documentation lists them.
std::span<const std::string_view> device_figure_names();

// The figure `name` (without "device.") on `device`; an error names the known ones.
Result<DeviceFigure> device_figure(std::string_view name, const DeviceInfo& device);

// The value of one expression (the text between the braces).
Result<std::int64_t> evaluate_device_expression(std::string_view expression,
                                                const DeviceInfo& device);

enum class PlaceholderUse {
  kText,  // figures with their notes; {{device.name}} allowed
  kLink,  // bare integers, for a control's value
};

// `text` with every {{...}} replaced. The first bad placeholder makes it an error that quotes it.
Result<std::string> fill_device_placeholders(std::string_view text, const DeviceInfo& device,
                                             PlaceholderUse use);

// Every placeholder of `text` checked for syntax and names, without a device (for tests and for
// checking links before anything opens).
Status check_device_placeholders(std::string_view text, PlaceholderUse use);

// The action with the placeholders of its control values filled from `device`.
Result<LessonAction> fill_action_placeholders(const LessonAction& action, const DeviceInfo& device);

// Fills the text of every span of `document` in place. A span whose placeholders are bad keeps
// its text as written; each such problem comes back as "line N: message".
std::vector<std::string> fill_document_placeholders(markdown::Document& document,
                                                    const DeviceInfo& device);

// Two devices for tests and checks: an H100 as CUDA reports it (132 SMs of 2048 threads, at most
// 32 blocks, 50 MiB of L2) and the emulator as it reports itself (`workers` threads).
DeviceInfo example_gpu_device_info();
DeviceInfo example_emulator_device_info(int workers);

}  // namespace tl::lessons
