#include "lab/lab_check.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <sstream>
#include <thread>

#include <unistd.h>

#include "core/user_files.hpp"
#include "lab/kernel_signature.hpp"
#include "lab/lab_inspect.hpp"
#include "lab/source_policy.hpp"
#include "lab/worker/sandbox.hpp"
#include "lab/worker_session.hpp"

namespace tl::lab {
namespace {

constexpr std::size_t kAlignment = 256;
constexpr std::size_t kMostWrongElementsKept = 1 << 20;

std::size_t aligned(std::size_t offset) {
  return (offset + kAlignment - 1) / kAlignment * kAlignment;
}

std::string position(const Dim3& at, const Dim3& extent) {
  std::string text = "(" + std::to_string(at.x) + "," + std::to_string(at.y);
  if (extent.z > 1) text += "," + std::to_string(at.z);
  return text + ")";
}

std::string element_name(const ParameterSpec& p, const ArrayData& data, std::int64_t i) {
  if (p.matrix) {
    return p.name + "(" + std::to_string(i / data.cols) + ", " + std::to_string(i % data.cols) +
           ")";
  }
  return p.name + "[" + std::to_string(i) + "]";
}

std::string writer_of(const TraceRecord& record, const LaunchShape& launch) {
  const Dim3 block = launch.grid.unlinear(record.block);
  const Dim3 thread = launch.block.unlinear(record.thread_and_sm & kTraceThreadMask);
  return "block " + position(block, launch.grid) + " thread " + position(thread, launch.block);
}

bool close_enough(float got, float expected, const Tolerance& tolerance) {
  if (std::isnan(got) != std::isnan(expected)) return false;
  if (std::isnan(got)) return true;
  if (std::isinf(expected) || std::isinf(got)) return got == expected;
  const double difference = std::fabs(static_cast<double>(got) - expected);
  return difference <= tolerance.absolute + tolerance.relative * std::fabs(expected);
}

// A Run's one line: what ran, with which launch, and what came of it.
std::string ran_reason(const CheckCase& example, const std::string& outcome) {
  return "ran on " + example.label + " with " + launch_text(example.launch) + ": " + outcome;
}

// 10240000 as "10,240,000": a thread count one can read.
std::string grouped(std::uint64_t value) {
  std::string digits = std::to_string(value);
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) digits.insert(at, ",");
  return digits;
}

CheckVerdict unavailable(std::string reason) {
  CheckVerdict verdict;
  verdict.outcome = Outcome::kUnavailable;
  verdict.reason = std::move(reason);
  return verdict;
}

// Words past the end of every array, filled with kGuardWord and read back after the run: a whole
// block of the largest size past a 1-D array, and a row more past a matrix, so that a missing or
// off-by-one guard on either lands in it.
constexpr std::uint32_t kGuardElements = 1024;
// The most launched threads a traced run flags one byte each for (16 MiB of flags).
constexpr std::uint64_t kMostFlaggedThreads = std::uint64_t{1} << 24;
// The canaries: past an output, a quiet NaN with a payload no computation makes; past an input, a
// finite value (12345678.0f), so that what a kernel computes from reading past the inputs' ends
// (NaN plus NaN keeps one NaN's payload) never equals the output's canary it overwrites.
constexpr std::uint32_t kOutputGuardWord = 0x7FC0FEEDu;
constexpr std::uint32_t kInputGuardWord = 0x4B3C614Eu;

std::uint32_t guard_word(const ParameterSpec& parameter) {
  return parameter.kind == ParameterKind::kOutputArray ? kOutputGuardWord : kInputGuardWord;
}

// The region for one case: each array's elements and its guard zone, each traced output's
// records, the fault record; offsets rounded up so that every array is aligned for vector loads.
// Every array comes back (not only the outputs): the app checks the guards and that no input was
// changed.
struct RegionLayout {
  std::vector<WireArgument> arguments;
  std::size_t fault_offset = 0;
  std::size_t fault_bytes = sizeof(WireFault);  // with the per-thread flags where there are any
  std::uint64_t flagged_threads = 0;            // launched threads with a flag byte each (traced)
  std::size_t bytes = 0;
};

RegionLayout lay_out(const Exercise& exercise, const KernelSignature& signature,
                     const CheckCase& check, bool traced) {
  RegionLayout layout;
  std::size_t offset = 0;
  for (std::size_t i = 0; i < exercise.parameters.size(); ++i) {
    const ParameterSpec& p = exercise.parameters[i];
    const Argument& argument = check.arguments[i];
    WireArgument wire;
    wire.form = signature.parameters[i].form;
    if (!is_array(p)) {
      wire.form = ArgumentForm::kScalar;
      wire.is_float = p.kind == ParameterKind::kFloat;
      wire.int_value = argument.int_value;
      wire.float_value = argument.float_value;
      layout.arguments.push_back(wire);
      continue;
    }
    wire.rows = argument.array.rows;
    wire.cols = argument.array.cols;
    wire.offset = offset;
    wire.guard_elements =
        kGuardElements + (wire.rows > 1 ? static_cast<std::uint32_t>(wire.cols) : 0u);
    offset =
        aligned(offset + static_cast<std::size_t>(argument.array.size() + wire.guard_elements) * 4);
    wire.copy_back = true;
    if (traced && p.kind == ParameterKind::kOutputArray) {
      wire.trace_offset = static_cast<std::int64_t>(offset);
      offset =
          aligned(offset + static_cast<std::size_t>(argument.array.size()) * sizeof(TraceRecord));
    }
    layout.arguments.push_back(wire);
  }
  layout.fault_offset = offset;
  // Traced, every launched thread gets a byte that says whether it accessed outside an array, so
  // the picture can tell a thread that strayed from one that had nothing to do. A launch too large
  // for that (more than kMostFlaggedThreads) still names its first stray access.
  const std::uint64_t threads =
      saturating_multiply(check.launch.grid.volume(), check.launch.block.volume());
  if (traced && threads <= kMostFlaggedThreads) {
    layout.flagged_threads = threads;
    layout.fault_bytes = sizeof(WireFault) + static_cast<std::size_t>(threads);
  }
  layout.bytes = aligned(offset + layout.fault_bytes);
  return layout;
}

void fill(const Exercise& exercise, std::byte* region, const RegionLayout& layout,
          const CheckCase& check) {
  if (layout.flagged_threads > 0) {
    const std::uint32_t flags = 1;
    std::memcpy(region + layout.fault_offset + offsetof(WireFault, thread_flags), &flags,
                sizeof flags);
  }
  for (std::size_t i = 0; i < layout.arguments.size(); ++i) {
    const WireArgument& wire = layout.arguments[i];
    if (wire.form == ArgumentForm::kScalar) continue;
    const ArrayData& data = check.arguments[i].array;
    std::memcpy(region + wire.offset, data.words.data(), data.words.size() * 4);
    const std::uint32_t canary = guard_word(exercise.parameters[i]);
    for (std::uint32_t g = 0; g < wire.guard_elements; ++g) {
      std::memcpy(region + wire.offset + (data.words.size() + g) * 4, &canary, 4);
    }
  }
}

// The launched threads that accessed outside an array, by their place in the launch (the
// prelude's lab_global_thread), from the flags that follow the fault record.
std::vector<std::uint64_t> flagged_threads(const std::byte* fault_record,
                                           const RegionLayout& layout) {
  std::vector<std::uint64_t> threads;
  const std::byte* flags = fault_record + sizeof(WireFault);
  for (std::uint64_t t = 0; t < layout.flagged_threads; ++t) {
    if (flags[t] != std::byte{0}) threads.push_back(t);
  }
  return threads;
}

// What the run did to memory it was not given to write: a guard zone past an array's end, or an
// input. The first such element, named; nothing when every canary and input is as it was. (The
// traced views stop an out-of-range write themselves and report it as a fault: this is for
// kernels with plain pointers, and for writes through a cast-away const.)
std::optional<std::string> guard_violation(const Exercise& exercise, const std::byte* region,
                                           const RegionLayout& layout, const CheckCase& check) {
  for (std::size_t i = 0; i < layout.arguments.size(); ++i) {
    const WireArgument& wire = layout.arguments[i];
    if (wire.form == ArgumentForm::kScalar) continue;
    const ParameterSpec& p = exercise.parameters[i];
    const ArrayData& data = check.arguments[i].array;
    const std::size_t size = data.words.size();
    for (std::uint32_t g = 0; g < wire.guard_elements; ++g) {
      std::uint32_t word = 0;
      std::memcpy(&word, region + wire.offset + (size + g) * 4, 4);
      if (word != guard_word(p)) {
        return p.name + "[" + std::to_string(size + g) + "] was written, past its end (size " +
               std::to_string(size) + "): a guard such as `if (i < n)` is missing or off by one";
      }
    }
    if (p.kind != ParameterKind::kOutputArray) {
      for (std::size_t e = 0; e < size; ++e) {
        std::uint32_t word = 0;
        std::memcpy(&word, region + wire.offset + e * 4, 4);
        if (word != data.words[e]) {
          return "the input " + p.name + " was changed (" + p.name + "[" + std::to_string(e) +
                 "] was " + data.format_at(static_cast<std::int64_t>(e)) +
                 "): a kernel must only read its inputs";
        }
      }
    }
  }
  return std::nullopt;
}

std::vector<ReturnedOutput> returned(const Exercise& exercise, const std::byte* region,
                                     const RegionLayout& layout, const CheckCase& check) {
  std::vector<ReturnedOutput> outputs;
  for (std::size_t i = 0; i < layout.arguments.size(); ++i) {
    const WireArgument& wire = layout.arguments[i];
    if (wire.form == ArgumentForm::kScalar) continue;
    if (exercise.parameters[i].kind != ParameterKind::kOutputArray) continue;
    ReturnedOutput output;
    output.parameter = i;
    output.values = check.arguments[i].array;
    std::memcpy(output.values.words.data(), region + wire.offset, output.values.words.size() * 4);
    if (wire.trace_offset >= 0) {
      output.trace.resize(static_cast<std::size_t>(output.values.size()));
      std::memcpy(output.trace.data(), region + wire.trace_offset,
                  output.trace.size() * sizeof(TraceRecord));
    }
    outputs.push_back(std::move(output));
  }
  return outputs;
}

std::string fault_message(const Exercise& exercise, const WireFault& fault,
                          const LaunchShape& launch) {
  const ParameterSpec& p = exercise.parameters[fault.parameter];
  const Dim3 block{fault.block[0], fault.block[1], fault.block[2]};
  const Dim3 thread{fault.thread[0], fault.thread[1], fault.thread[2]};
  std::string where = "block " + position(block, launch.grid) + " thread " +
                      position(thread, launch.block) + (fault.is_write ? " wrote " : " read ");
  // An Array's fault has cols = -1; a Matrix's may well have col = -1 (a halo left of column 0).
  if (fault.cols < 0) {
    where += p.name + "[" + std::to_string(fault.row) + "], " +
             (fault.row < 0 ? "before its start" : "past its end") + ", size " +
             std::to_string(fault.rows);
  } else {
    where += p.name + "(" + std::to_string(fault.row) + ", " + std::to_string(fault.col) +
             "), outside its " + std::to_string(fault.rows) + " × " + std::to_string(fault.cols) +
             " elements";
  }
  if (fault.line > 0) where += " (line " + std::to_string(fault.line) + ")";
  return where;
}

// What the compiled form of a passing kernel says, compiled for the GPU it ran on (its device
// line ends "(sm_90)") or, on the emulator, for the architecture every build targets.
CompiledFeedback compiled_feedback_of(const Exercise& exercise, std::string_view source,
                                      const LabOptions& options, const std::string& device,
                                      const LaunchShape& launch) {
  int arch = kDefaultInspectArch;
  if (const std::size_t at = device.rfind("(sm_"); at != std::string::npos) {
    if (Result<int> parsed = parse_arch(device.substr(at + 1, device.size() - at - 2)); parsed) {
      arch = *parsed;
    }
  }
  Result<LearnerListing> listing = inspect_submission(exercise, source, options, arch);
  if (!listing) {
    CompiledFeedback feedback;
    feedback.arch = "sm_" + std::to_string(arch);
    feedback.unavailable = listing.error().message;
    return feedback;
  }
  CompiledFeedback feedback = compiled_feedback(*listing, launch);
  feedback.listing = std::make_shared<const LearnerListing>(std::move(*listing));
  return feedback;
}

// Records a passing kernel's accesses on `check` in an emulator worker of its own (the check's
// worker may be a GPU one) and words the figures.
MemoryFindings record_memory_findings(const Exercise& exercise, std::string_view source,
                                      const KernelSignature& signature, const CheckCase& check,
                                      const LabOptions& options) {
  MemoryFindings findings;
  findings.case_label = check.label;
  findings.launch = check.launch;
  findings.beside_gpu = options.backend == LabBackend::kGpu;
  LabOptions emulator = options;
  emulator.backend = LabBackend::kEmulator;
  WorkerSession worker(emulator);
  CompileRequest compile;
  compile.backend = LabBackend::kEmulator;
  compile.source = std::string(source);
  compile.kernel_name = exercise.kernel_name;
  Result<std::string> cache = worker.cache_dir();
  if (!cache) {
    findings.unavailable = cache.error().message;
    return findings;
  }
  compile.cache_dir = *cache;
  compile.record_memory = true;
  Result<std::string> compile_line = worker.exchange(encode(compile), options.compile_timeout);
  Result<CompileReply> compiled = compile_line ? decode_compile_reply(*compile_line)
                                               : Result<CompileReply>(compile_line.error());
  if (!compiled) {
    findings.unavailable = "the memory-recording build: " + compiled.error().message;
    return findings;
  }
  if (!compiled->ok) {
    findings.unavailable = "the memory-recording build: " + compiled->error;
    return findings;
  }
  const RegionLayout layout = lay_out(exercise, signature, check, /*traced=*/false);
  Result<SharedRegion> region = SharedRegion::create(layout.bytes);
  if (!region) {
    findings.unavailable = region.error().message;
    return findings;
  }
  fill(exercise, region->data(), layout, check);
  RunRequest request;
  request.traced = false;
  request.record_memory = true;
  request.record_blocks = options.record_blocks;
  request.region_bytes = layout.bytes;
  request.fault_offset = layout.fault_offset;
  request.arguments = layout.arguments;
  request.grid = check.launch.grid;
  request.block = check.launch.block;
  request.dynamic_shared_bytes = check.launch.dynamic_shared_bytes;
  // Every access calls back into the recorder: several times the traced run's CPU time.
  Result<std::string> line = worker.exchange(encode(request), options.timeout * 4,
                                             WorkerProcess::TimeBasis::kCpu, region->fd());
  Result<RunReply> reply = line ? decode_run_reply(*line) : Result<RunReply>(line.error());
  if (!reply) {
    findings.unavailable = "recording the memory accesses: " + reply.error().message;
    return findings;
  }
  if (!reply->ok || !reply->memory) {
    findings.unavailable =
        "recording the memory accesses: " +
        (reply->error.empty() ? std::string("no table came back") : reply->error);
    return findings;
  }
  findings.reply = std::move(*reply->memory);
  findings.notes = memory_notes(exercise, findings.reply);
  findings.budgets = load_budget_notes(exercise, findings.reply);
  return findings;
}

}  // namespace

