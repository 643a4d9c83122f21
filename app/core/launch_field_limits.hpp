#pragma once
// The device limit that applies to each launch field, for the launch panel to show beside the field
// rather than one line for all: the grid field is bounded per dimension by the maximum grid size,
// the block field per dimension by the maximum block size and as a whole by the threads per block.
// A lesson's grid and block are its kDim3 parameters named "grid" and "block" (every lesson's
// ParamSpecs use these names, as do the command line and lesson links).

#include <optional>
#include <string>

#include "core/device_info.hpp"
#include "core/dim3.hpp"
#include "core/lessons/lesson_params.hpp"

namespace tl {

enum class LaunchField { kGrid, kBlock };

// Which launch field a parameter is, or nothing for sizes, choices and flags.
std::optional<LaunchField> launch_field_of(const lessons::ParamSpec& spec);

struct FieldLimit {
  std::string brief;     // beside the field: "max 1,024 × 1,024 × 64, 1,024 in all"
  std::string sentence;  // for the tooltip: every limit in words
};

// The limits of `spec`'s field on this device, or nothing when no device limit constrains it.
std::optional<FieldLimit> describe_field_limit(const lessons::ParamSpec& spec,
                                               const DeviceLimits& limits);

// The block a kernel launches in place of the block field's `asked`, where the two differ: a kernel
// that sizes its own blocks (the tiled matrix multiply launches TILE × TILE) does not use the
// field, and the launch panel and `--block` say so rather than show or ignore a block that is not
// the one run. None where `asked` is the block launched, or no block at all (its parse error is
// reported where it is typed).
std::optional<Dim3> block_not_used(const std::string& asked, const Dim3& launched);

}  // namespace tl
