#include "lesson_document.hpp"

#include <md4c.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace tl::markdown {
namespace {

// md4c passes text of its own, static strings, only for line breaks, NUL replacements and code
// indentation (at most 16 spaces at a time).
constexpr std::size_t kMd4cOwnTextBytes = 16;
// Its static strings are nowhere near the document's buffer; a pointer this close to it is stale.
constexpr std::ptrdiff_t kNearDocumentBytes = 64;
// NULs after the document for md4c's reads past its end (one character in every case the fuzzer
// found against an instrumented md4c 0.4.8; a few more cost nothing).
constexpr std::size_t kMd4cReadAheadBytes = 8;

struct Builder {
  // The markdown being parsed. Before md4c got a terminated copy, its reads past the end made it
  // hand callbacks texts whose size ran far past the document (found by fuzz_lesson_text). The
  // checks stay as a second line: every text and attribute is checked against the document, and
  // an impossible one stops the parse with an error instead of reaching the lesson panel.
  std::string_view source;
  bool corrupt = false;

  // Whether md4c's (chars, size) can be real. md4c 0.4 (Debian 12's), reading garbage past an
  // unterminated input, was seen handing over sizes of gigabytes and pointers just past the
  // document: a span must lie inside the document, where text always points except for a few bytes
  // of md4c's own (the U+FFFD for a NUL); attributes md4c rebuilt (unescaped link targets) live in
  // its own buffers and may be longer, but never longer than the document.
  [[nodiscard]] bool inside_document(const char* chars, std::size_t size) const {
    const char* begin = source.data();
    const char* end = begin + source.size();
    const bool starts_inside =
        !std::less<const char*>{}(chars, begin) && !std::less<const char*>{}(end, chars);
    return starts_inside && size <= static_cast<std::size_t>(end - chars);
  }
  [[nodiscard]] bool plausible_text(const char* chars, std::size_t size) const {
    if (chars == nullptr) return size == 0;
    if (inside_document(chars, size)) return true;
    if (size > kMd4cOwnTextBytes) return false;
    const auto address = reinterpret_cast<std::uintptr_t>(chars);
    const auto begin = reinterpret_cast<std::uintptr_t>(source.data());
    const auto end = begin + source.size();
    return address + size + kNearDocumentBytes < begin || address > end + kNearDocumentBytes;
  }
  [[nodiscard]] bool plausible_attribute(const char* chars, std::size_t size) const {
    if (size > source.size()) return false;
    if (chars == nullptr) return size == 0;
    if (inside_document(chars, size)) return true;
    // Outside: it must not run into the document either (a stale pointer just before it).
    const char* begin = source.data();
    return std::less<const char*>{}(begin + source.size(), chars) ||
           !std::less<const char*>{}(begin, chars + size);
  }

  Document document;
  std::vector<int> list_ordinals;  // per open list: next number, or 0 for a bulleted list
  int strong = 0;
  int emphasis = 0;
  int code = 0;
  std::vector<std::string> links;
  bool in_block = false;
  bool in_code_block = false;
  int quote_depth = 0;

  Block& current() { return document.blocks.back(); }

  // The line of a text inside the document, counted forward from the last one asked for: md4c
  // hands texts over in document order, so the whole parse counts each newline about once.
  std::size_t counted_offset = 0;
  int counted_line = 1;
  int line_at(const char* chars) {
    const auto offset = static_cast<std::size_t>(chars - source.data());
    if (offset < counted_offset) {
      counted_offset = 0;
      counted_line = 1;
    }
    for (; counted_offset < offset; ++counted_offset) {
      if (source[counted_offset] == '\n') ++counted_line;
    }
    return counted_line;
  }
  // Marks the current block with the line of `chars`, once, where `chars` is the document's own.
  void note_line(const char* chars, std::size_t size) {
    if (document.blocks.empty() || current().line != 0) return;
    if (chars != nullptr && inside_document(chars, size)) current().line = line_at(chars);
  }

  void open(BlockKind kind, int level = 0, int ordinal = 0) {
    Block block;
    block.kind = kind;
    block.level = level;
    block.ordinal = ordinal;
    document.blocks.push_back(std::move(block));
    in_block = true;
  }

