#include "core/thread_coverage_note.hpp"

#include "core/format.hpp"

namespace tl {

CoverageNote describe_coverage(std::uint64_t threads, std::uint64_t elements,
                               std::uint32_t elements_per_thread) {
  if (threads == 0 || elements == 0) return {};
  if (elements_per_thread == kAnyElementsPerThread) {
    if (threads >= elements) {
      return {format_count(threads - elements) + " threads more than elements: the loop runs once",
              false};
    }
    const std::uint64_t passes = (elements + threads - 1) / threads;
    return {"the loop gives each thread up to " + format_count(passes) + " elements", false};
  }
  const std::uint64_t per = elements_per_thread;
  // Saturating: a huge grid times a large tile must not wrap around.
  const std::uint64_t covered = threads > elements / per + 1 ? elements + per : threads * per;
  if (covered < elements) {
    const std::string missing = format_count(elements - covered);
    return {
        per == 1 ? missing + " more elements than threads" : missing + " elements get no thread",
        true};
  }
  if (per == 1) {
    if (threads == elements) return {};
    return {format_count(threads - elements) + " threads more than elements", false};
  }
  return {"each thread computes up to " + format_count(per) + " elements", false};
}

}  // namespace tl
