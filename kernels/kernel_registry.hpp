#pragma once
// Every kernel set an executor compiled, found by the type of its launch-function table.
//
// A lesson's kernel set (lessons/NN_name/kernels/: the kernels, their launch description
// <set>_launch.inl, the table type <set>_kernels.hpp) is declared once, by the lesson's line in
// lessons/CMakeLists.txt (`threadlab_lesson(NN_name KERNEL_SET <set>)`). That one line compiles
// the set for both executors (generating the executor files where the set needs nothing of its
// own) and appends it to the registry that CMake generates for each executor, so no file outside
// the lesson's folder names the set and adding one recompiles none of the app: a lesson asks
//
//   const auto& k = device.kernels().get<kernels::VectorAddKernels>();
//
// and the GPU inspector, the mapping probes and their test iterate `sets()`.
//
// The table's type is the key: an entry is made only by `register_set<Set>`, which records the
// identity of `Set` beside the table, so `get<Set>` cannot hand back a table of another type.

#include <span>
#include <string_view>

#include "kernels/kernel_description.hpp"  // KernelSymbol

namespace tl::kernels {

namespace detail {
// One object per table type, program-wide (an inline variable with external linkage has one
// address across translation units): its address identifies the type without RTTI.
template <class Set>
inline char set_identity = 0;
}  // namespace detail

using SymbolList = std::span<const KernelSymbol> (*)();

// One kernel set as one executor compiled it.
struct KernelSetEntry {
  std::string_view set;            // the set's name in lessons/CMakeLists.txt, e.g. "vector_add"
  std::string_view lesson;         // the lesson folder that owns it, e.g. "01_vector_add"
  const void* identity = nullptr;  // &detail::set_identity<Set>
  const void* launch_functions = nullptr;  // a `const Set*`, alive for the whole program
  // The timed kernels the occupancy view inspects (GPU executor only; null on the emulator).
  SymbolList symbols = nullptr;
};

// What an executor file returns for its set: `table` must outlive the program (a static).
template <class Set>
KernelSetEntry register_set(std::string_view set, std::string_view lesson, const Set& table,
                            SymbolList symbols = nullptr) {
  return {set, lesson, &detail::set_identity<Set>, &table, symbols};
}

// One executor's kernel sets, in the lessons' order.
class KernelRegistry {
 public:
  KernelRegistry(std::string_view executor, std::span<const KernelSetEntry> sets)
      : executor_(executor), sets_(sets) {}

  // The launch functions of the set whose table type is `Set`. Every declared set is compiled for
  // both executors and listed in both registries by the same CMake line, so a lesson always finds
  // its own set; a table type that no lesson declared is a build error reported here (and caught
  // by tests/emulator/test_kernel_registry.cpp long before a user could meet it).
  template <class Set>
  [[nodiscard]] const Set& get() const {
    return *static_cast<const Set*>(find_or_stop(&detail::set_identity<Set>));
  }

  // The set's table if registered, else null.
  template <class Set>
  [[nodiscard]] const Set* find() const {
    return static_cast<const Set*>(find(&detail::set_identity<Set>));
  }

  [[nodiscard]] std::string_view executor() const { return executor_; }
  [[nodiscard]] std::span<const KernelSetEntry> sets() const { return sets_; }

 private:
  [[nodiscard]] const void* find(const void* identity) const;
  [[nodiscard]] const void* find_or_stop(const void* identity) const;

  std::string_view executor_;
  std::span<const KernelSetEntry> sets_;
};

// The registries CMake generates (lessons/CMakeLists.txt). gpu_kernels() exists only when
// ThreadLab is built with CUDA (THREADLAB_HAVE_CUDA).
const KernelRegistry& emulator_kernels();
const KernelRegistry& gpu_kernels();

}  // namespace tl::kernels
