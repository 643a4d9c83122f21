#pragma once
// Where a mapping view's picture sits in its panel, as plain data in the state the panels read
// (AppState's view, the Lab's mapping). MappingViewController moves it; nothing here touches
// OpenGL.

#include "core/mapping_layout.hpp"

namespace tl::ui {

// Where a picture sits in its panel.
struct MappingCamera {
  ViewTransform transform;
  bool fit_pending = true;  // refit the picture to the panel on the next frame
  // Until the user pans or zooms, the picture stays fitted: when the panel changes size (a
  // picture opens beside it, the window is resized) it is fitted again.
  bool follow_fit = true;
  Viewport fitted_viewport;  // the panel size of the last fit
};

}  // namespace tl::ui
