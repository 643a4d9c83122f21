#pragma once
// CUDA C++ split into coloured tokens, a line at a time, with the state that carries from one line
// to the next (a block comment, a preprocessor line continued with '\'). The editor widget maps
// each kind to a colour; nothing here knows about colours.

#include <string>
#include <string_view>
#include <vector>

namespace tl::editor {

enum class TokenKind {
  kPlain,         // identifiers, blanks
  kKeyword,       // if, for, return, template, ...
  kType,          // int, float, size_t, float4, dim3, ...
  kCudaKeyword,   // __global__, __device__, __shared__, __restrict__, ...
  kCudaBuiltin,   // threadIdx, blockIdx, blockDim, gridDim, warpSize, __syncthreads, atomicAdd, ...
  kNumber,        // 42, 0x1F, 1.5e-3f, 10u
  kString,        // "..."
  kCharacter,     // 'a', '\n'
  kComment,       // // ... and /* ... */
  kPreprocessor,  // #include <...>, #define N 256 (the whole line)
  kPunctuation,   // operators, brackets
};

struct Token {
  int begin = 0;  // byte columns into the line
  int end = 0;
  TokenKind kind = TokenKind::kPlain;
  bool operator==(const Token&) const = default;
};

// What a line leaves open for the next one.
struct LineState {
  bool in_block_comment = false;
  bool in_preprocessor = false;  // the previous line was a directive ending in '\'
  bool operator==(const LineState&) const = default;
};

// The tokens of `line` given what the lines above left open; `state` becomes what this line
// leaves open. Tokens cover the line without gaps (blanks are kPlain), in order.
std::vector<Token> tokenize_line(std::string_view line, LineState& state);

// Every line's tokens, the states carried from the first line.
std::vector<std::vector<Token>> tokenize_lines(const std::vector<std::string>& lines);

// The kind of a whole word (keyword, type, CUDA keyword or built-in, else plain).
TokenKind classify_word(std::string_view word);

}  // namespace tl::editor
