#pragma once
// Where a lesson's results on the CPU emulator differ from a GPU's, and why. A lesson module
// lists its notes (compute/lessons/lesson_registry.hpp); the timing panel shows the lesson's note
// and the guided-step bar the one for the current step's section, only when the backend in use is
// the emulator, so no caption claims a GPU's behaviour for a run that had none.

#include <span>
#include <string_view>

namespace tl::lessons {

struct EmulatorNote {
  // The heading of the lesson's section the note is about, or empty for the lesson as a whole
  // (the timing panel's note, and the steps of sections without a note of their own).
  std::string_view section;
  std::string_view headline;  // one short line: "Tiled is slower than naive here"
  std::string_view why;       // the reason, a sentence or two: shown on hover and under the step
};

// The note for a step under `section`: the one naming that section, else the lesson's own (empty
// section), else none.
[[nodiscard]] const EmulatorNote* emulator_note_for(std::span<const EmulatorNote> notes,
                                                    std::string_view section);
// The lesson's own note (for the timing panel), or none.
[[nodiscard]] const EmulatorNote* lesson_emulator_note(std::span<const EmulatorNote> notes);

}  // namespace tl::lessons
