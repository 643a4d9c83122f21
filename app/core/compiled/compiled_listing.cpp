#include "compiled_listing.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <memory>

namespace tl::compiled {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// Calls `each` with every line of `text`, without its newline.
template <typename Each>
void for_each_line(std::string_view text, Each&& each) {
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    each(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
}

std::optional<int> number(std::string_view text) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end == text.data()) return std::nullopt;
  return value;
}

int file_index(std::vector<std::string>& files, std::string_view path) {
  const auto found = std::find(files.begin(), files.end(), path);
  if (found != files.end()) return static_cast<int>(found - files.begin());
  files.emplace_back(path);
  return static_cast<int>(files.size()) - 1;
}

std::string_view base_opcode(std::string_view opcode) {
  return opcode.substr(0, opcode.find('.'));
}

bool names_file(std::string_view path, std::string_view file) {
  if (path == file) return true;
  return path.size() > file.size() && path.ends_with(file) &&
         path[path.size() - file.size() - 1] == '/';
}

struct Gloss {
  std::string_view opcode;
  std::string_view text;
};

// Written for ThreadLab; the architectures are those the instruction exists on, as the CUDA
// binary utilities' instruction-set tables list them.
constexpr Gloss kGlosses[] = {
    {"LDG",
     "Load from global memory (device memory, through L1 and L2). .128 loads 16 bytes a "
     "thread: one float4. All NVIDIA GPUs."},
    {"STG", "Store to global memory. .128 stores 16 bytes a thread. All NVIDIA GPUs."},
    {"LDS",
     "Load from shared memory: the block's on-chip memory, in 32 banks of 4-byte words. "
     "All NVIDIA GPUs."},
    {"STS", "Store to shared memory. All NVIDIA GPUs."},
    {"LDSM",
     "ldmatrix: a warp loads 8×8 matrix tiles from shared memory straight into the "
     "fragment layout tensor-core instructions read. Turing (sm_75) and newer."},
    {"LDL",
     "Load from local memory: per-thread memory in device memory, cached in L1 and L2. "
     "With no local array in the source, this reads back a register the compiler "
     "spilled: a trip through the caches where a register read would have done."},
    {"STL",
     "Store to local memory: with no local array in the source, a register spilled because "
     "the kernel needs more than it may use (see registers per thread)."},
    {"LD", "Generic load: the address space (global, shared or local) is decided at run time."},
    {"ST", "Generic store: the address space is decided at run time."},
    {"LDGSTS",
     "cp.async: copy from global to shared memory without passing through registers, "
     "while the threads go on computing. Ampere (sm_80) and newer."},
    {"LDGDEPBAR",
     "Marks a group of cp.async copies, so a later wait can name it. Ampere and newer."},
    {"DEPBAR", "Waits until earlier asynchronous copies (or other scoreboarded work) are done."},
    {"UTMALDG",
     "TMA: the Tensor Memory Accelerator copies a whole tile of a tensor from global "
     "to shared memory, started by one thread. Hopper (sm_90) and newer."},
    {"UBLKCP",
     "A bulk asynchronous copy between global and shared memory (TMA). Hopper and newer."},
    {"LDC",
     "Load from constant memory: kernel parameters and __constant__ data, cached and "
     "broadcast. All NVIDIA GPUs."},
    {"ULDC",
     "Load from constant memory into a uniform register: one value for the whole warp. "
     "Turing and newer."},
    {"BAR",
     "BAR.SYNC is __syncthreads(): every thread of the block waits here until all have "
     "arrived. All NVIDIA GPUs."},
    {"SYNCS",
     "An mbarrier operation: arrive on or wait for a barrier in shared memory (the "
     "asynchronous copies' completion). Hopper and newer."},
    {"WARPSYNC",
     "__syncwarp(): the threads named by the mask meet before going on. Volta "
     "(sm_70) and newer."},
    {"SHFL",
     "Warp shuffle (__shfl_sync and friends): each thread reads a register of another "
     "thread in its warp, without memory. Kepler and newer."},
    {"VOTE",
     "Warp vote (__ballot_sync, __any_sync, __all_sync): one bit from each thread of "
     "the warp, combined."},
    {"REDUX",
     "A warp-wide reduction of integers in one instruction (__reduce_add_sync ...). "
     "Ampere and newer."},
    {"ATOM", "Atomic read-modify-write (atomicAdd ...) whose old value is used. All NVIDIA GPUs."},
    {"ATOMS", "Atomic on shared memory. All NVIDIA GPUs."},
    {"ATOMG", "Atomic on global memory, returning the old value."},
    {"RED",
     "Atomic reduction whose old value is not used (atomicAdd with the result ignored): "
     "no value comes back, so the thread need not wait for it."},
    {"HMMA",
     "A tensor-core matrix multiply-add: one instruction for a small matrix tile of the "
     "warp. FP16 inputs from Volta (sm_70), BF16 and TF32 from Ampere (sm_80)."},
    {"HGMMA",
     "wgmma: a warpgroup (4 warps) multiplies tiles read from shared memory on the "
     "tensor cores, asynchronously. Hopper (sm_90a) only."},
    {"IMMA", "A tensor-core matrix multiply-add on 8-bit or 4-bit integers. Turing and newer."},
    {"DMMA",
     "A tensor-core matrix multiply-add in FP64. Compute capability 8.0 and newer; fast "
     "only on the data-centre GPUs (A100, H100, H200)."},
    {"FFMA",
     "Fused multiply-add in FP32: a·b + c with one rounding; counts as 2 floating-point "
     "operations."},
    {"FMUL", "FP32 multiply."},
    {"FADD", "FP32 add."},
    {"HFMA2", "Two FP16 (or BF16) fused multiply-adds at once, on a pair packed in one register."},
    {"DFMA", "Fused multiply-add in FP64."},
    {"MUFU",
     "The special-function unit: approximate sin, cos, 2^x (EX2), log2, 1/x (RCP), "
     "1/√x (RSQ). 16 results a clock per SM from Volta to Hopper, against 64 FP32 "
     "operations (Volta, Turing, A100) or 128 (consumer Ampere, Ada, Hopper): a quarter to an "
     "eighth of the FP32 rate. __expf becomes EX2."},
    {"IMAD", "Integer multiply-add: the index arithmetic, blockIdx.x * blockDim.x + threadIdx.x."},
    {"S2R", "Reads a special register: threadIdx (SR_TID), blockIdx (SR_CTAID), the SM's id."},
    {"S2UR", "Reads a special register into a uniform register (the same for the whole warp)."},
    {"ISETP", "Integer compare, setting a predicate: the `if (i < n)` guard."},
    {"FSETP", "Floating-point compare, setting a predicate."},
    {"BRA", "Branch. A predicated branch that threads of one warp take differently diverges."},
    {"EXIT", "The thread ends. @P0 EXIT is the guard's early return."},
    {"BSSY", "Marks where diverged threads of a warp meet again (with BSYNC). Volta and newer."},
    {"BSYNC", "Diverged threads of a warp wait for each other here (the reconvergence point)."},
    {"CS2R", "Reads a special register pair, such as the clock (clock64())."},
    {"NOP", "No operation: padding."},
};

}  // namespace

