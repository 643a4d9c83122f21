#pragma once
// Compiler messages turned into marks on editor lines. Two dialects reach the Lab: NVRTC (the EDG
// front end: `kernel.cu(3): error: identifier "x" is undefined`, followed by the source line and a
// caret) and g++ for the emulator (`kernel.cu:3:5: error: ...`, with its `  3 |` source echo).

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tl::editor {

enum class Severity { kError, kWarning, kNote };

struct Diagnostic {
  std::string file;           // as the compiler named it
  int line = 0;               // 1-based, as compilers count
  std::optional<int> column;  // 1-based; NVRTC gives none
  Severity severity = Severity::kError;
  std::string message;  // the first line: `identifier "x" is undefined`
  std::string detail;   // NVRTC's indented continuation lines ("argument types are: ..."), if any
  bool operator==(const Diagnostic&) const = default;
};

// Every diagnostic in `output`, in order. Lines that are neither (summaries, source echoes, "In
// function" headers) are skipped; NVRTC's indented lines after a message become its detail.
std::vector<Diagnostic> parse_diagnostics(std::string_view output);

// The diagnostics about `file` (matched by its name without folders, since the emulator's g++
// may see it under a temporary path), others dropped.
std::vector<Diagnostic> diagnostics_for_file(const std::vector<Diagnostic>& all,
                                             std::string_view file);

// The diagnostics of the source as it was compiled (`checked_lines`) on the source as it is now
// (`lines`): a mark stays on its line while that line is as it was, moves with it where lines were
// added or removed elsewhere, and goes once the line itself was edited or removed (its message
// spoke of text that is no longer there). Lines are matched by their text: those the two sources
// share at the start and the end keep their places, and a line between is looked for by its text,
// nearest its old place.
std::vector<Diagnostic> follow_edits(const std::vector<Diagnostic>& diagnostics,
                                     const std::vector<std::string>& checked_lines,
                                     const std::vector<std::string>& lines);

// The byte columns [first, second) of `line` to underline for a diagnostic at `column` (1-based):
// the word (or single character) there; with no column, the line without its indentation and
// trailing blanks. {0, 0} for a blank line.
std::pair<int, int> underline_columns(std::string_view line, std::optional<int> column);

// "error", "warning", "note".
std::string_view severity_name(Severity severity);

}  // namespace tl::editor
