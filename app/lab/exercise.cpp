#include "lab/exercise.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>

namespace tl::lab {

const char* to_string(ElementType type) {
  return type == ElementType::kFloat32 ? "float" : "int";
}

bool is_array(const ParameterSpec& parameter) {
  return parameter.kind == ParameterKind::kInputArray ||
         parameter.kind == ParameterKind::kOutputArray;
}

float ArrayData::float_at(std::int64_t i) const {
  return std::bit_cast<float>(words[static_cast<std::size_t>(i)]);
}

std::int32_t ArrayData::int_at(std::int64_t i) const {
  return std::bit_cast<std::int32_t>(words[static_cast<std::size_t>(i)]);
}

std::string ArrayData::format_at(std::int64_t i) const {
  char text[48];
  if (type == ElementType::kFloat32) {
    std::snprintf(text, sizeof text, "%.9g", static_cast<double>(float_at(i)));
  } else {
    std::snprintf(text, sizeof text, "%d", int_at(i));
  }
  return text;
}

ArrayData ArrayData::floats(std::int64_t rows, std::int64_t cols, std::span<const float> values) {
  ArrayData data{ElementType::kFloat32, rows, cols, {}};
  data.words.reserve(values.size());
  for (float v : values) data.words.push_back(std::bit_cast<std::uint32_t>(v));
  return data;
}

ArrayData ArrayData::ints(std::int64_t rows, std::int64_t cols,
                          std::span<const std::int32_t> values) {
  ArrayData data{ElementType::kInt32, rows, cols, {}};
  data.words.reserve(values.size());
  for (std::int32_t v : values) data.words.push_back(std::bit_cast<std::uint32_t>(v));
  return data;
}

ArrayData ArrayData::filled(ElementType type, std::int64_t rows, std::int64_t cols,
                            std::uint32_t word) {
  return ArrayData{type, rows, cols,
                   std::vector<std::uint32_t>(static_cast<std::size_t>(rows * cols), word)};
}

const char* describe(SourceRule rule) {
  switch (rule) {
    case SourceRule::kUsesSharedMemory:
      return "must use shared memory (__shared__)";
    case SourceRule::kUsesSyncthreads:
      return "must synchronise the block with __syncthreads()";
    case SourceRule::kUsesAtomics:
      return "must use an atomic operation (atomicAdd, ...)";
    case SourceRule::kUsesWarpShuffle:
      return "must use warp shuffles (__shfl_down_sync, ...)";
  }
  return "";
}

std::uint64_t least_traffic_bytes(const Exercise& exercise, const CheckCase& check) {
  std::uint64_t bytes = 0;
  const std::size_t count = std::min(exercise.parameters.size(), check.arguments.size());
  for (std::size_t i = 0; i < count; ++i) {
    if (!is_array(exercise.parameters[i])) continue;
    bytes += static_cast<std::uint64_t>(check.arguments[i].array.size()) * 4;
  }
  return bytes;
}

std::vector<std::size_t> output_parameters(const Exercise& exercise) {
  std::vector<std::size_t> outputs;
  for (std::size_t i = 0; i < exercise.parameters.size(); ++i) {
    if (exercise.parameters[i].kind == ParameterKind::kOutputArray) outputs.push_back(i);
  }
  return outputs;
}

std::uint64_t CheckData::next() {  // splitmix64
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

float CheckData::uniform(float low, float high) {
  const double unit = static_cast<double>(next() >> 11) * 0x1.0p-53;
  return static_cast<float>(low + (high - low) * unit);
}

std::int32_t CheckData::integer(std::int32_t low, std::int32_t high_inclusive) {
  const std::uint64_t span = static_cast<std::uint64_t>(high_inclusive - low) + 1;
  return low + static_cast<std::int32_t>(next() % span);
}

std::vector<float> CheckData::floats(std::int64_t count, float low, float high) {
  std::vector<float> values(static_cast<std::size_t>(count));
  for (float& v : values) v = uniform(low, high);
  return values;
}

}  // namespace tl::lab
