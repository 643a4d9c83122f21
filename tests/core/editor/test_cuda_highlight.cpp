#include "core/editor/cuda_highlight.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tl::editor {
namespace {

// (text, kind) of every token but the blanks, for readable expectations.
std::vector<std::pair<std::string, TokenKind>> pieces(std::string_view line, LineState& state) {
  std::vector<std::pair<std::string, TokenKind>> out;
  for (const Token& token : tokenize_line(line, state)) {
    // Blanks join the identifiers beside them (both plain): compare the words only.
    std::string text(line.substr(token.begin, token.end - token.begin));
    text.erase(0, text.find_first_not_of(" \t"));
    text.erase(text.find_last_not_of(" \t") + 1);
    if (text.empty()) continue;
    out.emplace_back(text, token.kind);
  }
  return out;
}

using K = TokenKind;

TEST(CudaHighlight, KernelSignature) {
  LineState state;
  const auto got = pieces("__global__ void add(const float* a, int n) {", state);
  const std::vector<std::pair<std::string, TokenKind>> expected = {{"__global__", K::kCudaKeyword},
                                                                   {"void", K::kType},
                                                                   {"add", K::kPlain},
                                                                   {"(", K::kPunctuation},
                                                                   {"const", K::kKeyword},
                                                                   {"float", K::kType},
                                                                   {"*", K::kPunctuation},
                                                                   {"a", K::kPlain},
                                                                   {",", K::kPunctuation},
                                                                   {"int", K::kType},
                                                                   {"n", K::kPlain},
                                                                   {")", K::kPunctuation},
                                                                   {"{", K::kPunctuation}};
  EXPECT_EQ(got, expected);
  EXPECT_EQ(state, LineState{});
}

// The kind of the token that is exactly `word` in `line`.
std::optional<TokenKind> kind_of(std::string_view line, std::string_view word) {
  LineState state;
  for (const Token& token : tokenize_line(line, state)) {
    if (line.substr(token.begin, token.end - token.begin) == word) return token.kind;
  }
  return std::nullopt;
}

TEST(CudaHighlight, BuiltinsNumbersAndSharedMemory) {
  const std::string_view index = "int i = blockIdx.x * blockDim.x + threadIdx.x;";
  EXPECT_EQ(kind_of(index, "blockIdx"), K::kCudaBuiltin);
  EXPECT_EQ(kind_of(index, "blockDim"), K::kCudaBuiltin);
  EXPECT_EQ(kind_of(index, "threadIdx"), K::kCudaBuiltin);
  EXPECT_EQ(kind_of(index, "x"), K::kPlain);
  const std::string_view line =
      "__shared__ float tile[16][17]; __syncthreads(); x = 1.5e-3f + 0x1Fu + gridDim.y;";
  EXPECT_EQ(kind_of(line, "__shared__"), K::kCudaKeyword);
  EXPECT_EQ(kind_of(line, "16"), K::kNumber);
  EXPECT_EQ(kind_of(line, "__syncthreads"), K::kCudaBuiltin);
  EXPECT_EQ(kind_of(line, "1.5e-3f"), K::kNumber);
  EXPECT_EQ(kind_of(line, "0x1Fu"), K::kNumber);
  EXPECT_EQ(kind_of(line, "gridDim"), K::kCudaBuiltin);
  EXPECT_EQ(kind_of("atomicAdd(&sum, v); __shfl_down_sync(0xffffffff, v, 16);", "atomicAdd"),
            K::kCudaBuiltin);
  EXPECT_EQ(kind_of("__device__ __forceinline__ float4 f();", "__forceinline__"), K::kCudaKeyword);
  EXPECT_EQ(kind_of("__device__ __forceinline__ float4 f();", "float4"), K::kType);
}

TEST(CudaHighlight, StringsAndCharactersWithEscapes) {
  LineState state;
  const auto got = pieces(R"(printf("a \"quoted\" // not a comment\n", 'x', '\'');)", state);
  EXPECT_EQ(got[2], (std::pair<std::string, TokenKind>{R"("a \"quoted\" // not a comment\n")",
                                                       K::kString}));
  EXPECT_EQ(got[4], (std::pair<std::string, TokenKind>{"'x'", K::kCharacter}));
  EXPECT_EQ(got[6], (std::pair<std::string, TokenKind>{R"('\'')", K::kCharacter}));
}

TEST(CudaHighlight, LineComments) {
  LineState state;
  const auto got = pieces("x = 1; // threadIdx here is a comment", state);
  EXPECT_EQ(got.back(),
            (std::pair<std::string, TokenKind>{"// threadIdx here is a comment", K::kComment}));
  EXPECT_FALSE(state.in_block_comment);
}

TEST(CudaHighlight, BlockCommentsSpanLines) {
  const std::vector<std::string> lines = {"int a; /* starts", "still __shared__ comment",
                                          "ends */ int b;"};
  const auto tokens = tokenize_lines(lines);
  ASSERT_EQ(tokens.size(), 3u);
  EXPECT_EQ(tokens[0].back(), (Token{7, 16, K::kComment}));
  ASSERT_EQ(tokens[1].size(), 1u);
  EXPECT_EQ(tokens[1][0], (Token{0, 24, K::kComment}));
  EXPECT_EQ(tokens[2][0], (Token{0, 7, K::kComment}));
  EXPECT_EQ(tokens[2][2], (Token{8, 11, K::kType}));
}

TEST(CudaHighlight, PreprocessorLinesAndContinuations) {
  const std::vector<std::string> lines = {"#include <cuda_runtime.h>", "  #define TILE 16 // side",
                                          "#define MAX(a, b) \\", "  ((a) > (b) ? (a) : (b))",
                                          "int x;"};
  const auto tokens = tokenize_lines(lines);
  EXPECT_EQ(tokens[0], (std::vector<Token>{{0, 25, K::kPreprocessor}}));
  EXPECT_EQ(tokens[1][0], (Token{0, 18, K::kPreprocessor}));
  EXPECT_EQ(tokens[1][1], (Token{18, 25, K::kComment}));
  EXPECT_EQ(tokens[3], (std::vector<Token>{{0, 25, K::kPreprocessor}}));
  EXPECT_EQ(tokens[4][0], (Token{0, 3, K::kType}));
}

TEST(CudaHighlight, TokensCoverTheLineWithoutGaps) {
  const std::vector<std::string> lines = {
      "  for (int s = blockDim.x / 2; s > 0; s >>= 1) { /* tree */ }", "\tσ = 'a'; \"open"};
  const auto tokens = tokenize_lines(lines);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    int at = 0;
    for (const Token& token : tokens[i]) {
      EXPECT_EQ(token.begin, at);
      EXPECT_GT(token.end, token.begin);
      at = token.end;
    }
    EXPECT_EQ(at, static_cast<int>(lines[i].size()));
  }
}

}  // namespace
}  // namespace tl::editor