InstructionKind classify_sass(std::string_view opcode) {
  const std::string_view base = base_opcode(opcode);
  struct Entry {
    std::string_view opcode;
    InstructionKind kind;
  };
  static constexpr Entry kKinds[] = {
      {"LDG", InstructionKind::kGlobalLoad},    {"STG", InstructionKind::kGlobalStore},
      {"LDS", InstructionKind::kSharedLoad},    {"LDSM", InstructionKind::kSharedLoad},
      {"STS", InstructionKind::kSharedStore},   {"LDL", InstructionKind::kLocalLoad},
      {"STL", InstructionKind::kLocalStore},    {"LD", InstructionKind::kGenericMemory},
      {"ST", InstructionKind::kGenericMemory},  {"LDGSTS", InstructionKind::kAsyncCopy},
      {"UTMALDG", InstructionKind::kAsyncCopy}, {"UTMASTG", InstructionKind::kAsyncCopy},
      {"UBLKCP", InstructionKind::kAsyncCopy},  {"LDC", InstructionKind::kConstantLoad},
      {"ULDC", InstructionKind::kConstantLoad}, {"BAR", InstructionKind::kBarrier},
      {"SYNCS", InstructionKind::kBarrier},     {"WARPSYNC", InstructionKind::kBarrier},
      {"SHFL", InstructionKind::kShuffle},      {"VOTE", InstructionKind::kVote},
      {"VOTEU", InstructionKind::kVote},        {"MATCH", InstructionKind::kVote},
      {"REDUX", InstructionKind::kVote},        {"ATOM", InstructionKind::kAtomic},
      {"ATOMS", InstructionKind::kAtomic},      {"ATOMG", InstructionKind::kAtomic},
      {"RED", InstructionKind::kAtomic},        {"REDG", InstructionKind::kAtomic},
      {"HMMA", InstructionKind::kTensorCore},   {"HGMMA", InstructionKind::kTensorCore},
      {"IMMA", InstructionKind::kTensorCore},   {"IGMMA", InstructionKind::kTensorCore},
      {"DMMA", InstructionKind::kTensorCore},   {"BMMA", InstructionKind::kTensorCore},
      {"QGMMA", InstructionKind::kTensorCore},  {"MUFU", InstructionKind::kSpecialFunction},
      {"BRA", InstructionKind::kBranch},        {"BRX", InstructionKind::kBranch},
      {"JMP", InstructionKind::kBranch},        {"EXIT", InstructionKind::kBranch},
      {"RET", InstructionKind::kBranch},        {"CALL", InstructionKind::kBranch},
  };
  for (const Entry& e : kKinds) {
    if (e.opcode == base) return e.kind;
  }
  return InstructionKind::kOther;
}

