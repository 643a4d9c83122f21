// The code a lesson shows is the code that runs. Three ways a lesson text can drift from it:
//
// - a block that says it is the running kernel ("exactly as written here") is a copy, not the
//   embedded file (a ```kernel block, which the lesson panel fills from the file the app compiles);
// - a launch snippet (a ```cuda block with `<<<`) calls the kernel shown beside it with arguments
//   it does not take, or by a name it does not have (claims review item 9: lessons 1 and 3 once
//   did both);
// - the text quotes a line of a kernel it shows (`c[i] = a[i] + b[i];`) or names one by number
//   (`--memory-line 63`, "lines 85 and 86"), and the kernel has changed since.
//
// The second is checked twice. The way the Kernel Lab builds a learner's kernel on the emulator:
// the snippet, with its launch written as a plain call, is compiled by the system C++ compiler
// against the emulator's CUDA shim (kernels/emulator/cuda_emulation.hpp) and the lesson's kernel
// files, in a function that declares the host variables a snippet leaves to the reader (n, a, c,
// d_a, ...). And, where the build has nvcc, the way a learner would: the snippet exactly as
// printed, `<<<` and all, compiled by nvcc against the real CUDA runtime and the same kernel files.

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/markdown/lesson_document.hpp"
#include "lesson_texts.hpp"

namespace tl {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

struct LessonText {
  std::string path;  // "lessons/01_vector_add/lesson.md"
  markdown::Document document;
};

// Every lesson text, as embedded in the app.
std::vector<LessonText> lesson_texts_in_app() {
  std::vector<LessonText> texts;
  const fs::path lessons = fs::path(THREADLAB_SOURCE_DIR) / "lessons";
  std::vector<fs::path> folders;
  for (const auto& entry : fs::directory_iterator(lessons)) {
    if (entry.is_directory() && fs::exists(entry.path() / "lesson.md")) {
      folders.push_back(entry.path());
    }
  }
  std::sort(folders.begin(), folders.end());
  for (const fs::path& folder : folders) {
    const std::string path = "lessons/" + folder.filename().string() + "/lesson.md";
    const auto text = lesson_texts::find_text(path);
    EXPECT_TRUE(text.has_value()) << path << " is not embedded in the app";
    if (!text) continue;
    auto document = markdown::parse(*text);
    EXPECT_TRUE(document.is_ok()) << path << ": " << document.message();
    if (!document.is_ok()) continue;
    texts.push_back({path, std::move(*document)});
  }
  return texts;
}

std::string paragraph_text(const markdown::Block& block) {
  std::string text;
  for (const markdown::Span& span : block.spans) text += span.text;
  return text;
}

bool is_kernel_block(const markdown::Block& block) {
  return block.kind == markdown::BlockKind::kCode && block.code_info == "kernel";
}

TEST(LessonSnippets, EveryBlockThatSaysItIsTheRunningKernelIsTheEmbeddedFile) {
  int claims = 0;
  for (const LessonText& lesson : lesson_texts_in_app()) {
    const auto& blocks = lesson.document.blocks;
    for (std::size_t i = 0; i < blocks.size(); ++i) {
      const markdown::Block& block = blocks[i];
      // A ```text block is a program's output, not code: compute-sanitizer's reports say
      // "Invalid __global__ write" (lesson 10).
      if (block.kind == markdown::BlockKind::kCode && block.code_info != "kernel" &&
          block.code_info != "text") {
        // A kernel's definition written out in the text is a copy that can go stale: the text
        // shows kernels as ```kernel blocks only.
        EXPECT_EQ(block.code.find("__global__"), std::string::npos)
            << lesson.path << ":" << block.line << ": a ```" << block.code_info
            << " block defines a kernel; show the file instead";
      }
      if (is_kernel_block(block)) {
        // Every kernel block, claimed or not, is the file the app compiles, as embedded.
        const std::string kernel = trimmed(block.code);
        const auto embedded = lesson_texts::find_text(kernel);
        EXPECT_TRUE(embedded.has_value())
            << lesson.path << ":" << block.line << ": " << kernel << " is not embedded";
        if (embedded) {
          EXPECT_EQ(std::string(*embedded), read_file(fs::path(THREADLAB_SOURCE_DIR) / kernel))
              << lesson.path << ":" << block.line << ": the embedded " << kernel
              << " is not the file in the source tree";
        }
      }
      if (block.kind != markdown::BlockKind::kParagraph) continue;
      const std::string text = paragraph_text(block);
      if (text.find("exactly as written here") == std::string::npos &&
          text.find("the code ThreadLab runs") == std::string::npos) {
        continue;
      }
      ++claims;
      const std::string where = lesson.path + ":" + std::to_string(block.line);
      ASSERT_LT(i + 1, blocks.size()) << where << ": the claim is not followed by the kernel";
      const markdown::Block& shown = blocks[i + 1];
      ASSERT_TRUE(is_kernel_block(shown))
          << where << ": the block after \"exactly as written here\" is not a ```kernel block";
      const std::string kernel = trimmed(shown.code);
      const auto embedded = lesson_texts::find_text(kernel);
      ASSERT_TRUE(embedded.has_value()) << where << ": " << kernel << " is not embedded";
      EXPECT_EQ(std::string(*embedded), read_file(fs::path(THREADLAB_SOURCE_DIR) / kernel))
          << where << ": the embedded " << kernel << " is not the file in the source tree";
    }
  }
  EXPECT_GE(claims, 5) << "lessons 1 to 5 say their kernel is shown exactly as written";
}

// `name<<<grid, block[, shared[, stream]]>>>(arguments)` as the shim can compile it: the launch
// configuration checked as nvcc's is (dim3 from each), then the kernel called with the arguments,
// which the host compiler matches against the kernel's parameters as nvcc does.
std::string as_plain_calls(const std::string& snippet, int& launches) {
  static const std::regex kLaunch(R"(([A-Za-z_][A-Za-z_0-9:]*)\s*<<<([^;]*?)>>>)");
  std::string out;
  auto begin = std::sregex_iterator(snippet.begin(), snippet.end(), kLaunch);
  std::size_t last = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    ++launches;
    out += snippet.substr(last, it->position() - last);
    out += "tl_snippet_launch_configuration(" + (*it)[2].str() + "), " + (*it)[1].str();
    last = it->position() + it->length();
  }
  out += snippet.substr(last);
  return out;
}

