#pragma once
// A lesson's markdown parsed (with md4c) into blocks of styled text that the lesson panel draws.
// Parsing lives here, not in the panel, so it is tested without a window.

#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace tl::markdown {

struct Span {
  std::string text;
  bool strong = false;
  bool emphasis = false;
  bool code = false;
  std::string link;  // target of a [link](target); "threadlab:..." links are lesson actions
};

enum class BlockKind { kHeading, kParagraph, kListItem, kCode, kQuote, kRule };

struct Block {
  BlockKind kind = BlockKind::kParagraph;
  int level = 0;            // heading level 1..6; list nesting depth for list items (1 = top)
  int ordinal = 0;          // 1-based number in an ordered list, 0 in a bulleted one
  std::vector<Span> spans;  // inline content of headings, paragraphs, list items, quotes
  std::string code;         // contents of a code block
  std::string code_info;  // the fenced block's info string, e.g. "cuda" or "kernel vector_add.cuh"
  int line = 0;  // 1-based line of the block's first text in the markdown, for messages (0: none)
};

struct Document {
  std::vector<Block> blocks;
  [[nodiscard]] std::string title() const;  // text of the first level-1 heading, or ""
};

Result<Document> parse(std::string_view markdown);

}  // namespace tl::markdown