std::string_view kind_name(InstructionKind kind) {
  switch (kind) {
    case InstructionKind::kGlobalLoad:
      return "global load";
    case InstructionKind::kGlobalStore:
      return "global store";
    case InstructionKind::kSharedLoad:
      return "shared load";
    case InstructionKind::kSharedStore:
      return "shared store";
    case InstructionKind::kLocalLoad:
      return "local load (spill)";
    case InstructionKind::kLocalStore:
      return "local store (spill)";
    case InstructionKind::kGenericMemory:
      return "generic load/store";
    case InstructionKind::kAsyncCopy:
      return "asynchronous copy";
    case InstructionKind::kConstantLoad:
      return "constant load";
    case InstructionKind::kBarrier:
      return "barrier";
    case InstructionKind::kShuffle:
      return "shuffle";
    case InstructionKind::kVote:
      return "vote";
    case InstructionKind::kAtomic:
      return "atomic";
    case InstructionKind::kTensorCore:
      return "tensor core";
    case InstructionKind::kSpecialFunction:
      return "special function";
    case InstructionKind::kBranch:
      return "branch";
    case InstructionKind::kOther:
      break;
  }
  return "other";
}

bool is_memory(InstructionKind kind) {
  switch (kind) {
    case InstructionKind::kGlobalLoad:
    case InstructionKind::kGlobalStore:
    case InstructionKind::kSharedLoad:
    case InstructionKind::kSharedStore:
    case InstructionKind::kLocalLoad:
    case InstructionKind::kLocalStore:
    case InstructionKind::kGenericMemory:
    case InstructionKind::kAsyncCopy:
    case InstructionKind::kAtomic:
      return true;
    default:
      return false;
  }
}

std::string_view gloss(std::string_view opcode) {
  const std::string_view base = base_opcode(opcode);
  for (const Gloss& g : kGlosses) {
    if (g.opcode == base) return g.text;
  }
  return {};
}

