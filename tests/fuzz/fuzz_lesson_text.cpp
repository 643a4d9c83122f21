// Lesson markdown, as a teacher might write it (or a file might be cut short): md4c's parse into
// the blocks the lesson panel draws, the "try this" links found in it, and its guided steps.

#include <cstdint>
#include <string_view>

#include "core/classroom/guided_steps.hpp"
#include "core/lessons/lesson_action.hpp"
#include "core/markdown/lesson_document.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto document = tl::markdown::parse(text);
  if (!document) return 0;
  (void)document->title();
  for (const auto& block : document->blocks) {
    for (const auto& span : block.spans) {
      if (tl::lessons::is_lesson_action(span.link)) {
        (void)tl::lessons::parse_lesson_action(span.link);
      }
    }
  }
  // The guided steps a lesson declares, and a walk through them.
  if (auto steps = tl::classroom::collect_steps(*document)) {
    tl::classroom::StepCursor cursor(steps->size());
    while (cursor.next()) {
      if (steps->at(*cursor.current()).block >= document->blocks.size()) __builtin_trap();
    }
  }
  return 0;
}