const char* to_string(Outcome outcome) {
  switch (outcome) {
    case Outcome::kPassed:
      return "passed";
    case Outcome::kFailed:
      return "failed";
    case Outcome::kCompileError:
      return "compile-error";
    case Outcome::kUnavailable:
      return "unavailable";
  }
  return "unavailable";
}

Status validate_block(const Exercise& exercise, const Dim3& block) {
  const std::uint64_t threads = static_cast<std::uint64_t>(block.x) * block.y * block.z;
  if (block.x == 0 || block.y == 0 || block.z == 0 || threads > 1024) {
    return Error{ErrorKind::kInvalidArgument,
                 "--block " + to_string(block) + ": a block holds 1 to 1024 threads"};
  }
  const bool one_dimensional = exercise.default_block.y == 1 && exercise.default_block.z == 1;
  if (one_dimensional && (block.y != 1 || block.z != 1)) {
    return Error{ErrorKind::kInvalidArgument,
                 "--block " + to_string(block) + ": " + exercise.id +
                     " launches 1-D blocks (its kernel reads only blockDim.x); give one number, "
                     "e.g. --block " +
                     std::to_string(exercise.default_block.x)};
  }
  if (block.z != 1) {
    return Error{ErrorKind::kInvalidArgument, "--block " + to_string(block) + ": " + exercise.id +
                                                  " launches 2-D blocks; give two numbers, e.g. "
                                                  "--block 16,16"};
  }
  return Status::ok();
}

