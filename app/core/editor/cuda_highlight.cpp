#include "core/editor/cuda_highlight.hpp"

#include <algorithm>
#include <array>

namespace tl::editor {
namespace {

// Sorted, so a binary search finds a word.
constexpr auto kKeywords = std::to_array<std::string_view>(
    {"alignas", "alignof",   "auto",          "break",       "case",      "catch",    "class",
     "const",   "constexpr", "continue",      "decltype",    "default",   "delete",   "do",
     "else",    "enum",      "explicit",      "extern",      "false",     "for",      "friend",
     "goto",    "if",        "inline",        "mutable",     "namespace", "new",      "noexcept",
     "nullptr", "operator",  "private",       "protected",   "public",    "register", "return",
     "sizeof",  "static",    "static_assert", "static_cast", "struct",    "switch",   "template",
     "this",    "true",      "typedef",       "typename",    "union",     "using",    "while"});

constexpr auto kTypes = std::to_array<std::string_view>(
    {"bool",      "char",     "char2",         "char4",       "dim3",         "double",
     "double2",   "double4",  "float",         "float2",      "float3",       "float4",
     "half",      "half2",    "int",           "int16_t",     "int2",         "int3",
     "int32_t",   "int4",     "int64_t",       "int8_t",      "long",         "longlong2",
     "ptrdiff_t", "short",    "signed",        "size_t",      "uchar4",       "uint",
     "uint16_t",  "uint2",    "uint3",         "uint32_t",    "uint4",        "uint64_t",
     "uint8_t",   "unsigned", "ushort",        "void",        "volatile",     "wchar_t",
     "__half",    "__half2",  "__nv_bfloat16", "cudaError_t", "cudaStream_t", "cudaEvent_t",
     "float1",    "int1",     "uchar",         "ulong"});

constexpr auto kCudaKeywords = std::to_array<std::string_view>(
    {"__align__", "__constant__", "__device__", "__forceinline__", "__global__", "__host__",
     "__launch_bounds__", "__managed__", "__noinline__", "__restrict__", "__shared__",
     "__grid_constant__", "__inline__", "__cluster_dims__"});

constexpr auto kCudaBuiltins = std::to_array<std::string_view>({"__activemask",
                                                                "__all_sync",
                                                                "__any_sync",
                                                                "__ballot_sync",
                                                                "__expf",
                                                                "__fdividef",
                                                                "__ldg",
                                                                "__logf",
                                                                "__match_any_sync",
                                                                "__popc",
                                                                "__shfl_down_sync",
                                                                "__shfl_sync",
                                                                "__shfl_up_sync",
                                                                "__shfl_xor_sync",
                                                                "__sinf",
                                                                "__syncthreads",
                                                                "__syncthreads_and",
                                                                "__syncthreads_count",
                                                                "__syncthreads_or",
                                                                "__syncwarp",
                                                                "__threadfence",
                                                                "__threadfence_block",
                                                                "__cosf",
                                                                "__clz",
                                                                "__ffs",
                                                                "atomicAdd",
                                                                "atomicAnd",
                                                                "atomicCAS",
                                                                "atomicDec",
                                                                "atomicExch",
                                                                "atomicInc",
                                                                "atomicMax",
                                                                "atomicMin",
                                                                "atomicOr",
                                                                "atomicSub",
                                                                "atomicXor",
                                                                "blockDim",
                                                                "blockIdx",
                                                                "clock",
                                                                "clock64",
                                                                "expf",
                                                                "fmaf",
                                                                "fmaxf",
                                                                "fminf",
                                                                "gridDim",
                                                                "logf",
                                                                "rsqrtf",
                                                                "sqrtf",
                                                                "threadIdx",
                                                                "warpSize",
                                                                "__fmaf_rn",
                                                                "tanhf",
                                                                "exp",
                                                                "printf"});

template <std::size_t N>
bool contains(const std::array<std::string_view, N>& sorted, std::string_view word) {
  return std::binary_search(sorted.begin(), sorted.end(), word);
}

template <std::size_t N>
constexpr std::array<std::string_view, N> sorted_copy(std::array<std::string_view, N> words) {
  std::sort(words.begin(), words.end());
  return words;
}

constexpr auto kSortedKeywords = sorted_copy(kKeywords);
constexpr auto kSortedTypes = sorted_copy(kTypes);
constexpr auto kSortedCudaKeywords = sorted_copy(kCudaKeywords);
constexpr auto kSortedCudaBuiltins = sorted_copy(kCudaBuiltins);

bool is_identifier_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

bool is_identifier_char(char c) {
  return is_identifier_start(c) || (c >= '0' && c <= '9');
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

bool is_blank(char c) {
  return c == ' ' || c == '\t';
}

// The end of a number starting at `at` (digits, a fraction, an exponent with its sign, hex digits
// and suffixes: 0x1Fu, 1.5e-3f, 1'000).
int number_end(std::string_view line, int at) {
  const int size = static_cast<int>(line.size());
  int end = at;
  while (end < size) {
    const char c = line[end];
    if (is_identifier_char(c) || c == '.' || c == '\'') {
      ++end;
    } else if ((c == '+' || c == '-') && end > at &&
               (line[end - 1] == 'e' || line[end - 1] == 'E' || line[end - 1] == 'p' ||
                line[end - 1] == 'P') &&
               !(line.substr(at, 2) == "0x" || line.substr(at, 2) == "0X")) {
      ++end;  // 1e-3 (a hex literal's 'e' is a digit, not an exponent)
    } else {
      break;
    }
  }
  return end;
}

// The end of a quoted literal opened at `at` (past the closing quote, or the line's end).
int quoted_end(std::string_view line, int at) {
  const char quote = line[at];
  const int size = static_cast<int>(line.size());
  int end = at + 1;
  while (end < size) {
    if (line[end] == '\\') {
      end += 2;
    } else if (line[end] == quote) {
      return end + 1;
    } else {
      ++end;
    }
  }
  return size;
}

}  // namespace

TokenKind classify_word(std::string_view word) {
  if (contains(kSortedCudaKeywords, word)) return TokenKind::kCudaKeyword;
  if (contains(kSortedCudaBuiltins, word)) return TokenKind::kCudaBuiltin;
  if (contains(kSortedTypes, word)) return TokenKind::kType;
  if (contains(kSortedKeywords, word)) return TokenKind::kKeyword;
  return TokenKind::kPlain;
}

std::vector<Token> tokenize_line(std::string_view line, LineState& state) {
  std::vector<Token> tokens;
  const int size = static_cast<int>(line.size());
  const auto add = [&](int begin, int end, TokenKind kind) {
    if (end <= begin) return;
    // Neighbouring pieces of one kind merge, so a run of blanks or operators is one token.
    if (!tokens.empty() && tokens.back().kind == kind && tokens.back().end == begin &&
        (kind == TokenKind::kPlain || kind == TokenKind::kPunctuation ||
         kind == TokenKind::kComment)) {
      tokens.back().end = end;
      return;
    }
    tokens.push_back({begin, end, kind});
  };

  // A directive continued from the line above stays a directive (but may open a comment).
  const bool continues_directive = state.in_preprocessor;
  state.in_preprocessor = false;
  int at = 0;
  if (!state.in_block_comment) {
    int first = 0;
    while (first < size && is_blank(line[first])) ++first;
    if (continues_directive || (first < size && line[first] == '#')) {
      // The directive runs to the line's end or to a comment.
      int end = first;
      while (end < size && !(line.substr(end, 2) == "//" || line.substr(end, 2) == "/*")) ++end;
      add(0, end, TokenKind::kPreprocessor);
      at = end;
      state.in_preprocessor = end == size && size > 0 && line[size - 1] == '\\';
    }
  }

  while (at < size) {
    if (state.in_block_comment) {
      const std::size_t close = line.find("*/", at);
      const int end = close == std::string_view::npos ? size : static_cast<int>(close) + 2;
      add(at, end, TokenKind::kComment);
      state.in_block_comment = close == std::string_view::npos;
      at = end;
      continue;
    }
    const char c = line[at];
    if (line.substr(at, 2) == "//") {
      add(at, size, TokenKind::kComment);
      break;
    }
    if (line.substr(at, 2) == "/*") {
      state.in_block_comment = true;
      add(at, at + 2, TokenKind::kComment);
      at += 2;
      continue;
    }
    if (is_blank(c)) {
      int end = at;
      while (end < size && is_blank(line[end])) ++end;
      add(at, end, TokenKind::kPlain);
      at = end;
    } else if (is_digit(c) || (c == '.' && at + 1 < size && is_digit(line[at + 1]))) {
      const int end = number_end(line, at);
      add(at, end, TokenKind::kNumber);
      at = end;
    } else if (is_identifier_start(c)) {
      int end = at;
      while (end < size && is_identifier_char(line[end])) ++end;
      add(at, end, classify_word(line.substr(at, end - at)));
      at = end;
    } else if (c == '"') {
      const int end = quoted_end(line, at);
      add(at, end, TokenKind::kString);
      at = end;
    } else if (c == '\'') {
      const int end = quoted_end(line, at);
      add(at, end, TokenKind::kCharacter);
      at = end;
    } else {
      add(at, at + 1, TokenKind::kPunctuation);
      ++at;
    }
  }
  return tokens;
}

std::vector<std::vector<Token>> tokenize_lines(const std::vector<std::string>& lines) {
  std::vector<std::vector<Token>> out;
  out.reserve(lines.size());
  LineState state;
  for (const std::string& line : lines) out.push_back(tokenize_line(line, state));
  return out;
}

}  // namespace tl::editor
