#pragma once
// Lesson actions from the command line (--action) and demo scripts are checked before anything
// opens, so a typo is a one-line error at once, not a message in the window halfway through a
// class.

#include <memory>
#include <string>

#include "compute/lessons/lesson.hpp"
#include "core/classroom/demo_script.hpp"
#include "core/lessons/lesson_action.hpp"
#include "core/result.hpp"
#include "lab/exercise.hpp"

namespace tl::ui {

// Follows a sequence of actions as the app would apply them: the lesson they switch to, and the
// values set so far (a later action may rely on an earlier one's).
class ActionChecker {
 public:
  Status check(const lessons::LessonAction& action);
  Status check_link(const std::string& link);

 private:
  std::string lesson_id_;
  const lab::Exercise* exercise_ = nullptr;  // the Lab's exercise a step opened
  std::unique_ptr<compute::Lesson> lesson_;
};

// Every step of the script, each error as "file:line: step N: what".
Status check_demo_script(const classroom::DemoScript& script);

}  // namespace tl::ui
