#pragma once
// What a learner's source may ask of the compiler. Part of the Lab's sandbox (SECURITY.md): the
// compile step reads files, so a submission must not be able to make it read any but the Lab's
// prelude and the system headers — through an #include with an absolute or `..` path or a computed
// name, `#include_next`, `#pragma GCC dependency`, `__has_include` probing, or the assembler's
// `.incbin` / `.include` inside inline asm. The file-system rules of the sandbox refuse such reads
// anyway; this refuses them first, with a message that names the line, and keeps the compiler from
// printing another file's content into the log the learner reads.

#include <optional>
#include <string>
#include <string_view>

namespace tl::lab {

// The first thing the source asks that is not allowed, as one line ("kernel.cu line 3: ..."), or
// nothing. `name` is the file name the message gives.
[[nodiscard]] std::optional<std::string> source_policy_violation(std::string_view source,
                                                                 std::string_view name);

}  // namespace tl::lab