Status validate_grid(const Dim3& grid) {
  if (grid.x == 0 || grid.y == 0 || grid.z == 0) {
    return Error{ErrorKind::kInvalidArgument,
                 "--grid " + to_string(grid) + ": a grid has at least 1 block in each dimension"};
  }
  return Status::ok();
}

std::string with_learner_file_name(std::string_view text, std::string_view name) {
  constexpr std::string_view kWorkerName = "kernel.cu";
  if (name == kWorkerName || name.empty()) return std::string(text);
  std::string out;
  out.reserve(text.size());
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t found = text.find(kWorkerName, at);
    if (found == std::string_view::npos) break;
    const std::size_t after = found + kWorkerName.size();
    // kernel.cu as a word of its own: at a line's start or after a blank or a quote, and followed
    // by a position (":" or "("), a quote, a blank or the end ("kernel.cu does not compile").
    const bool starts =
        found == 0 || std::string_view(" \t\n'\"`").find(text[found - 1]) != std::string_view::npos;
    const bool ends = after == text.size() ||
                      std::string_view(":( \t\n'\"`").find(text[after]) != std::string_view::npos;
    out.append(text.substr(at, found - at));
    out.append(starts && ends ? name : kWorkerName);
    at = after;
  }
  out.append(text.substr(at));
  return out;
}