const SassFunction* SassListing::find(std::string_view symbol) const {
  for (const SassFunction& f : functions) {
    if (f.symbol == symbol) return &f;
  }
  return nullptr;
}

SassListing parse_sass(std::string_view text) {
  SassListing listing;
  SassFunction* function = nullptr;
  int file = -1;
  int line = 0;
  for_each_line(text, [&](std::string_view raw) {
    const std::string_view s = trim(raw);
    // ".text.<symbol>:" opens a function's code.
    if (raw.starts_with(".text.") && s.ends_with(':')) {
      listing.functions.push_back({std::string(s.substr(6, s.size() - 7)), {}});
      function = &listing.functions.back();
      file = -1;
      line = 0;
      return;
    }
    // //## File "lessons/03_2d_blocks/kernels/matrix_add.cuh", line 34
    if (s.starts_with("//## File \"")) {
      const std::size_t close = s.find('"', 11);
      const std::size_t at = s.find(", line ", close);
      if (close == std::string_view::npos || at == std::string_view::npos) return;
      file = file_index(listing.files, s.substr(11, close - 11));
      line = number(s.substr(at + 7)).value_or(0);
      return;
    }
    // /*01e0*/                   LDG.E R7, desc[UR6][R6.64] ;
    if (function == nullptr || !s.starts_with("/*")) return;
    const std::size_t close = s.find("*/");
    if (close == std::string_view::npos) return;
    SassInstruction instruction;
    const std::string_view hex = s.substr(2, close - 2);
    unsigned value = 0;
    if (std::from_chars(hex.data(), hex.data() + hex.size(), value, 16).ec != std::errc{}) return;
    instruction.offset = value;
    std::string_view rest = trim(s.substr(close + 2));
    if (rest.ends_with(';')) rest = trim(rest.substr(0, rest.size() - 1));
    if (rest.empty()) return;
    instruction.text = std::string(rest);
    if (rest.front() == '@') {
      const std::size_t space = rest.find(' ');
      instruction.predicate = std::string(rest.substr(0, space));
      rest = space == std::string_view::npos ? std::string_view() : trim(rest.substr(space));
    }
    instruction.opcode = std::string(rest.substr(0, rest.find(' ')));
    instruction.kind = classify_sass(instruction.opcode);
    instruction.file = file;
    instruction.line = line;
    function->instructions.push_back(std::move(instruction));
  });
  return listing;
}

const PtxFunction* PtxListing::find(std::string_view symbol) const {
  for (const PtxFunction& f : functions) {
    if (f.symbol == symbol) return &f;
  }
  return nullptr;
}

