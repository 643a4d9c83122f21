#pragma once
// Turning OpenGL's error queue into ThreadLab errors. GL reports failures through glGetError, after
// the fact; callers check after each step that can fail (allocations, reads) and get a message that
// names the step.

#include <cstdint>
#include <string_view>

#include "core/result.hpp"

namespace tl::render {

// Empties the error queue, so that the next check_gl reports only what follows.
void clear_gl_errors();

// The first error in the queue (draining the rest) as a failed Status that names `what`;
// GL_OUT_OF_MEMORY becomes ErrorKind::kOutOfMemory.
Status check_gl(std::string_view what);

// "GL_INVALID_OPERATION" and the like.
std::string_view gl_error_name(std::uint32_t error);

// How many trace records one shader storage binding can hold on this context: the largest power of
// two within GL_MAX_SHADER_STORAGE_BLOCK_SIZE, so that range offsets (multiples of it) also meet
// GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT. Needs a current context.
std::uint64_t max_records_per_binding();

}  // namespace tl::render
