#pragma once
// One launch of a lesson's own kernel whose memory accesses are recorded on the emulator (the
// Memory tab's and `threadlab run --memory`'s figures): which kernel of which embedded .cuh, with
// which template arguments, parameters and launch. Plain data, so that a lesson declares it
// (compute/lessons/memory_lesson.hpp) without knowing how it is recorded (lab/lesson_memory.hpp).

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/launch_config.hpp"

namespace tl::memory {

// One kernel parameter, in declaration order.
struct KernelArgument {
  enum class Kind : std::uint8_t {
    kFloatArray,  // const float* or float*: a zeroed array of `count` floats
    kInt,         // int: `value`
  };
  Kind kind = Kind::kInt;
  std::string name;         // the parameter's name in the kernel, for the report
  std::uint64_t count = 0;  // kFloatArray
  int value = 0;            // kInt

  [[nodiscard]] static KernelArgument floats(std::string name, std::uint64_t count) {
    return {Kind::kFloatArray, std::move(name), count, 0};
  }
  [[nodiscard]] static KernelArgument integer(std::string name, int value) {
    return {Kind::kInt, std::move(name), 0, value};
  }
};

struct MemoryExperiment {
  std::string label;  // "x → column (coalesced)": the kernel's row in the lesson
  std::string
      source;  // the embedded kernel file, e.g. "lessons/03_2d_blocks/kernels/matrix_add.cuh"
  std::string kernel;  // the __global__ template, e.g. "matmul_tiled"
  // Template arguments before the trace policy ("16" for matmul_tiled<16, Trace>); the recorder
  // adds a policy that records nothing as the last one, as every lesson kernel takes it.
  std::string template_arguments;
  std::vector<KernelArgument> arguments;  // every parameter but the trailing trace policy
  LaunchConfig config;
  std::size_t dynamic_shared_bytes = 0;
  // The key of the same kernel's row among the lesson's counted kernels (CountingLesson, e.g.
  // "kernel/x-to-col"), so that a GPU's counters can be shown beside the model; empty where the
  // lesson does not count it.
  std::string counted_key;
};

}  // namespace tl::memory