PtxListing parse_ptx(std::string_view text) {
  PtxListing listing;
  std::vector<std::pair<int, std::string>> numbered_files;
  PtxFunction* function = nullptr;
  int depth = 0;
  bool body_started = false;
  int file_number = 0;
  int line = 0;
  for_each_line(text, [&](std::string_view raw) {
    const std::string_view s = trim(raw);
    if (s.starts_with(".file")) {
      // .file 1 "lessons/03_2d_blocks/kernels/matrix_add.cuh"[, timestamp, size]
      std::string_view rest = trim(s.substr(5));
      const auto n = number(rest);
      const std::size_t open = rest.find('"');
      const std::size_t close = open == std::string_view::npos ? open : rest.find('"', open + 1);
      if (n && close != std::string_view::npos) {
        numbered_files.emplace_back(*n, std::string(rest.substr(open + 1, close - open - 1)));
      }
      return;
    }
    if (function == nullptr) {
      const std::size_t entry = s.find(".entry ");
      const std::size_t func = s.find(".func ");
      if (entry == std::string_view::npos && func == std::string_view::npos) return;
      // A declaration (`.extern .func (...) vprintf` and its parameters, then `;`), not code.
      if (s.ends_with(';') || s.find(".extern") != std::string_view::npos) return;
      std::string_view rest =
          trim(s.substr(entry != std::string_view::npos ? entry + 7 : func + 6));
      if (rest.starts_with('(')) {  // a .func's return value: `.func (.param .b32 r) name(`
        const std::size_t close = rest.find(')');
        rest = close == std::string_view::npos ? std::string_view() : trim(rest.substr(close + 1));
      }
      const std::size_t end = rest.find_first_of("( \t");
      listing.functions.push_back(
          {std::string(rest.substr(0, end)), entry != std::string_view::npos, {}});
      function = &listing.functions.back();
      depth = 0;
      body_started = false;
      file_number = 0;
      line = 0;
    }
    if (s.starts_with(".loc")) {
      std::string_view rest = trim(s.substr(4));
      file_number = number(rest).value_or(0);
      const std::size_t space = rest.find_first_of(" \t");
      line = space == std::string_view::npos ? 0 : number(trim(rest.substr(space))).value_or(0);
      return;
    }
    function->lines.push_back({std::string(raw), file_number > 0 ? file_number - 1 : -1, line});
    for (const char c : s) {
      if (c == '{') {
        ++depth;
        body_started = true;
      } else if (c == '}') {
        --depth;
      }
    }
    if (body_started && depth <= 0) function = nullptr;
  });
  for (const auto& [n, path] : numbered_files) {
    if (n <= 0) continue;
    if (listing.files.size() < static_cast<std::size_t>(n)) listing.files.resize(n);
    listing.files[n - 1] = path;
  }
  // A `.loc` naming a file the listing never declared points nowhere.
  for (PtxFunction& f : listing.functions) {
    for (PtxLine& l : f.lines) {
      if (l.file >= static_cast<int>(listing.files.size())) l.file = -1;
    }
  }
  return listing;
}

std::vector<ResourceUsage> parse_resource_usage(std::string_view text, std::string_view arch) {
  constexpr int kReservedSharedBytes = 1024;
  int compute_capability = 0;
  if (arch.starts_with("sm_")) {
    std::string_view digits = arch.substr(3);
    while (!digits.empty() && !std::isdigit(static_cast<unsigned char>(digits.back()))) {
      digits.remove_suffix(1);  // sm_90a, sm_100f
    }
    compute_capability = number(digits).value_or(0);
  }
  const bool counts_reserve = compute_capability >= 90;
  std::vector<ResourceUsage> usages;
  ResourceUsage* current = nullptr;
  for_each_line(text, [&](std::string_view raw) {
    const std::string_view s = trim(raw);
    if (s.starts_with("Function ") && s.ends_with(':')) {
      usages.push_back({});
      current = &usages.back();
      current->symbol = std::string(s.substr(9, s.size() - 10));
      return;
    }
    if (current == nullptr || !s.starts_with("REG:")) return;
    std::string_view rest = s;
    while (!rest.empty()) {
      const std::size_t space = rest.find(' ');
      const std::string_view token = rest.substr(0, space);
      rest = space == std::string_view::npos ? std::string_view() : trim(rest.substr(space));
      const std::size_t colon = token.rfind(':');
      if (colon == std::string_view::npos) continue;
      const std::string_view key = token.substr(0, colon);
      const int value = number(token.substr(colon + 1)).value_or(0);
      if (key == "REG") current->registers = value;
      if (key == "STACK") current->stack_bytes = value;
      if (key == "SHARED") current->shared_bytes = value;
      if (key == "LOCAL") current->local_bytes = value;
      if (key == "CONSTANT[0]") current->constant_bytes = value;
    }
    if (counts_reserve && current->shared_bytes >= kReservedSharedBytes) {
      current->shared_bytes -= kReservedSharedBytes;
      current->reserved_shared_bytes = kReservedSharedBytes;
    }
    current = nullptr;
  });
  return usages;
}

