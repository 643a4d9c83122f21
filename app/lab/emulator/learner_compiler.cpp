#include "lab/emulator/learner_compiler.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>

#include "core/limited_process.hpp"
#include "core/user_files.hpp"
#include "lab/emulator/dynamic_shared_rewrite.hpp"

namespace tl::lab_emulator_texts {
std::optional<std::string_view> find_text(std::string_view path);
std::vector<std::string_view> text_paths();
}  // namespace tl::lab_emulator_texts

namespace tl::lab {
namespace {

namespace fs = std::filesystem;

// Raised whenever the generated translation unit or the flags change meaning, so that no build
// of an older ThreadLab is taken from the cache.
constexpr std::string_view kGeneratorVersion = "learner-emulator-4";

std::vector<std::string> compile_flags() {
  // TL_EMU_LOADED_OBJECT: the object is loaded with dlopen, so the shim's thread-locals keep the
  // dynamic TLS model (cuda_emulation.hpp).
  return {"-std=c++20",
          "-O2",
          "-g0",
          "-fPIC",
          "-fvisibility=hidden",
          "-fvisibility-inlines-hidden",
          "-fdiagnostics-color=never",
          "-DTL_EMU_LOADED_OBJECT"};
}
std::vector<std::string> link_flags() {
  // A call to a function that exists nowhere fails here, not when the worker loads the kernel.
  return {"-shared", "-Wl,--no-undefined"};
}

std::uint64_t fnv1a(std::string_view text, std::uint64_t hash = 1469598103934665603ull) {
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  // A separator, so that ("ab", "c") and ("a", "bc") hash apart.
  hash ^= 0xffu;
  hash *= 1099511628211ull;
  return hash;
}

std::string hex(std::uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Where the embedded file `path` (relative to the source tree) goes in the include directory.
std::string include_name(std::string_view path) {
  if (path == "kernels/emulator/cuda_emulation.hpp") return "threadlab_emulator/cuda_emulation.hpp";
  return std::string(fs::path(path).filename());
}

// The embedded headers in `cache_dir`/include-<hash of their text>, written once.
std::optional<fs::path> prepared_include_dir(const fs::path& cache_dir, std::uint64_t& texts_hash) {
  texts_hash = fnv1a(kGeneratorVersion);
  for (std::string_view path : lab_emulator_texts::text_paths()) {
    texts_hash = fnv1a(path, texts_hash);
    texts_hash = fnv1a(*lab_emulator_texts::find_text(path), texts_hash);
  }
  const fs::path dir = cache_dir / ("include-" + hex(texts_hash));
  const fs::path complete = dir / ".complete";
  std::error_code error;
  if (fs::exists(complete, error)) return dir;
  fs::create_directories(dir / "threadlab_emulator", error);
  if (error) return std::nullopt;
  // Through the one atomic write (core/user_files.hpp): a worker killed mid-write leaves no half a
  // header for the next one to include, and a full disk is an error, not an empty file.
  for (std::string_view path : lab_emulator_texts::text_paths()) {
    if (!write_file_atomically(dir / include_name(path), *lab_emulator_texts::find_text(path))) {
      return std::nullopt;
    }
  }
  if (!write_file_atomically(complete, "")) return std::nullopt;
  return dir;
}

// The compiler's full path: `name` itself when it holds a slash, else the first match on PATH.
std::optional<fs::path> find_compiler(const std::string& name) {
  auto executable = [](const fs::path& p) { return ::access(p.c_str(), X_OK) == 0; };
  if (name.find('/') != std::string::npos) {
    if (executable(name)) return fs::path(name);
    return std::nullopt;
  }
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    const fs::path candidate = fs::path(dir) / name;
    if (executable(candidate)) return candidate;
  }
  return std::nullopt;
}

// What one compile may take: a template or constexpr bomb ends here as "does not compile", not as a
// worker that never answers. Generous for any real kernel (the largest exercise builds in about a
// second; the memory-recording build in a few).
constexpr int kCompilerCpuSeconds = 20;
constexpr std::uint64_t kCompilerMemoryBytes = 2ull << 30;

// Runs `argv` in `working_dir` with its output in `log`, under the compile limits, and waits.
ProcessResult run_process(const std::vector<std::string>& argv, const fs::path& working_dir,
                          const fs::path& log) {
  return run_limited_process(
      argv, working_dir, log,
      ProcessLimits{kCompilerCpuSeconds, kCompilerMemoryBytes, std::chrono::seconds(60)});
}

// The compiler's first line of --version ("c++ (Debian 12.2.0-14) 12.2.0"): part of the cache key,
// so an upgraded compiler rebuilds.
std::string compiler_identity(const fs::path& compiler, const fs::path& scratch_dir) {
  const fs::path log = scratch_dir / ("version.log.tmp" + unique_process_tag());
  ProcessResult version = run_process({compiler.string(), "--version"}, scratch_dir, log);
  std::error_code error;
  fs::remove(log, error);
  const std::string first_line = version.output.substr(0, version.output.find('\n'));
  return compiler.string() + "|" + first_line;
}

bool is_identifier(std::string_view name) {
  static const std::regex identifier("[A-Za-z_][A-Za-z0-9_]*");
  return std::regex_match(name.begin(), name.end(), identifier);
}

LearnerCompileFailure failure(LearnerCompileFailure::Kind kind, std::string message,
                              std::string diagnostics = {}) {
  return LearnerCompileFailure{kind, std::move(message), std::move(diagnostics)};
}

}  // namespace

bool source_needs_fibers(std::string_view source) {
  static const std::regex waits(R"(__syncthreads|__syncwarp|__activemask|_sync\s*\()");
  return std::regex_search(source.begin(), source.end(), waits);
}

LearnerCompileResult compile_learner_kernel(std::string_view source, std::string_view kernel_name,
                                            const fs::path& cache_dir,
                                            const LearnerCompileOptions& options) {
  using Kind = LearnerCompileFailure::Kind;
  if (!is_identifier(kernel_name)) {
    return failure(Kind::kBadRequest,
                   "the kernel name \"" + std::string(kernel_name) + "\" is not a C++ identifier");
  }
  if (options.check_shared_races && options.record_memory) {
    // Both instrument every access with the same callbacks; one build does one of the two.
    return failure(Kind::kBadRequest,
                   "a build either checks shared-memory races or records memory accesses");
  }
  const std::string compiler_name = options.compiler.empty() ? "c++" : options.compiler;
  const std::optional<fs::path> compiler = find_compiler(compiler_name);
  if (!compiler) {
    return failure(Kind::kNoCompiler,
                   "no C++ compiler: the emulator builds kernels with the system compiler `" +
                       compiler_name +
                       "`, which was not found (on PATH); install g++ or clang++ (on Debian or "
                       "Ubuntu: apt install g++), or run on the GPU");
  }
  const fs::path root = cache_dir / "emulator";
  std::error_code error;
  fs::create_directories(root, error);
  if (error) {
    return failure(Kind::kCacheUnusable, "cannot create the emulator's cache directory " +
                                             root.string() + ": " + error.message());
  }
  std::uint64_t texts_hash = 0;
  const std::optional<fs::path> include_dir = prepared_include_dir(root, texts_hash);
  if (!include_dir) {
    return failure(Kind::kCacheUnusable,
                   "cannot write the emulator's headers under " + root.string());
  }

  // The translation unit: the shim and the executor's interface, the preludes, the learner's
  // source on its own line numbers, then the exported entry points.
  std::string learner_text = rewrite_dynamic_shared(source);
  std::string needs_fibers_scan = learner_text;
  std::string unit = "// Generated by ThreadLab: a learner's kernel for the CPU emulator.\n";
  unit += "#include \"learner_entry.hpp\"\n";
  for (const auto& [name, text] : options.preludes) {
    unit += "#include \"" + name + "\"\n";
    needs_fibers_scan += text;
  }
  unit += "#line 1 \"kernel.cu\"\n";
  unit += learner_text;
  if (!learner_text.empty() && learner_text.back() != '\n') unit += '\n';
  unit += "#line 1 \"threadlab_entry.cpp\"\n";
  unit += "THREADLAB_LEARNER_ENTRY(" + std::string(kernel_name) + ", " +
          // The race check follows each emulated thread as a fiber of its own: without fibers,
          // a kernel that never waits runs its threads back to back and a race between them
          // would go unseen.
          (options.check_shared_races || source_needs_fibers(needs_fibers_scan) ? "1" : "0") +
          ")\n";

  std::vector<std::string> flags = compile_flags();
  for (const std::string& define : options.defines) flags.push_back("-D" + define);
  if (options.check_shared_races) {
    // Instrumentation only: the callbacks are learner_entry.hpp's, no sanitizer runtime is linked
    // (so the object is compiled and linked in two steps).
    flags.push_back("-fsanitize=thread");
    flags.push_back("-DTHREADLAB_RACE_CHECK");
  }
  if (options.record_memory) {
    // The same instrumentation, other callbacks. Debug information names each access's line;
    // no vectorizer, so that the host compiler does not merge a lane's neighbouring scalar
    // accesses into one wide access that nvcc would not emit either.
    std::replace(flags.begin(), flags.end(), std::string("-g0"), std::string("-g"));
    flags.push_back("-fno-tree-vectorize");
    flags.push_back("-fsanitize=thread");
    flags.push_back("-DTHREADLAB_MEMORY_RECORD");
  }
  for (const std::string& flag : link_flags()) flags.push_back(flag);

  std::uint64_t key = fnv1a(unit, texts_hash);
  for (const auto& [name, text] : options.preludes) key = fnv1a(text, fnv1a(name, key));
  for (const std::string& flag : flags) key = fnv1a(flag, key);
  key = fnv1a(compiler_identity(*compiler, root), key);

  const fs::path build_dir = root / hex(key);
  const fs::path shared_object = build_dir / "kernel.so";
  const fs::path saved_log = build_dir / "build.log";
  if (fs::exists(shared_object, error)) {
    LearnerBuild build;
    build.shared_object = shared_object;
    build.diagnostics = read_file(saved_log);
    build.from_cache = true;
    return build;
  }
  fs::create_directories(build_dir, error);
  if (error) {
    return failure(Kind::kCacheUnusable,
                   "cannot create " + build_dir.string() + ": " + error.message());
  }
  for (const auto& [name, text] : options.preludes) {
    if (const Status written = write_file_atomically(build_dir / name, text); !written) {
      return failure(Kind::kCacheUnusable, written.message());
    }
  }
  // Not the pid alone: sandboxed workers are all PID 1 (core/user_files.hpp).
  const std::string pid = unique_process_tag();
  const fs::path unit_path = build_dir / ("lab_kernel." + pid + ".cpp");
  const fs::path object_temporary = build_dir / ("kernel.so.tmp" + pid);
  const fs::path log_temporary = build_dir / ("build.log.tmp" + pid);
  if (const Status written = write_file_atomically(unit_path, unit); !written) {
    return failure(Kind::kCacheUnusable, written.message());
  }

  // One step (compile and link), or, with the race check, two: the sanitizer's flag must not
  // reach the link, which would pull in its runtime.
  const bool instrumented = options.check_shared_races || options.record_memory;
  const std::vector<std::string> link = link_flags();
  std::vector<std::string> compile_only;
  for (const std::string& flag : flags) {
    if (std::find(link.begin(), link.end(), flag) == link.end()) compile_only.push_back(flag);
  }
  const fs::path object_file = build_dir / ("lab_kernel." + pid + ".o");
  std::vector<std::string> argv = {compiler->string()};
  argv.insert(argv.end(), instrumented ? compile_only.begin() : flags.begin(),
              instrumented ? compile_only.end() : flags.end());
  argv.push_back("-I" + include_dir->string());
  argv.push_back("-I.");
  if (instrumented) argv.push_back("-c");
  argv.push_back("-o");
  argv.push_back(instrumented ? object_file.filename().string()
                              : object_temporary.filename().string());
  argv.push_back(unit_path.filename().string());
  const auto start = std::chrono::steady_clock::now();
  ProcessResult compiled = run_process(argv, build_dir, log_temporary);
  if (instrumented && compiled.started && compiled.exit_code == 0) {
    std::vector<std::string> link_argv = {compiler->string()};
    link_argv.insert(link_argv.end(), link.begin(), link.end());
    link_argv.push_back("-o");
    link_argv.push_back(object_temporary.filename().string());
    link_argv.push_back(object_file.filename().string());
    const std::string compile_output = compiled.output;
    compiled = run_process(link_argv, build_dir, log_temporary);
    compiled.output = compile_output + compiled.output;
  }
  fs::remove(object_file, error);
  const double compile_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  fs::remove(unit_path, error);
  if (!compiled.started) {
    fs::remove(log_temporary, error);
    return failure(Kind::kNoCompiler, "could not start the C++ compiler " + compiler->string() +
                                          ": " + std::strerror(errno));
  }
  if (compiled.exit_code != 0) {
    fs::remove(log_temporary, error);
    fs::remove(object_temporary, error);
    if (compiled.over_time) {
      return failure(Kind::kDoesNotCompile,
                     "does not compile: the compiler took longer than " +
                         std::to_string(kCompilerCpuSeconds) +
                         " s (a template or constexpr that expands without end?)",
                     std::move(compiled.output));
    }
    if (compiled.output.find("memory exhausted") != std::string::npos ||
        compiled.output.find("out of memory") != std::string::npos) {
      return failure(Kind::kDoesNotCompile,
                     "does not compile: the compiler needed more than " +
                         std::to_string(kCompilerMemoryBytes >> 30) + " GiB",
                     std::move(compiled.output));
    }
    return failure(Kind::kDoesNotCompile, "the kernel does not compile for the emulator",
                   std::move(compiled.output));
  }
  // The whole log, the compile step's too (the link step's file holds only its own), saved before
  // the shared object: a build found in the cache always has its log beside it.
  fs::remove(log_temporary, error);
  if (const Status saved = write_file_atomically(saved_log, compiled.output); !saved) {
    fs::remove(object_temporary, error);
    return failure(Kind::kCacheUnusable, saved.message());
  }
  if (const Status stored = commit_file(object_temporary, shared_object); !stored) {
    return failure(Kind::kCacheUnusable, stored.message());
  }
  LearnerBuild build;
  build.shared_object = shared_object;
  build.diagnostics = std::move(compiled.output);
  build.compile_ms = compile_ms;
  return build;
}

}  // namespace tl::lab