// The host half of CUDA the snippets use, with the runtime's signatures; the test only compiles.
constexpr const char* kHostRuntime = R"(
#include <cstdio>
enum cudaError_t { cudaSuccess = 0, cudaErrorInvalidValue = 1 };
enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost,
                      cudaMemcpyDeviceToDevice, cudaMemcpyDefault };
template <class T> cudaError_t cudaMalloc(T** pointer, std::size_t bytes);
cudaError_t cudaFree(void* pointer);
cudaError_t cudaMemcpy(void* to, const void* from, std::size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaGetLastError();
cudaError_t cudaDeviceSynchronize();
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);
inline void tl_snippet_launch_configuration(dim3 grid, dim3 block, std::size_t shared = 0,
                                            void* stream = nullptr) {}
)";

// What a snippet leaves to the reader; a snippet's own declarations shadow these.
constexpr const char* kReaderContext = R"(
  int n = 1000, rows = 100, cols = 100;
  float *a = nullptr, *b = nullptr, *c = nullptr;
  float *d_a = nullptr, *d_b = nullptr, *d_c = nullptr;
  int blocks = 4, threads_per_block = 256;
)";

// A launch snippet of a lesson and the kernel files the lesson shows.
struct LaunchSnippet {
  std::string lesson;  // "lessons/01_vector_add/lesson.md"
  int line = 0;        // of the block in the lesson
  std::string code;    // as printed
  std::vector<std::string> kernel_files;
  [[nodiscard]] std::string where() const { return lesson + ":" + std::to_string(line); }
};

std::vector<LaunchSnippet> launch_snippets() {
  std::vector<LaunchSnippet> snippets;
  for (const LessonText& lesson : lesson_texts_in_app()) {
    std::vector<std::string> kernel_files;
    for (const markdown::Block& block : lesson.document.blocks) {
      if (is_kernel_block(block)) kernel_files.push_back(trimmed(block.code));
    }
    for (const markdown::Block& block : lesson.document.blocks) {
      if (block.kind != markdown::BlockKind::kCode || block.code_info == "kernel") continue;
      if (block.code.find("<<<") == std::string::npos) continue;
      LaunchSnippet snippet{lesson.path, block.line, block.code, kernel_files};
      EXPECT_FALSE(kernel_files.empty())
          << snippet.where() << ": a launch in a lesson that shows no kernel";
      snippets.push_back(std::move(snippet));
    }
  }
  return snippets;
}

