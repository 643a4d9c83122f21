#pragma once
// When to save the editor's text: after the typing pauses, and at least every so often during
// long typing, so a crash loses seconds of work, not minutes. Times are passed in (seconds on any
// steady clock), so the policy is tested without waiting.

#include <cstdint>
#include <optional>

namespace tl::editor {

struct AutosaveOptions {
  double quiet_seconds = 1.0;     // save this long after the last change
  double longest_seconds = 10.0;  // ... or this long after the first unsaved change
};

class AutosaveSchedule {
 public:
  explicit AutosaveSchedule(AutosaveOptions options = {}) : options_(options) {}

  // Each frame: the model's version() and changed(). A new version restarts the quiet time.
  void observe(std::uint64_t version, bool changed, double now_seconds);
  // Whether to save now.
  [[nodiscard]] bool due(double now_seconds) const;
  // After the save (call the model's mark_saved() too): nothing is due until the next change.
  void saved() { first_unsaved_.reset(); }

 private:
  AutosaveOptions options_;
  std::optional<std::uint64_t> last_version_;
  double last_change_ = 0.0;
  std::optional<double> first_unsaved_;
};

}  // namespace tl::editor
