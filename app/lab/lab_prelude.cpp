#include "lab/lab_prelude.hpp"

#include <optional>

namespace tl::lab_prelude_text {
std::optional<std::string_view> find_text(std::string_view path);
}

namespace tl::lab {

std::string_view lab_prelude_source() {
  static const std::string_view text =
      lab_prelude_text::find_text("app/lab/prelude/threadlab_lab.cuh").value_or("");
  return text;
}

}  // namespace tl::lab