// The kernel files, each as the app embeds it, inside `namespace lesson`, then `body` in a function
// that declares what the reader supplies.
std::string kernels_and_snippet(const std::vector<std::string>& kernel_files,
                                const std::string& body, const std::string& body_file,
                                int body_line) {
  std::string unit = "namespace lesson {\n";
  for (const std::string& file : kernel_files) {
    const auto source = lesson_texts::find_text(file);
    EXPECT_TRUE(source.has_value()) << file << " is not embedded";
    if (!source) continue;
    unit += "#line 1 \"" + file + "\"\n" + std::string(*source) + "\n";
  }
  unit += "int snippet() {\n" + std::string(kReaderContext) + "  {\n";
  unit += body_line > 0 ? "#line " + std::to_string(body_line) + " \"" + body_file + "\"\n"
                        : std::string("#line 1 \"snippet\"\n");
  unit += body + "\n  }\n  return 0;\n}\n}  // namespace lesson\n";
  return unit;
}

// For the system compiler: the emulator's shim, the launches as plain calls.
std::string shim_unit(const std::vector<std::string>& kernel_files, const std::string& snippet,
                      const std::string& file = "", int line = 0) {
  int launches = 0;
  const std::string body = as_plain_calls(snippet, launches);
  EXPECT_GT(launches, 0) << "`<<<` but no launch the test can read:\n" << snippet;
  return "#include \"cuda_emulation.hpp\"\n#include \"kernels/trace.cuh\"\n" +
         std::string(kHostRuntime) + kernels_and_snippet(kernel_files, body, file, line);
}

// For nvcc: the real runtime, the snippet as printed.
std::string nvcc_unit(const std::vector<std::string>& kernel_files, const std::string& snippet,
                      const std::string& file = "", int line = 0) {
  return "#include <cstdio>\n#include <cuda_runtime.h>\n#include \"kernels/trace.cuh\"\n" +
         kernels_and_snippet(kernel_files, snippet, file, line);
}

struct CompileResult {
  int status = -1;
  std::string output;
};

