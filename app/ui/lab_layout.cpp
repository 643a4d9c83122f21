#include "lab_layout.hpp"

#include <algorithm>
#include <cmath>

namespace tl::ui {
namespace {

// The least widths, in font sizes: an editor of about 40 columns, a verdict of a few words.
constexpr float kLeastCodeEms = 22.0f;
constexpr float kLeastVerdictEms = 14.0f;

// The room the editor and the verdict share (after the exercises, the gaps and the splitter).
float shared_room(const LabLayoutInputs& in, float exercises) {
  return std::max(0.0f, in.width - exercises - 2 * in.spacing - in.splitter);
}

}  // namespace

LabLayout compute_lab_layout(const LabLayoutInputs& in) {
  LabLayout out;
  out.exercises = std::floor(in.width * kExercisesShare);
  if (!in.verdict) {
    out.code = std::max(0.0f, in.width - out.exercises - in.spacing);
    return out;
  }
  const float room = shared_room(in, out.exercises);
  const float least_code = std::min(in.font_size * kLeastCodeEms, room * 0.5f);
  const float least_verdict = std::min(in.font_size * kLeastVerdictEms, room * 0.5f);
  const float share = in.code_share > 0 ? in.code_share : kDefaultCodeShare;
  out.code = std::floor(std::clamp(room * share, least_code, room - least_verdict));
  out.verdict = room - out.code;
  return out;
}

float code_share_after_drag(const LabLayoutInputs& in, const LabLayout& layout, float dx) {
  const float room = shared_room(in, layout.exercises);
  if (room <= 0) return in.code_share;
  const float least_code = std::min(in.font_size * kLeastCodeEms, room * 0.5f);
  const float least_verdict = std::min(in.font_size * kLeastVerdictEms, room * 0.5f);
  return std::clamp(layout.code + dx, least_code, room - least_verdict) / room;
}

}  // namespace tl::ui
