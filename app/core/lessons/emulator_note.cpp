#include "core/lessons/emulator_note.hpp"

namespace tl::lessons {

const EmulatorNote* emulator_note_for(std::span<const EmulatorNote> notes,
                                      std::string_view section) {
  if (!section.empty()) {
    for (const EmulatorNote& note : notes) {
      if (note.section == section) return &note;
    }
  }
  return lesson_emulator_note(notes);
}

const EmulatorNote* lesson_emulator_note(std::span<const EmulatorNote> notes) {
  for (const EmulatorNote& note : notes) {
    if (note.section.empty()) return &note;
  }
  return nullptr;
}

}  // namespace tl::lessons