std::vector<PtxasReport> parse_ptxas_report(std::string_view log) {
  std::vector<PtxasReport> reports;
  // The figure in front of `unit` in `s` ("444 bytes spill stores" → 444), if the unit is there.
  const auto figure_before = [](std::string_view s, std::string_view unit) -> std::optional<int> {
    const std::size_t at = s.find(unit);
    if (at == std::string_view::npos) return std::nullopt;
    std::size_t start = at;
    while (start > 0 && s[start - 1] == ' ') --start;
    std::size_t digits = start;
    while (digits > 0 && s[digits - 1] >= '0' && s[digits - 1] <= '9') --digits;
    if (digits == start) return std::nullopt;
    return number(s.substr(digits, start - digits));
  };
  PtxasReport* current = nullptr;
  for_each_line(log, [&](std::string_view raw) {
    const std::string_view s = trim(raw);
    if (!s.starts_with("ptxas")) {
      // nvcc indents the properties line without the `ptxas` prefix that NVRTC gives it.
      if (current == nullptr || s.find("bytes stack frame") == std::string_view::npos) return;
    }
    constexpr std::string_view kCompiling = "Compiling entry function '";
    if (const std::size_t at = s.find(kCompiling); at != std::string_view::npos) {
      const std::string_view rest = s.substr(at + kCompiling.size());
      const std::size_t quote = rest.find('\'');
      if (quote == std::string_view::npos) return;
      reports.push_back({});
      current = &reports.back();
      current->symbol = std::string(rest.substr(0, quote));
      constexpr std::string_view kFor = "for '";
      if (const std::size_t f = rest.find(kFor, quote); f != std::string_view::npos) {
        const std::string_view arch = rest.substr(f + kFor.size());
        current->arch = std::string(arch.substr(0, arch.find('\'')));
      }
      return;
    }
    if (current == nullptr) return;
    if (s.find("bytes stack frame") != std::string_view::npos) {
      current->stack_bytes = figure_before(s, "bytes stack frame").value_or(0);
      current->spill_store_bytes = figure_before(s, "bytes spill stores").value_or(0);
      current->spill_load_bytes = figure_before(s, "bytes spill loads").value_or(0);
      return;
    }
    if (s.find("Used ") != std::string_view::npos &&
        s.find(" registers") != std::string_view::npos) {
      current->registers = figure_before(s, "registers").value_or(0);
      current->barriers = figure_before(s, "barriers").value_or(0);
      current->shared_bytes = figure_before(s, "bytes smem").value_or(0);
      current->constant_bytes = figure_before(s, "bytes cmem[0]").value_or(0);
    }
  });
  return reports;
}

SassSummary summarize(const SassFunction& function) {
  SassSummary summary;
  for (const SassInstruction& i : function.instructions) {
    // `@!PT` never runs: the compiler's padding (`@!PT LDS RZ, [RZ]`), not work.
    if (i.predicate == "@!PT") continue;
    ++summary.instructions;
    ++summary.counts[static_cast<int>(i.kind)];
    const std::string_view op = i.opcode;
    if (op.starts_with("FFMA") || op.starts_with("DFMA") || op.starts_with("HFMA2")) {
      ++summary.multiply_adds;
    }
    if (i.kind == InstructionKind::kGlobalLoad) {
      const int bits = global_access_bits(op);
      if (bits >= 128) {
        ++summary.global_loads_128;
      } else if (bits == 64) {
        ++summary.global_loads_64;
      } else if (bits == 32) {
        ++summary.global_loads_32;
      } else {
        ++summary.global_loads_narrower;
      }
    }
  }
  return summary;
}

int global_access_bits(std::string_view opcode) {
  if (!opcode.starts_with("LDG") && !opcode.starts_with("STG")) return 0;
  // The modifiers after the first dot: a width (.128, .64, .U8, .S16 ...) among cache and
  // ordering hints (.E, .CONSTANT, .STRONG.GPU, .LTC128B ...). No width means 32 bits.
  int bits = 32;
  std::size_t at = opcode.find('.');
  while (at != std::string_view::npos) {
    const std::size_t next = opcode.find('.', at + 1);
    const std::string_view part = opcode.substr(
        at + 1, next == std::string_view::npos ? std::string_view::npos : next - at - 1);
    if (part == "128") bits = 128;
    if (part == "64") bits = 64;
    if (part == "U8" || part == "S8") bits = 8;
    if (part == "U16" || part == "S16") bits = 16;
    at = next;
  }
  return bits;
}