  void add_text(std::string_view text) {
    if (document.blocks.empty()) open(BlockKind::kParagraph);
    if (in_code_block) {
      current().code.append(text);
      return;
    }
    auto& spans = current().spans;
    const bool is_strong = strong > 0;
    const bool is_emphasis = emphasis > 0;
    const bool is_code = code > 0;
    const std::string link = links.empty() ? std::string() : links.back();
    if (!spans.empty() && spans.back().strong == is_strong &&
        spans.back().emphasis == is_emphasis && spans.back().code == is_code &&
        spans.back().link == link) {
      spans.back().text.append(text);
      return;
    }
    spans.push_back({std::string(text), is_strong, is_emphasis, is_code, link});
  }
};

std::string attribute(Builder& b, const MD_ATTRIBUTE& a) {
  if (a.text == nullptr) return {};
  if (!b.plausible_attribute(a.text, a.size)) {
    b.corrupt = true;
    return {};
  }
  return std::string(a.text, a.size);
}

int enter_block(MD_BLOCKTYPE type, void* detail, void* user) {
  auto& b = *static_cast<Builder*>(user);
  switch (type) {
    case MD_BLOCK_UL:
      b.list_ordinals.push_back(0);
      break;
    case MD_BLOCK_OL:
      b.list_ordinals.push_back(static_cast<int>(static_cast<MD_BLOCK_OL_DETAIL*>(detail)->start));
      break;
    case MD_BLOCK_LI: {
      int ordinal = 0;
      if (!b.list_ordinals.empty() && b.list_ordinals.back() > 0)
        ordinal = b.list_ordinals.back()++;
      b.open(BlockKind::kListItem, static_cast<int>(b.list_ordinals.size()), ordinal);
      break;
    }
    case MD_BLOCK_H:
      b.open(BlockKind::kHeading, static_cast<int>(static_cast<MD_BLOCK_H_DETAIL*>(detail)->level));
      break;
    case MD_BLOCK_CODE: {
      b.open(BlockKind::kCode);
      b.current().code_info = attribute(b, static_cast<MD_BLOCK_CODE_DETAIL*>(detail)->info);
      b.in_code_block = true;
      break;
    }
    case MD_BLOCK_P:
      // A paragraph directly inside a list item continues that item (tight and loose lists alike).
      if (b.in_block && !b.document.blocks.empty() && b.current().kind == BlockKind::kListItem &&
          b.current().spans.empty()) {
        break;
      }
      b.open(b.quote_depth > 0 ? BlockKind::kQuote : BlockKind::kParagraph);
      break;
    case MD_BLOCK_QUOTE:
      ++b.quote_depth;
      break;
    case MD_BLOCK_HR:
      b.open(BlockKind::kRule);
      break;
    default:
      break;
  }
  return b.corrupt ? 1 : 0;
}

int leave_block(MD_BLOCKTYPE type, void* /*detail*/, void* user) {
  auto& b = *static_cast<Builder*>(user);
  switch (type) {
    case MD_BLOCK_UL:
    case MD_BLOCK_OL:
      b.list_ordinals.pop_back();
      break;
    case MD_BLOCK_CODE:
      b.in_code_block = false;
      b.in_block = false;
      break;
    case MD_BLOCK_QUOTE:
      --b.quote_depth;
      break;
    case MD_BLOCK_LI:
    case MD_BLOCK_H:
    case MD_BLOCK_P:
      b.in_block = false;
      break;
    default:
      break;
  }
  return 0;
}

int enter_span(MD_SPANTYPE type, void* detail, void* user) {
  auto& b = *static_cast<Builder*>(user);
  if (type == MD_SPAN_STRONG) ++b.strong;
  if (type == MD_SPAN_EM) ++b.emphasis;
  if (type == MD_SPAN_CODE) ++b.code;
  if (type == MD_SPAN_A)
    b.links.push_back(attribute(b, static_cast<MD_SPAN_A_DETAIL*>(detail)->href));
  return b.corrupt ? 1 : 0;
}

int leave_span(MD_SPANTYPE type, void* /*detail*/, void* user) {
  auto& b = *static_cast<Builder*>(user);
  if (type == MD_SPAN_STRONG) --b.strong;
  if (type == MD_SPAN_EM) --b.emphasis;
  if (type == MD_SPAN_CODE) --b.code;
  if (type == MD_SPAN_A && !b.links.empty()) b.links.pop_back();
  return 0;
}

int text(MD_TEXTTYPE type, const MD_CHAR* chars, MD_SIZE size, void* user) {
  auto& b = *static_cast<Builder*>(user);
  if (!b.plausible_text(chars, size)) {
    b.corrupt = true;
    return 1;  // stops md_parse, which then returns this value
  }
  switch (type) {
    case MD_TEXT_SOFTBR:
      b.add_text(" ");
      break;
    case MD_TEXT_BR:
      b.add_text("\n");
      break;
    case MD_TEXT_ENTITY: {
      const std::string entity(chars, size);
      if (entity == "&amp;")
        b.add_text("&");
      else if (entity == "&lt;")
        b.add_text("<");
      else if (entity == "&gt;")
        b.add_text(">");
      else if (entity == "&nbsp;")
        b.add_text(" ");
      else
        b.add_text(entity);
      break;
    }
    case MD_TEXT_NULLCHAR:
      break;
    default:
      b.add_text(std::string_view(chars, size));
  }
  b.note_line(chars, size);
  return 0;
}

}  // namespace

std::string Document::title() const {
  for (const Block& block : blocks) {
    if (block.kind == BlockKind::kHeading && block.level == 1) {
      std::string t;
      for (const Span& s : block.spans) t += s.text;
      return t;
    }
  }
  return {};
}

Result<Document> parse(std::string_view markdown) {
  // md4c 0.4.8 (Debian 12's) reads a character past the end of its input in several places (a
  // text of just "5" does it, checking for a list mark's "." after the digits): it was written for
  // NUL-terminated buffers. A view carries no terminator, so md4c gets a copy followed by NULs and
  // never sees past the document's size into someone else's memory.
  std::string terminated;
  terminated.reserve(markdown.size() + kMd4cReadAheadBytes);
  terminated.append(markdown);
  terminated.append(kMd4cReadAheadBytes, '\0');
  markdown = std::string_view(terminated.data(), markdown.size());

  Builder builder;
  builder.source = markdown;
  MD_PARSER parser{};
  parser.abi_version = 0;
  parser.flags = MD_FLAG_NOHTML | MD_FLAG_STRIKETHROUGH | MD_FLAG_PERMISSIVEAUTOLINKS;
  parser.enter_block = enter_block;
  parser.leave_block = leave_block;
  parser.enter_span = enter_span;
  parser.leave_span = leave_span;
  parser.text = text;
  if (md_parse(markdown.data(), static_cast<MD_SIZE>(markdown.size()), &parser, &builder) != 0 ||
      builder.corrupt) {
    // Where it stopped: the last line a text was seen on (1 when none was).
    return Error{ErrorKind::kParseError,
                 "the lesson text could not be parsed as markdown (stopped after line " +
                     std::to_string(builder.counted_line) + ")"};
  }
  return std::move(builder.document);
}

}  // namespace tl::markdown
