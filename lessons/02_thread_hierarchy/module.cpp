// Registers lesson 2 (thread-hierarchy): lessons/CMakeLists.txt names this folder, and the build's
// generated registry calls the function below.

#include "compute/lessons/lesson_registry.hpp"
#include "lessons/02_thread_hierarchy/thread_hierarchy.hpp"
#include "thread_hierarchy_benchmark.hpp"
#include "thread_hierarchy_lesson.hpp"

namespace tl::lesson_modules {

const compute::LessonModule& lesson_02_thread_hierarchy() {
  static const compute::LessonModule kModule{lessons::kThreadHierarchyInfo,
                                             &compute::make_thread_hierarchy_lesson,
                                             &compute::thread_hierarchy_benchmark};
  return kModule;
}

}  // namespace tl::lesson_modules
