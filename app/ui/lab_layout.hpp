#pragma once
// Where the Kernel Lab's three columns go: the exercises and statement, the editor, the verdict
// with the learner's mapping view. Pure arithmetic on widths (no ImGui), tested on its own;
// lab_panel.cpp draws into it. The editor gets the room: the verdict column stays closed until
// there is something to show in it (a check running or its verdict), and the splitter between
// the two gives the learner the share they choose.

namespace tl::ui {

struct LabLayoutInputs {
  float width = 0;       // the whole workspace
  float spacing = 0;     // between columns (style.ItemSpacing.x)
  float splitter = 0;    // the splitter's own width, between the editor and the verdict
  float font_size = 0;   // the least widths are in it
  bool verdict = false;  // a check runs or has a verdict: the verdict column opens
  float code_share = 0;  // of the editor and the verdict together, the editor's (the splitter)
};

struct LabLayout {
  float exercises = 0;
  float code = 0;
  float verdict = 0;  // 0 while closed (no splitter either)
  [[nodiscard]] bool verdict_open() const { return verdict > 0; }
};

// The editor's share before the learner drags the splitter.
inline constexpr float kDefaultCodeShare = 0.6f;
// The exercises and statement column's share of the width.
inline constexpr float kExercisesShare = 0.24f;

LabLayout compute_lab_layout(const LabLayoutInputs& in);

// The editor's share once the splitter moved `dx` pixels from where `layout` put it (kept within
// the least widths of both columns).
float code_share_after_drag(const LabLayoutInputs& in, const LabLayout& layout, float dx);

}  // namespace tl::ui
