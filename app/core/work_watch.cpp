#include "core/work_watch.hpp"

namespace tl {
namespace {
thread_local WorkWatch* g_watch = nullptr;
}  // namespace

WorkWatch* current_work_watch() {
  return g_watch;
}

ScopedWorkWatch::ScopedWorkWatch(WorkWatch& watch) : previous_(g_watch) {
  g_watch = &watch;
}

ScopedWorkWatch::~ScopedWorkWatch() {
  g_watch = previous_;
}

}  // namespace tl