Result<std::string> normalized_source(std::string_view source, std::string_view name) {
  if (source.starts_with("\xEF\xBB\xBF")) source.remove_prefix(3);
  std::string text;
  text.reserve(source.size());
  std::size_t line = 1;
  for (std::size_t i = 0; i < source.size();) {
    const auto byte = static_cast<unsigned char>(source[i]);
    if (byte == '\r') {
      text += '\n';
      ++line;
      i += (i + 1 < source.size() && source[i + 1] == '\n') ? 2 : 1;
      continue;
    }
    // The length of the UTF-8 sequence this byte starts, and the least code point it may encode
    // (overlong forms and surrogates are not UTF-8 either).
    std::size_t length = 1;
    std::uint32_t least = 0;
    if (byte >= 0xF0 && byte <= 0xF4) {
      length = 4;
      least = 0x10000;
    } else if (byte >= 0xE0 && byte <= 0xEF) {
      length = 3;
      least = 0x800;
    } else if (byte >= 0xC2 && byte <= 0xDF) {
      length = 2;
      least = 0x80;
    } else if (byte >= 0x80) {
      length = 0;
    }
    std::uint32_t code = length == 4 ? byte & 0x07u : length == 3 ? byte & 0x0Fu : byte & 0x1Fu;
    bool valid = length > 0 && i + length <= source.size();
    for (std::size_t k = 1; valid && k < length; ++k) {
      const auto next = static_cast<unsigned char>(source[i + k]);
      valid = (next & 0xC0u) == 0x80u;
      code = (code << 6) | (next & 0x3Fu);
    }
    if (valid && length > 1) {
      valid = code >= least && code <= 0x10FFFF && !(code >= 0xD800 && code <= 0xDFFF);
    }
    if (!valid) {
      return Error{ErrorKind::kInvalidArgument, std::string(name) + " line " +
                                                    std::to_string(line) +
                                                    ": not UTF-8 (save the file as UTF-8)"};
    }
    if (byte == '\n') ++line;
    text.append(source.substr(i, length));
    i += length;
  }
  return text;
}