std::vector<std::size_t> instructions_of_line(const SassListing& listing,
                                              const SassFunction& function, std::string_view file,
                                              int line) {
  std::vector<std::size_t> found;
  for (std::size_t i = 0; i < function.instructions.size(); ++i) {
    const SassInstruction& instruction = function.instructions[i];
    if (instruction.line != line || instruction.file < 0) continue;
    if (names_file(listing.files[static_cast<std::size_t>(instruction.file)], file)) {
      found.push_back(i);
    }
  }
  return found;
}

std::string demangle(std::string_view symbol) {
  const std::string name(symbol);
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && demangled ? std::string(demangled.get()) : name;
}

std::string short_name(std::string_view symbol) {
  std::string name = demangle(symbol);
  // Without the parameter list: the last top-level "(...)".
  if (!name.empty() && name.back() == ')') {
    int depth = 0;
    for (std::size_t i = name.size(); i-- > 0;) {
      if (name[i] == ')') ++depth;
      if (name[i] == '(' && --depth == 0) {
        name.resize(i);
        break;
      }
    }
  }
  // Without the return type a function template's name starts with ("void tl::gpu::f<...>"):
  // what follows the last space outside brackets.
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '<' || c == '(') ++depth;
    if (c == '>' || c == ')') --depth;
    if (c == ' ' && depth == 0) start = i + 1;
  }
  return name.substr(start);
}

bool is_traced_instance(std::string_view short_name) {
  return short_name.find("Traced") != std::string_view::npos &&
         short_name.find("Untraced") == std::string_view::npos;
}

std::string timed_kernel_name(std::string_view short_name) {
  // The lessons' kernels and the types they are templates over live in tl::gpu: wherever it
  // qualifies a name, it goes ("tl::gpu::ConvTensorTile<...>" is "ConvTensorTile<...>").
  constexpr std::string_view kLessonNamespace = "tl::gpu::";
  std::string name(short_name);
  for (std::size_t at = name.find(kLessonNamespace); at != std::string::npos;
       at = name.find(kLessonNamespace, at)) {
    name.erase(at, kLessonNamespace.size());
  }
  // The kernel's own template arguments (those of its outermost "<...>"), without its trace
  // policy (tl::Untraced, tl::ReductionUntraced), wherever among them it stands: "f<16,
  // tl::Untraced>" is "f<16>", a sole "<tl::Untraced>" goes whole.
  const std::size_t open = name.find('<');
  if (open == std::string::npos || !name.ends_with('>')) return name;
  std::vector<std::string_view> kept;
  int depth = 0;
  std::size_t from = open + 1;
  const std::string_view all(name);
  for (std::size_t i = from; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '<' || c == '(') ++depth;
    const bool last = i == name.size() - 1;
    if ((c == '>' || c == ')') && !last) --depth;
    if (!(c == ',' && depth == 0) && !last) continue;
    std::string_view argument = all.substr(from, i - from);
    while (argument.starts_with(' ')) argument.remove_prefix(1);
    const bool policy = argument.starts_with("tl::") && argument.ends_with("Untraced") &&
                        argument.find('<') == std::string_view::npos;
    if (!policy) kept.push_back(argument);
    from = i + 1;
  }
  std::string timed = name.substr(0, open);
  if (kept.empty()) return timed;
  timed += '<';
  for (std::size_t i = 0; i < kept.size(); ++i) {
    timed += (i == 0 ? "" : ", ") + std::string(kept[i]);
  }
  return timed + '>';
}

}  // namespace tl::compiled
