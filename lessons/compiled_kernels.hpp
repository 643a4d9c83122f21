#pragma once
// The compiled forms of the lessons' GPU kernels, made at build time by the CUDA toolkit's own
// tools and embedded in the program (cmake/ExtractCompiledKernels.cmake), so that a machine
// without a GPU or a toolkit still shows what nvcc made of every lesson kernel. One unit per
// translation unit of a lesson's kernel set and architecture built: the SASS with its source
// lines (nvdisasm -g -c), the PTX where the build kept it, and ptxas's resources per kernel
// (cuobjdump -res-usage). Parsed by core/compiled/.

#include <map>
#include <span>
#include <string_view>
#include <vector>

namespace tl::compiled_kernels {

struct CompiledUnit {
  std::string_view lesson;     // the lesson's folder: "03_2d_blocks"
  std::string_view unit;       // the translation unit: "matrix_add_gpu"
  std::string_view arch;       // "sm_90", "sm_90a"
  std::string_view sass;       // nvdisasm's listing, paths relative to the project root
  std::string_view ptx;        // empty where the build kept no PTX of this architecture
  std::string_view resources;  // cuobjdump -res-usage
};

// Every unit of this build; empty where the build had no CUDA toolkit or no disassembler.
[[nodiscard]] std::span<const CompiledUnit> units();
// Why there are none, for people; empty when there are.
[[nodiscard]] std::string_view unavailable();

// How new an architecture is: sm_90 above sm_89, and the arch-specific sm_90a just below sm_90.
[[nodiscard]] inline int arch_rank(std::string_view arch) {
  int number = 0;
  for (const char c : arch) {
    if (c >= '0' && c <= '9') number = number * 10 + (c - '0');
  }
  return number * 2 + (arch.ends_with('a') ? 0 : 1);
}

// The units of the lesson in folder `lesson` compiled for `arch` (sm_90 also takes sm_90a's), or,
// with `arch` empty, each unit at the newest architecture it was compiled for.
[[nodiscard]] inline std::vector<const CompiledUnit*> units_of_lesson(std::string_view lesson,
                                                                      std::string_view arch = {}) {
  std::vector<const CompiledUnit*> found;
  std::map<std::string_view, const CompiledUnit*> newest;
  for (const CompiledUnit& u : units()) {
    if (u.lesson != lesson) continue;
    if (!arch.empty()) {
      if (u.arch == arch ||
          (u.arch.size() == arch.size() + 1 && u.arch.starts_with(arch) && u.arch.ends_with('a'))) {
        found.push_back(&u);
      }
      continue;
    }
    const CompiledUnit*& best = newest[u.unit];
    if (best == nullptr || arch_rank(u.arch) > arch_rank(best->arch)) best = &u;
  }
  for (const auto& entry : newest) found.push_back(entry.second);
  return found;
}

}  // namespace tl::compiled_kernels