Result<SandboxReply> lab_sandbox_layers(const LabOptions& options) {
  if (!options.sandbox) return SandboxReply{"none (--unsafe-no-sandbox)", false};
  WorkerSession worker(options);
  Result<std::string> line = worker.exchange(R"({"op":"sandbox"})", std::chrono::seconds(20));
  if (!line) return line.error();
  return decode_sandbox_reply(*line);
}

std::string default_lab_cache_dir() {
  if (auto path = user_file("XDG_CACHE_HOME", ".cache", "lab")) return path->string();
  return {};
}

CaseResult judge_case(const Exercise& exercise, const CheckCase& check,
                      const std::vector<ReturnedOutput>& outputs, const WireFault* fault) {
  CaseResult result;
  result.label = check.label;
  result.launch = check.launch;
  for (const ReturnedOutput& output : outputs) {
    const ParameterSpec& p = exercise.parameters[output.parameter];
    const ArrayData& expected = check.expected[output.parameter];
    const bool drawn = result.trace.empty() && result.rows == 0;
    if (drawn) {
      result.rows = output.values.rows;
      result.cols = output.values.cols;
      result.trace = output.trace;
    }
    std::int64_t first_wrong = -1;
    std::int64_t first_twice = -1;
    for (std::int64_t i = 0; i < expected.size(); ++i) {
      const bool right =
          expected.type == ElementType::kFloat32
              ? close_enough(output.values.float_at(i), expected.float_at(i), exercise.tolerance)
              : output.values.int_at(i) == expected.int_at(i);
      if (!right) {
        if (first_wrong < 0) first_wrong = i;
        if (drawn && result.wrong_elements.size() < kMostWrongElementsKept) {
          result.wrong_elements.push_back(i);
        }
      }
      if (first_twice < 0 && !exercise.shared_outputs && !output.trace.empty() &&
          output.trace[static_cast<std::size_t>(i)].writes > 1) {
        first_twice = i;
      }
    }
    if (result.message.empty() && first_wrong >= 0) {
      std::int64_t count = 0;
      for (std::int64_t i = first_wrong; i < expected.size(); ++i) {
        const bool right =
            expected.type == ElementType::kFloat32
                ? close_enough(output.values.float_at(i), expected.float_at(i), exercise.tolerance)
                : output.values.int_at(i) == expected.int_at(i);
        count += right ? 0 : 1;
      }
      std::string message = element_name(p, expected, first_wrong) + " is " +
                            output.values.format_at(first_wrong) + ", expected " +
                            expected.format_at(first_wrong);
      if (!output.trace.empty()) {
        const TraceRecord& record = output.trace[static_cast<std::size_t>(first_wrong)];
        message += record.writes == 0 ? " (no thread wrote it)"
                                      : " (written by " + writer_of(record, check.launch) + ")";
      }
      result.message = message + "; " + std::to_string(count) + " of " +
                       std::to_string(expected.size()) + " elements of " + p.name + " are wrong";
    }
    if (result.message.empty() && first_twice >= 0) {
      const TraceRecord& record = output.trace[static_cast<std::size_t>(first_twice)];
      result.message = element_name(p, expected, first_twice) + " was written by " +
                       std::to_string(record.writes) +
                       " threads (the last: " + writer_of(record, check.launch) +
                       "); each element should have exactly one writer";
    }
  }
  // An access outside an array comes first: it explains the wrong values it may have caused.
  if (fault != nullptr && fault->hit != 0 && fault->parameter < exercise.parameters.size()) {
    result.message = fault_message(exercise, *fault, check.launch);
    result.line = static_cast<int>(fault->line);
  }
  result.passed = result.message.empty();
  return result;
}

