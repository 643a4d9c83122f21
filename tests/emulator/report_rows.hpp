#pragma once
// For tests that check what people read: the timing row with display name `name`. The app itself
// picks rows by what they measure (TimingKey, LessonReport::find); only tests look names up.

#include <string_view>

#include "compute/lessons/lesson.hpp"

namespace tl::compute {

inline const TimingRow* row_named(const LessonReport& report, std::string_view name) {
  for (const TimingRow& row : report.rows) {
    if (row.name == name) return &row;
  }
  return nullptr;
}

}  // namespace tl::compute
