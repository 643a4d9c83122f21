#pragma once
// Names the source line of each access site of a learner's kernel built with
// LearnerCompileOptions::record_memory: a site is the return address of an access's callback in
// the shared object, and the object's debug information maps it to kernel.cu's line. The mapping
// is read by binutils' addr2line, which is installed wherever the system compiler that built the
// object can link (a missing one is an error value: the figures stand, without their lines).

#include <cstdint>
#include <filesystem>
#include <span>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace tl::lab {

// For each return-address offset in `object`, the line in `source_file` (kernel.cu) of the
// innermost inlined frame that lies in it (the learner's line, not the Lab prelude's view operator
// it calls), or 0 where none does.
[[nodiscard]] Result<std::vector<int>> kernel_lines_of_sites(
    const std::filesystem::path& object, std::span<const std::uint64_t> return_offsets,
    std::string_view source_file = "kernel.cu");

// addr2line's output (-a -i) for the addresses asked, as kernel lines: exposed for its test.
[[nodiscard]] std::vector<int> parse_addr2line(std::string_view output, std::size_t addresses,
                                               std::string_view source_file);

}  // namespace tl::lab
