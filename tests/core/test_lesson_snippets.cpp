// The code a lesson shows is the code that runs. Two ways a lesson text can drift from it:
//
// - a block that says it is the running kernel ("exactly as written here") is a copy, not the
//   embedded file (a ```kernel block, which the lesson panel fills from the file the app compiles);
// - a launch snippet (a ```cuda block with `<<<`) calls the kernel shown beside it with arguments
// it
//   does not take, or by a name it does not have.
//
// The second is checked the way the Kernel Lab builds a learner's kernel on the emulator: the
// snippet, with its launch written as a plain call, is compiled by the system C++ compiler against
// the emulator's CUDA shim (kernels/emulator/cuda_emulation.hpp) and the lesson's kernel files, in
// a function that declares the host variables a snippet leaves to the reader (n, a, c, d_a, ...).

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
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
      if (block.kind == markdown::BlockKind::kCode && block.code_info != "kernel") {
        // A kernel's definition written out in the text is a copy that can go stale: the text
        // shows kernels as ```kernel blocks only.
        EXPECT_EQ(block.code.find("__global__"), std::string::npos)
            << lesson.path << ":" << block.line << ": a ```" << block.code_info
            << " block defines a kernel; show the file instead";
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
  EXPECT_GE(claims, 2) << "lessons 1 and 3 say their kernel is shown exactly as written";
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

struct CompileResult {
  int status = -1;
  std::string output;
};

CompileResult compile(const std::string& unit, const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("threadlab-snippets-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path source = dir / (name + ".cpp");
  const fs::path log = dir / (name + ".log");
  std::ofstream(source, std::ios::binary) << unit;
  const fs::path root(THREADLAB_SOURCE_DIR);
  const std::string command = std::string("\"") + THREADLAB_CXX_COMPILER +
                              "\" -std=c++20 -fsyntax-only -I\"" + root.string() + "\" -I\"" +
                              (root / "app").string() + "\" -I\"" +
                              (root / "kernels" / "emulator").string() + "\" \"" + source.string() +
                              "\" > \"" + log.string() + "\" 2>&1";
  CompileResult result;
  result.status = std::system(command.c_str());
  result.output = read_file(log);
  return result;
}

TEST(LessonSnippets, EveryLaunchSnippetCompilesAgainstTheKernelsItsLessonShows) {
  int snippets = 0;
  for (const LessonText& lesson : lesson_texts_in_app()) {
    std::vector<std::string> kernel_files;
    for (const markdown::Block& block : lesson.document.blocks) {
      if (is_kernel_block(block)) kernel_files.push_back(trimmed(block.code));
    }
    for (const markdown::Block& block : lesson.document.blocks) {
      if (block.kind != markdown::BlockKind::kCode || block.code_info == "kernel") continue;
      if (block.code.find("<<<") == std::string::npos) continue;
      const std::string where = lesson.path + ":" + std::to_string(block.line);
      ASSERT_FALSE(kernel_files.empty()) << where << ": a launch in a lesson that shows no kernel";
      int launches = 0;
      const std::string body = as_plain_calls(block.code, launches);
      ASSERT_GT(launches, 0) << where << ": `<<<` but no launch the test can read";
      std::string unit = "#include \"cuda_emulation.hpp\"\n#include \"kernels/trace.cuh\"\n";
      unit += kHostRuntime;
      unit += "namespace lesson {\n";
      for (const std::string& file : kernel_files) {
        const auto source = lesson_texts::find_text(file);
        ASSERT_TRUE(source.has_value()) << where << ": " << file << " is not embedded";
        unit += "#line 1 \"" + file + "\"\n" + std::string(*source) + "\n";
      }
      unit += "int snippet() {\n" + std::string(kReaderContext) + "  {\n#line " +
              std::to_string(block.line) + " \"" + lesson.path + "\"\n" + body +
              "\n  }\n  return 0;\n}\n}  // namespace lesson\n";
      ++snippets;
      const CompileResult result = compile(unit, "snippet" + std::to_string(snippets));
      EXPECT_EQ(result.status, 0) << where
                                  << ": the launch snippet does not compile against the kernel "
                                     "its lesson shows:\n"
                                  << result.output;
    }
  }
  EXPECT_GE(snippets, 2) << "lessons 1 and 3 have launch snippets";
}

// The check itself: a launch with one argument too few, or of a kernel the file does not have, is
// refused (the two mistakes lessons 1 and 3 once made).
TEST(LessonSnippets, TheCheckRefusesALaunchTheKernelDoesNotTake) {
  const auto source = lesson_texts::find_text("lessons/01_vector_add/kernels/vector_add.cuh");
  ASSERT_TRUE(source.has_value());
  auto unit_for = [&](const std::string& launch) {
    int launches = 0;
    return "#include \"cuda_emulation.hpp\"\n#include \"kernels/trace.cuh\"\n" +
           std::string(kHostRuntime) + "namespace lesson {\n" + std::string(*source) +
           "\nint snippet() {\n" + kReaderContext + "  {\n" + as_plain_calls(launch, launches) +
           "\n  }\n  return 0;\n}\n}\n";
  };
  EXPECT_EQ(compile(unit_for("vector_add<<<blocks, threads_per_block>>>(d_a, d_b, d_c, n, "
                             "tl::Untraced{});"),
                    "good")
                .status,
            0);
  EXPECT_NE(
      compile(unit_for("vector_add<<<blocks, threads_per_block>>>(d_a, d_b, d_c, n);"), "too_few")
          .status,
      0);
  EXPECT_NE(compile(unit_for("matrix_add<<<blocks, threads_per_block>>>(d_a, d_b, d_c, n, n, "
                             "tl::Untraced{});"),
                    "no_such_kernel")
                .status,
            0);
}

}  // namespace
}  // namespace tl
