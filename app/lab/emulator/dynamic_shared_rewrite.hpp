#pragma once
// The host compiler has no `extern __shared__ T name[];` (dynamic shared memory, sized by the
// launch). Before the learner's source is compiled for the emulator, each such declaration is
// rewritten, on the same line so that compiler messages keep the learner's line numbers, to
//
//   auto& name = ::tl::emu::dynamic_shared_array<T>();
//
// a reference to an array of unknown bound over the launch's dynamic shared memory: `name[i]`
// reads and writes it, and several declarations alias the same bytes, as in CUDA. Alignment
// attributes are dropped (the memory is 128-byte aligned).

#include <string>
#include <string_view>

namespace tl::lab {

[[nodiscard]] std::string rewrite_dynamic_shared(std::string_view source);

}  // namespace tl::lab