fs::path scratch_folder() {
  const fs::path dir =
      fs::temp_directory_path() / ("threadlab-snippets-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

// Runs `command`, its output to `log`; then removes `made` (the source, the log, an object) and the
// scratch folder once it is empty.
CompileResult run_compiler(const std::string& command, const fs::path& log,
                           const std::vector<fs::path>& made) {
  CompileResult result;
  result.status = std::system((command + " > \"" + log.string() + "\" 2>&1").c_str());
  result.output = read_file(log);
  std::error_code ignored;
  for (const fs::path& path : made) fs::remove(path, ignored);
  fs::remove(log, ignored);
  fs::remove(log.parent_path(), ignored);  // only if empty
  return result;
}

std::string include_flags() {
  const fs::path root(THREADLAB_SOURCE_DIR);
  return " -I\"" + root.string() + "\" -I\"" + (root / "app").string() + "\"";
}

CompileResult compile(const std::string& unit, const std::string& name) {
  const fs::path dir = scratch_folder();
  const fs::path source = dir / (name + ".cpp");
  std::ofstream(source, std::ios::binary) << unit;
  const fs::path root(THREADLAB_SOURCE_DIR);
  return run_compiler(std::string("\"") + THREADLAB_CXX_COMPILER + "\" -std=c++20 -fsyntax-only" +
                          include_flags() + " -I\"" + (root / "kernels" / "emulator").string() +
                          "\" \"" + source.string() + "\"",
                      dir / (name + ".log"), {source});
}

#if defined(THREADLAB_NVCC)
// Compiled for one of the build's architectures, as the app's kernels are; the object is dropped.
CompileResult compile_with_nvcc(const std::string& unit, const std::string& name) {
  const fs::path dir = scratch_folder();
  const fs::path source = dir / (name + ".cu");
  std::ofstream(source, std::ios::binary) << unit;
  std::string command = std::string("\"") + THREADLAB_NVCC + "\" -std=c++20";
  if (std::string(THREADLAB_NVCC_HOST_COMPILER).size() > 0) {
    command += std::string(" -ccbin \"") + THREADLAB_NVCC_HOST_COMPILER + "\"";
  }
  if (std::string(THREADLAB_NVCC_ARCH).size() > 0) {
    command += std::string(" -arch=sm_") + THREADLAB_NVCC_ARCH;
  }
  const fs::path object = dir / (name + ".o");
  return run_compiler(
      command + include_flags() + " -c \"" + source.string() + "\" -o \"" + object.string() + "\"",
      dir / (name + ".log"), {source, object});
}
#endif

TEST(LessonSnippets, EveryLaunchSnippetCompilesAgainstTheKernelsItsLessonShows) {
  int snippets = 0;
  for (const LaunchSnippet& snippet : launch_snippets()) {
    ++snippets;
    const CompileResult result =
        compile(shim_unit(snippet.kernel_files, snippet.code, snippet.lesson, snippet.line),
                "snippet" + std::to_string(snippets));
    EXPECT_EQ(result.status, 0) << snippet.where()
                                << ": the launch snippet does not compile against the kernel "
                                   "its lesson shows:\n"
                                << result.output;
  }
  EXPECT_GE(snippets, 2) << "lessons 1 and 3 have launch snippets";
}

// The check itself: a launch with one argument too few, or of a kernel the file does not have, is
// refused (the two mistakes lessons 1 and 3 once made: claims review item 9).
TEST(LessonSnippets, TheCheckRefusesALaunchTheKernelDoesNotTake) {
  const std::vector<std::string> lesson1 = {"lessons/01_vector_add/kernels/vector_add.cuh"};
  const std::vector<std::string> lesson3 = {"lessons/03_2d_blocks/kernels/matrix_add.cuh"};
  EXPECT_EQ(compile(shim_unit(lesson1,
                              "vector_add<<<blocks, threads_per_block>>>(d_a, d_b, d_c, "
                              "n, tl::Untraced{});"),
                    "good")
                .status,
            0);
  // Lesson 1's launch before the fix: no trace argument.
  EXPECT_NE(
      compile(shim_unit(lesson1, "vector_add<<<blocks, threads_per_block>>>(d_a, d_b, d_c, n);"),
              "too_few")
          .status,
      0);
  // Lesson 3's launch before the fix: a kernel named as in the article, not as in the file.
  EXPECT_NE(compile(shim_unit(lesson3,
                              "matrix_add<<<blocks, threads_per_block>>>(d_a, d_b, d_c, "
                              "rows, cols);"),
                    "no_such_kernel")
                .status,
            0);
}

#if defined(THREADLAB_NVCC)
TEST(LessonSnippets, EveryLaunchSnippetAsPrintedCompilesWithNvcc) {
  int snippets = 0;
  for (const LaunchSnippet& snippet : launch_snippets()) {
    ++snippets;
    const CompileResult result = compile_with_nvcc(
        nvcc_unit(snippet.kernel_files, snippet.code, snippet.lesson, snippet.line),
        "nvcc_snippet" + std::to_string(snippets));
    EXPECT_EQ(result.status, 0) << snippet.where()
                                << ": nvcc does not compile the launch snippet against the kernel "
                                   "its lesson shows:\n"
                                << result.output;
  }
  EXPECT_GE(snippets, 2) << "lessons 1 and 3 have launch snippets";
}

TEST(LessonSnippets, NvccRefusesTheLaunchesLessons1And3OncePrinted) {
  EXPECT_NE(compile_with_nvcc(nvcc_unit({"lessons/01_vector_add/kernels/vector_add.cuh"},
                                        "vector_add<<<blocks, threads_per_block>>>(d_a, d_b, d_c, "
                                        "n);"),
                              "nvcc_too_few")
                .status,
            0);
  EXPECT_NE(compile_with_nvcc(nvcc_unit({"lessons/03_2d_blocks/kernels/matrix_add.cuh"},
                                        "matrix_add<<<blocks, threads_per_block>>>(d_a, d_b, d_c, "
                                        "rows, cols);"),
                              "nvcc_no_such_kernel")
                .status,
            0);
}
#else
TEST(LessonSnippets, EveryLaunchSnippetAsPrintedCompilesWithNvcc) {
  GTEST_SKIP() << "this build has no nvcc: the snippets were compiled against the emulator's shim "
                  "only";
}
#endif

// ---- Lines of a kernel that the text quotes or names -------------------------------------------

std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      if (start < text.size()) lines.emplace_back(text.substr(start));
      break;
    }
    lines.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// A line's code: without its trailing // comment and the spaces round it.
std::string code_of(std::string line) {
  if (const std::size_t comment = line.find("//"); comment != std::string::npos) {
    line.erase(comment);
  }
  const std::size_t first = line.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  line.erase(0, first);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.pop_back();
  return line;
}

bool is_statement(const std::string& line) {
  const std::string code = code_of(line);
  return !code.empty() && code.back() == ';';
}

// A quote is a whole statement (`c[i] = a[i] + b[i];`) or one with elisions (`a_tile[…] = …`),
// whose pieces must appear in the line in order.
bool line_has_quote(const std::string& line, const std::string& quote) {
  const std::string code = code_of(line);
  static const std::string kEllipsis = "…";
  if (quote.find(kEllipsis) == std::string::npos) return code.find(quote) != std::string::npos;
  std::size_t at = 0;
  std::size_t piece_start = 0;
  while (piece_start <= quote.size()) {
    std::size_t piece_end = quote.find(kEllipsis, piece_start);
    if (piece_end == std::string::npos) piece_end = quote.size();
    const std::string piece = quote.substr(piece_start, piece_end - piece_start);
    if (!piece.empty()) {
      at = code.find(piece, at);
      if (at == std::string::npos) return false;
      at += piece.size();
    }
    piece_start = piece_end + kEllipsis.size();
  }
  return true;
}

bool is_kernel_quote(const std::string& code_span) {
  if (code_span.starts_with("threadlab") || code_span.starts_with("--")) return false;
  return code_span.ends_with(";") ||
         (code_span.find("…") != std::string::npos && code_span.find('=') != std::string::npos);
}

struct KernelFile {
  std::string path;
  std::vector<std::string> lines;  // lines[0] is line 1
};

// The 1-based first and last lines of the __global__ function `name` in `file`, or {0, 0}.
std::pair<int, int> kernel_lines(const KernelFile& file, const std::string& name) {
  const std::regex head("__global__\\s+void\\s+" + name + "\\s*\\(");
  for (std::size_t i = 0; i < file.lines.size(); ++i) {
    // The head may follow `template <...>` on the line before; it starts on this line.
    if (!std::regex_search(file.lines[i], head)) continue;
    int depth = 0;
    bool opened = false;
    for (std::size_t j = i; j < file.lines.size(); ++j) {
      for (char ch : code_of(file.lines[j])) {
        if (ch == '{') {
          ++depth;
          opened = true;
        } else if (ch == '}') {
          --depth;
        }
      }
      if (opened && depth == 0) return {static_cast<int>(i + 1), static_cast<int>(j + 1)};
    }
  }
  return {0, 0};
}

// The kernel a `--memory-kernel K` names, by the lessons' short names: K itself, or a kernel whose
// name ends in "_K" (naive: matmul_naive). A number is an index into the lesson's recorded kernels,
// which this test does not know: any kernel then.
std::vector<std::pair<const KernelFile*, std::pair<int, int>>> kernels_named(
    const std::vector<KernelFile>& files, const std::string& short_name) {
  std::vector<std::pair<const KernelFile*, std::pair<int, int>>> found;
  static const std::regex kGlobal(R"(__global__\s+void\s+([A-Za-z_][A-Za-z_0-9]*)\s*\()");
  for (const KernelFile& file : files) {
    for (const std::string& line : file.lines) {
      std::smatch match;
      if (!std::regex_search(line, match, kGlobal)) continue;
      const std::string name = match[1].str();
      if (name == short_name || name.ends_with("_" + short_name)) {
        found.push_back({&file, kernel_lines(file, name)});
      }
    }
  }
  return found;
}

TEST(LessonSnippets, EveryKernelLineTheTextQuotesOrNamesIsThere) {
  int quotes = 0;
  int memory_lines = 0;
  int prose_lines = 0;
  for (const LessonText& lesson : lesson_texts_in_app()) {
    std::vector<KernelFile> files;
    for (const markdown::Block& block : lesson.document.blocks) {
      if (!is_kernel_block(block)) continue;
      const std::string path = trimmed(block.code);
      const auto source = lesson_texts::find_text(path);
      if (source) files.push_back({path, lines_of(*source)});
    }
    for (const markdown::Block& block : lesson.document.blocks) {
      if (block.kind != markdown::BlockKind::kParagraph &&
          block.kind != markdown::BlockKind::kListItem) {
        continue;
      }
      const std::string where = lesson.path + ":" + std::to_string(block.line);
      std::string text;
      std::vector<std::string> block_quotes;
      for (const markdown::Span& span : block.spans) {
        text += span.text;
        if (!span.code) continue;
        std::string quote = span.text;
        while (!quote.empty() && quote.back() == ' ') quote.pop_back();
        if (is_kernel_quote(quote)) block_quotes.push_back(quote);
      }
      // Every statement the text quotes is a line of a kernel the lesson shows.
      for (const std::string& quote : block_quotes) {
        ++quotes;
        bool found = false;
        for (const KernelFile& file : files) {
          for (const std::string& line : file.lines) found = found || line_has_quote(line, quote);
        }
        EXPECT_TRUE(found) << where << ": `" << quote
                           << "` is quoted as kernel code, but no kernel this lesson shows has it";
      }
      // `--memory-line N` (a command the learner runs): line N of the kernel the command names is
      // a statement, and one the same paragraph quotes if it quotes any.
      static const std::regex kMemoryLine(
          R"((?:--memory-kernel\s+([A-Za-z_0-9]+)[^`]*?)?--memory-line\s+(\d+))");
      for (auto it = std::sregex_iterator(text.begin(), text.end(), kMemoryLine);
           it != std::sregex_iterator(); ++it) {
        ++memory_lines;
        const std::string kernel = (*it)[1].str();
        const int n = std::stoi((*it)[2].str());
        std::vector<std::pair<const KernelFile*, std::pair<int, int>>> candidates;
        const bool by_name =
            !kernel.empty() && !std::isdigit(static_cast<unsigned char>(kernel[0]));
        if (by_name) {
          candidates = kernels_named(files, kernel);
          EXPECT_FALSE(candidates.empty())
              << where << ": --memory-kernel " << kernel << " names no kernel this lesson shows";
        } else {
          for (const KernelFile& file : files) {
            candidates.push_back({&file, {1, static_cast<int>(file.lines.size())}});
          }
        }
        bool found = false;
        for (const auto& [file, range] : candidates) {
          if (n < range.first || n > range.second) continue;
          const std::string& line = file->lines[static_cast<std::size_t>(n - 1)];
          bool quoted = block_quotes.empty();
          for (const std::string& quote : block_quotes) {
            quoted = quoted || line_has_quote(line, quote);
          }
          found = found || (is_statement(line) && quoted);
        }
        EXPECT_TRUE(found) << where << ": --memory-line " << n << " is not "
                           << (block_quotes.empty() ? "a statement"
                                                    : "a statement this text quotes")
                           << " in " << (by_name ? "kernel " + kernel : std::string("any kernel"))
                           << " this lesson shows";
      }
      // "line 90", "lines 85 and 86" in the prose: statements of one kernel file the lesson shows;
      // where the paragraph quotes statements, one of those lines holds one of them, and a quote
      // with elisions (`a_tile[…] = …`), which points at a line rather than copying it, is on one
      // of the lines it names.
      static const std::regex kProseLines(R"((?:^|[\s(])lines? (\d+)(?: and (\d+))?(?![\d.]))");
      std::vector<int> named;
      for (auto it = std::sregex_iterator(text.begin(), text.end(), kProseLines);
           it != std::sregex_iterator(); ++it) {
        for (int group = 1; group <= 2; ++group) {
          if ((*it)[group].matched) named.push_back(std::stoi((*it)[group].str()));
        }
      }
      if (named.empty()) continue;
      prose_lines += static_cast<int>(named.size());
      bool found = false;
      for (const KernelFile& file : files) {
        bool statements = true;
        bool quoted = block_quotes.empty();
        std::vector<bool> elision_placed(block_quotes.size(), true);
        for (std::size_t q = 0; q < block_quotes.size(); ++q) {
          elision_placed[q] = block_quotes[q].find("…") == std::string::npos;
        }
        for (int n : named) {
          if (n < 1 || n > static_cast<int>(file.lines.size())) {
            statements = false;
            break;
          }
          const std::string& line = file.lines[static_cast<std::size_t>(n - 1)];
          statements = statements && is_statement(line);
          for (std::size_t q = 0; q < block_quotes.size(); ++q) {
            if (!line_has_quote(line, block_quotes[q])) continue;
            quoted = true;
            elision_placed[q] = true;
          }
        }
        const bool all_placed =
            std::all_of(elision_placed.begin(), elision_placed.end(), [](bool b) { return b; });
        found = found || (statements && quoted && all_placed);
      }
      std::string lines;
      for (int n : named) lines += (lines.empty() ? "" : ", ") + std::to_string(n);
      EXPECT_TRUE(found) << where << ": no kernel file this lesson shows has statements at lines "
                         << lines
                         << (block_quotes.empty()
                                 ? ""
                                 : ", one of them a statement the text quotes, each quote with "
                                   "elisions (…) on one of them");
    }
  }
  // Lesson 1's and lesson 4's Memory paragraphs quote and name lines today.
  EXPECT_GE(quotes, 3);
  EXPECT_GE(memory_lines, 3);
  EXPECT_GE(prose_lines, 4);
}

}  // namespace
}  // namespace tl

