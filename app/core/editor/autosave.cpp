#include "core/editor/autosave.hpp"

namespace tl::editor {

void AutosaveSchedule::observe(std::uint64_t version, bool changed, double now_seconds) {
  if (last_version_ != version) {
    // The first observation is the loaded text: nothing to save unless it already differs.
    if (last_version_) last_change_ = now_seconds;
    last_version_ = version;
  }
  if (!changed) {
    first_unsaved_.reset();  // undone back to the saved text, or saved elsewhere
  } else if (!first_unsaved_) {
    first_unsaved_ = now_seconds;
    last_change_ = now_seconds;
  }
}

bool AutosaveSchedule::due(double now_seconds) const {
  if (!first_unsaved_) return false;
  return now_seconds - last_change_ >= options_.quiet_seconds ||
         now_seconds - *first_unsaved_ >= options_.longest_seconds;
}

}  // namespace tl::editor