CheckVerdict check_submission(const Exercise& exercise, std::string_view given_source,
                              const LabOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  auto finish = [&](CheckVerdict verdict) {
    verdict.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return verdict;
  };
  CheckVerdict verdict;
  const Result<std::string> text = normalized_source(given_source, options.source_name);
  if (!text) {
    verdict.outcome = Outcome::kCompileError;
    verdict.reason = text.error().message;
    return finish(std::move(verdict));
  }
  const std::string_view source = *text;
  // The worker refuses it too (it is the sandbox's rule); here the message names the file.
  if (std::optional<std::string> refused = source_policy_violation(source, options.source_name)) {
    verdict.outcome = Outcome::kCompileError;
    verdict.reason = *refused;
    verdict.compiler_log = *refused;
    return finish(std::move(verdict));
  }
  // Checked here as well as by the CLI: the cases divide by the block, and the Lab tab or a
  // script may pass one too.
  if (options.block) {
    if (Status valid = validate_block(exercise, *options.block); !valid) {
      verdict.outcome = Outcome::kFailed;
      verdict.reason = valid.message();
      return finish(std::move(verdict));
    }
  }
  if (options.grid) {
    if (Status valid = validate_grid(*options.grid); !valid) {
      verdict.outcome = Outcome::kFailed;
      verdict.reason = valid.message();
      return finish(std::move(verdict));
    }
  }
  Result<KernelSignature> signature = find_kernel(source, exercise.kernel_name);
  Status matches = signature ? match_parameters(*signature, exercise) : signature.error();
  if (!matches) {
    verdict.outcome = Outcome::kCompileError;
    verdict.reason = matches.message();
    return finish(std::move(verdict));
  }
  if (options.block && exercise.block_is_fixed && !(*options.block == exercise.default_block)) {
    verdict.outcome = Outcome::kFailed;
    verdict.reason = "this exercise launches blocks of " + to_string(exercise.default_block) +
                     " threads; its block size is not yours to choose";
    return finish(std::move(verdict));
  }

  WorkerSession worker(options);
  CompileRequest compile;
  compile.backend = options.backend;
  compile.source = std::string(source);
  compile.kernel_name = exercise.kernel_name;
  Result<std::string> cache = worker.cache_dir();
  if (!cache) return finish(unavailable("the Lab's worker: " + cache.error().message));
  compile.cache_dir = *cache;
  std::string compile_line_sent = encode(compile);
  Result<std::string> compile_line = worker.exchange(compile_line_sent, options.compile_timeout);
  if (!compile_line)
    return finish(unavailable("the Lab's worker: " + compile_line.error().message));
  Result<CompileReply> compiled = decode_compile_reply(*compile_line);
  if (!compiled) return finish(unavailable(compiled.error().message));
  verdict.device = compiled->device;
  verdict.compiler_log = with_learner_file_name(compiled->log, options.source_name);
  verdict.compiled_from_cache = compiled->from_cache;
  if (!compiled->ok) {
    const bool learners_fault = !compiled->log.empty();
    verdict.outcome = learners_fault ? Outcome::kCompileError : Outcome::kUnavailable;
    verdict.reason = with_learner_file_name(compiled->error, options.source_name);
    return finish(std::move(verdict));
  }

  // The learner's, kept for the memory recording (the timing below swaps in the solution's).
  const KernelSignature learner_signature = *signature;
  const Dim3 block = options.block.value_or(exercise.default_block);
  std::vector<CheckCase> cases = exercise.make_cases(options.seed, block);
  if (options.grid) {
    for (CheckCase& c : cases) c.launch.grid = *options.grid;
  }
  if (options.run_only && !cases.empty()) {
    CheckCase example = std::move(cases[example_case(exercise, cases)]);
    cases.clear();
    cases.push_back(std::move(example));
  }
  verdict.run_only = options.run_only;
  const std::vector<SourceRule> broken =
      options.run_only ? std::vector<SourceRule>{} : broken_rules(source, exercise.rules);

  // Runs one case; the judged result, or a fault that ends the check.
  auto run_case = [&](const CheckCase& check, bool traced, int repeats, std::vector<double>* times,
                      const std::string& library = {}) -> Result<CaseResult> {
    const RegionLayout layout = lay_out(exercise, *signature, check, traced);
    Result<SharedRegion> region = Error{ErrorKind::kIoError, "no region"};
    RunRequest request;
    request.traced = traced;
    request.region_bytes = layout.bytes;
    request.fault_offset = layout.fault_offset;
    request.fault_bytes = layout.fault_bytes;
    request.arguments = layout.arguments;
    request.grid = check.launch.grid;
    request.block = check.launch.block;
    request.dynamic_shared_bytes = check.launch.dynamic_shared_bytes;
    request.timed_repeats = repeats;
    request.library = library;
    const auto timeout = options.timeout * (1 + repeats);
    // The emulator's kernel is CPU work: timed on the worker's CPU clock, so that a busy machine
    // does not fail a correct kernel. A GPU kernel's time is wall time.
    const auto basis = options.backend == LabBackend::kEmulator ? WorkerProcess::TimeBasis::kCpu
                                                                : WorkerProcess::TimeBasis::kWall;
    Result<std::string> line = Error{ErrorKind::kIoError, "not run"};
    // A timeout is tried once more in a fresh worker (on a fresh copy of the inputs) before it is
    // a verdict: one slow moment of the machine must not fail a correct kernel.
    for (int attempt = 0; attempt < 2; ++attempt) {
      region = SharedRegion::create(layout.bytes);
      if (!region) return region.error();
      fill(exercise, region->data(), layout, check);
      line = worker.exchange(encode(request), timeout, basis, region->fd());
      if (line || line.error().kind != ErrorKind::kTooSlow || attempt == 1) break;
      if (Status again = worker.restart_compiled(compile_line_sent, options.compile_timeout);
          !again) {
        break;
      }
    }
    if (!line && line.error().kind == ErrorKind::kTooSlow) {
      const std::uint64_t threads =
          saturating_multiply(check.launch.grid.volume(), check.launch.block.volume());
      return Error{ErrorKind::kTooSlow,
                   check.label + ": timed out twice on the " +
                       (options.backend == LabBackend::kEmulator ? "emulator" : "GPU") + " with " +
                       grouped(threads) + " threads (grid " + to_string(check.launch.grid) +
                       ", block " + to_string(check.launch.block) + "): " + line.error().message};
    }
    if (!line) {
      return Error{line.error().kind, check.label + ": " + line.error().message};
    }
    Result<RunReply> reply = decode_run_reply(*line);
    if (!reply) return reply.error();
    if (!reply->ok) {
      return Error{ErrorKind::kCudaError, check.label + ": " + reply->error + " in kernel '" +
                                              exercise.kernel_name + "' with grid " +
                                              to_string(check.launch.grid) + ", block " +
                                              to_string(check.launch.block)};
    }
    if (times) *times = reply->milliseconds;
    WireFault fault{};
    std::memcpy(&fault, region->data() + layout.fault_offset, sizeof fault);
    CaseResult judged =
        judge_case(exercise, check, returned(exercise, region->data(), layout, check),
                   traced ? &fault : nullptr);
    if (traced && fault.hit != 0) {
      judged.threads_outside = flagged_threads(region->data() + layout.fault_offset, layout);
    }
    // Right values, but memory it was not given written: past an array's end (plain pointers,
    // where no view stops it) or an input.
    if (judged.passed) {
      if (std::optional<std::string> wrote =
              guard_violation(exercise, region->data(), layout, check)) {
        judged.passed = false;
        judged.message = *wrote;
      }
    }
    // A race is wrong even where this run's values came out right: the next run may differ.
    // Where they came out wrong, the race comes first: it names the two threads and says why.
    if (!reply->finding.empty()) {
      judged.message =
          judged.passed ? reply->finding : reply->finding + ". In this run: " + judged.message;
      judged.passed = false;
    }
    return judged;
  };

  std::size_t passed = 0;
  for (const CheckCase& check : cases) {
    Result<CaseResult> result = run_case(check, true, 0, nullptr);
    if (!result) {
      verdict.outcome = Outcome::kFailed;
      verdict.reason = result.error().message;
      verdict.timed_out = result.error().kind == ErrorKind::kTooSlow;
      verdict.crashed = result.error().kind == ErrorKind::kCudaStickyError;
      verdict.printed = worker.take_printed();
      return finish(std::move(verdict));
    }
    passed += result->passed ? 1 : 0;
    verdict.cases.push_back(std::move(*result));
  }
  verdict.printed = worker.take_printed();
  const auto failed_case = std::find_if(verdict.cases.begin(), verdict.cases.end(),
                                        [](const CaseResult& c) { return !c.passed; });
  if (failed_case != verdict.cases.end()) {
    verdict.outcome = Outcome::kFailed;
    verdict.reason = options.run_only
                         ? ran_reason(cases.front(), failed_case->message)
                         : failed_case->label + " " + launch_text(failed_case->launch) + ": " +
                               failed_case->message;
    return finish(std::move(verdict));
  }
  if (!broken.empty()) {
    verdict.outcome = Outcome::kFailed;
    verdict.reason = std::string("the results are right, but the exercise ") + describe(broken[0]);
    return finish(std::move(verdict));
  }

  // Every case passed: the plain (untraced) build must agree on the largest case, and is timed
  // (the worker runs it once untimed first). The emulator's times say little about a GPU and each
  // repeat costs the learner real seconds: a few timed runs there, enough to show their spread.
  const int repeats = options.backend == LabBackend::kEmulator
                          ? std::min(options.timed_repeats, kEmulatorTimedRepeats)
                          : options.timed_repeats;
  if (repeats > 0 && !cases.empty()) {
    const CheckCase& largest = cases.back();
    std::vector<double> times;
    Result<CaseResult> untraced = run_case(largest, false, repeats, &times);
    if (!untraced || !untraced->passed) {
      verdict.outcome = Outcome::kFailed;
      verdict.timed_out = !untraced && untraced.error().kind == ErrorKind::kTooSlow;
      verdict.crashed = !untraced && untraced.error().kind == ErrorKind::kCudaStickyError;
      verdict.reason = !untraced ? untraced.error().message
                                 : largest.label + " (untraced build): " + untraced->message;
      return finish(std::move(verdict));
    }
    std::sort(times.begin(), times.end());
    if (!times.empty()) verdict.kernel_ms = times[times.size() / 2];
    verdict.kernel_runs_ms = times;
    verdict.timed_case = largest.label;
    // The library's routine on the same buffers, in the same worker (GPU only; a backend without
    // it says so and the figure stays 0). A Run times only the learner's kernel.
    if (!exercise.library_reference.empty() && options.backend == LabBackend::kGpu &&
        !options.run_only) {
      std::vector<double> library_times;
      if (run_case(largest, false, repeats, &library_times, exercise.library_reference) &&
          !library_times.empty()) {
        std::sort(library_times.begin(), library_times.end());
        verdict.library_ms = library_times[library_times.size() / 2];
        verdict.library = exercise.library_reference;
      }
    }
    // The memory ceiling, in the same worker: the device copying this case's least traffic.
    verdict.moved_bytes = least_traffic_bytes(exercise, largest);
    verdict.flops = largest.flops;
    if (verdict.moved_bytes > 0) {
      CopyRequest copy;
      copy.bytes = verdict.moved_bytes;
      copy.repeats = std::max(repeats, 3);
      Result<std::string> line =
          worker.exchange(encode(copy), options.timeout * (1 + copy.repeats));
      Result<RunReply> reply = line ? decode_run_reply(*line) : Result<RunReply>(line.error());
      if (reply && reply->ok && !reply->milliseconds.empty()) {
        // The best repeat: a ceiling is the best the device did.
        verdict.copy_ms = *std::min_element(reply->milliseconds.begin(), reply->milliseconds.end());
        verdict.copy_ceiling = options.backend == LabBackend::kGpu ? "device-to-device copy"
                                                                   : "memcpy on one CPU thread";
      }
    }
    // Ours, in the same worker and the same run, so that the two times compare.
    if (options.compare_with_solution && !options.run_only && source != exercise.solution) {
      compile.source = exercise.solution;
      Result<KernelSignature> reference = find_kernel(exercise.solution, exercise.kernel_name);
      compile_line_sent = encode(compile);
      Result<std::string> line = worker.exchange(compile_line_sent, options.compile_timeout);
      Result<CompileReply> reply =
          line ? decode_compile_reply(*line) : Result<CompileReply>(line.error());
      if (reference && reply && reply->ok) {
        signature = std::move(reference);
        std::vector<double> reference_times;
        if (run_case(largest, false, repeats, &reference_times) && !reference_times.empty()) {
          std::sort(reference_times.begin(), reference_times.end());
          verdict.solution_ms = reference_times[reference_times.size() / 2];
          verdict.solution_runs_ms = reference_times;
        }
      }
    }
  }
  if (options.inspect_compiled && !options.run_only && !cases.empty()) {
    verdict.compiled =
        compiled_feedback_of(exercise, source, options, verdict.device, cases.back().launch);
  }
  if (options.record_memory && !cases.empty()) {
    const CheckCase& recorded =
        options.run_only ? cases.front() : cases[example_case(exercise, cases)];
    verdict.memory = record_memory_findings(exercise, source, learner_signature, recorded, options);
  }
  verdict.outcome = Outcome::kPassed;
  verdict.reason = options.run_only ? ran_reason(cases.front(), "every output is right")
                                    : "passed " + std::to_string(passed) + " of " +
                                          std::to_string(cases.size()) + " hidden checks";
  return finish(std::move(verdict));
}

std::string launch_text(const LaunchShape& launch) {
  std::string text = "<<<" + to_string(launch.grid) + ", " + to_string(launch.block);
  if (launch.dynamic_shared_bytes > 0) text += ", " + std::to_string(launch.dynamic_shared_bytes);
  return text + ">>>";
}

std::size_t example_case(const Exercise& exercise, const std::vector<CheckCase>& cases) {
  const std::vector<std::size_t> outputs = output_parameters(exercise);
  std::size_t best = 0;
  std::int64_t best_elements = -1;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (outputs.empty() || outputs.front() >= cases[i].arguments.size()) break;
    const std::int64_t elements = cases[i].arguments[outputs.front()].array.size();
    if (elements <= 65536 && elements > best_elements) {
      best = i;
      best_elements = elements;
    }
  }
  return best;
}

}  // namespace tl::lab