namespace tl {
namespace {

// ---- Output a lesson shows as recorded
// -----------------------------------------------------------
//
// A ```text block after a paragraph that says "Recorded on <GPU>, <date>" and names its log
// (`docs/data/….log`) is an excerpt of that log: every line of the block is a line of the log, in
// order ("…" marks lines left out). A paragraph that says the output is "not yet recorded" names
// the script that records it, and the script exists. So output that no GPU printed cannot be shown
// as recorded (lesson 10's sanitizer reports, docs/data/record-debugging-lesson.sh).
TEST(LessonSnippets, RecordedOutputIsAnExcerptOfTheLogItNames) {
  int recorded = 0;
  int pending = 0;
  static const std::regex kLog(R"(docs/data/[A-Za-z0-9_.\-]+\.log)");
  static const std::regex kScript(R"(docs/data/[A-Za-z0-9_.\-]+\.sh)");
  for (const LessonText& lesson : lesson_texts_in_app()) {
    const auto& blocks = lesson.document.blocks;
    for (std::size_t i = 0; i < blocks.size(); ++i) {
      if (blocks[i].kind != markdown::BlockKind::kParagraph) continue;
      const std::string text = paragraph_text(blocks[i]);
      const std::string where = lesson.path + ":" + std::to_string(blocks[i].line);
      if (text.find("not yet recorded") != std::string::npos) {
        ++pending;
        std::smatch script;
        ASSERT_TRUE(std::regex_search(text, script, kScript))
            << where
            << ": says the output is not yet recorded, but names no script that records it";
        EXPECT_TRUE(fs::exists(fs::path(THREADLAB_SOURCE_DIR) / script[0].str()))
            << where << ": " << script[0].str() << " does not exist";
        continue;
      }
      if (text.find("Recorded on ") == std::string::npos) continue;
      ++recorded;
      std::smatch log;
      ASSERT_TRUE(std::regex_search(text, log, kLog)) << where << ": names no docs/data/ log";
      const fs::path log_path = fs::path(THREADLAB_SOURCE_DIR) / log[0].str();
      ASSERT_TRUE(fs::exists(log_path)) << where << ": " << log[0].str() << " does not exist";
      ASSERT_LT(i + 1, blocks.size()) << where;
      const markdown::Block& shown = blocks[i + 1];
      ASSERT_TRUE(shown.kind == markdown::BlockKind::kCode && shown.code_info == "text")
          << where << ": the recording is not followed by a ```text block";
      const std::vector<std::string> log_lines = lines_of(read_file(log_path));
      std::size_t at = 0;
      for (const std::string& line : lines_of(shown.code)) {
        if (line == "…" || line.empty()) continue;
        while (at < log_lines.size() && log_lines[at] != line) ++at;
        EXPECT_LT(at, log_lines.size())
            << where << ": \"" << line << "\" is not in " << log[0].str() << " (in order)";
        if (at == log_lines.size()) break;
        ++at;
      }
    }
  }
  // Lesson 10 shows four tools' output: recorded, or said to be pending with its script.
  EXPECT_GE(recorded + pending, 4);
}

}  // namespace
}  // namespace tl
