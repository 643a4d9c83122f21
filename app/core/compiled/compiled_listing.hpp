#pragma once
// What nvcc made of a kernel, read from the toolkit's own listings (lessons/compiled_kernels.hpp
// embeds them for the lessons' kernels): nvdisasm's SASS with the source line of each
// instruction (`nvdisasm -g -c`), the PTX with its `.loc` lines, and ptxas's resources per
// kernel (`cuobjdump -res-usage`). Each instruction is sorted into what a learner looks for:
// global, shared and local memory (local is where spilled registers go), barriers, shuffles,
// atomics, tensor-core instructions. No CUDA needed: these are texts.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tl::compiled {

enum class InstructionKind {
  kOther,
  kGlobalLoad,       // LDG
  kGlobalStore,      // STG
  kSharedLoad,       // LDS, LDSM
  kSharedStore,      // STS
  kLocalLoad,        // LDL: a register spilled to local memory, read back (or a local array)
  kLocalStore,       // STL
  kGenericMemory,    // LD, ST: the address space decided at run time
  kAsyncCopy,        // LDGSTS (cp.async), UBLKCP / UTMALDG (TMA)
  kConstantLoad,     // LDC, ULDC
  kBarrier,          // BAR, SYNCS, WARPSYNC
  kShuffle,          // SHFL
  kVote,             // VOTE, MATCH, REDUX
  kAtomic,           // ATOM, ATOMS, ATOMG, RED
  kTensorCore,       // HMMA, IMMA, HGMMA, DMMA
  kSpecialFunction,  // MUFU: sin, cos, exp2, rcp, rsqrt ...
  kBranch,           // BRA, EXIT, RET, CALL
};

// The kind of a SASS opcode ("LDG.E.128" → kGlobalLoad), by its first part.
[[nodiscard]] InstructionKind classify_sass(std::string_view opcode);
// A short name for a kind: "global load", "local store (spill)".
[[nodiscard]] std::string_view kind_name(InstructionKind kind);
// A plain-language line on what the instruction does, for the opcodes a learner meets, with the
// GPUs it applies to; empty for the rest.
[[nodiscard]] std::string_view gloss(std::string_view opcode);
// Whether the kind touches memory (global, shared, local, generic, async copies, atomics).
[[nodiscard]] bool is_memory(InstructionKind kind);

struct SassInstruction {
  std::uint32_t offset = 0;  // bytes into the function
  std::string predicate;     // "@P0", "@!PT", or empty
  std::string opcode;        // "LDG.E.128"
  std::string text;          // the whole instruction as nvdisasm printed it, without the `;`
  int file = -1;             // index into SassListing::files; -1: no line information
  int line = 0;
  InstructionKind kind = InstructionKind::kOther;
};

struct SassFunction {
  std::string symbol;  // as mangled in the cubin
  std::vector<SassInstruction> instructions;
};

struct SassListing {
  std::vector<std::string> files;  // the source files line information names
  std::vector<SassFunction> functions;
  [[nodiscard]] const SassFunction* find(std::string_view symbol) const;
};

[[nodiscard]] SassListing parse_sass(std::string_view text);

struct PtxLine {
  std::string text;  // as written, tabs and all
  int file = -1;     // index into PtxListing::files of the last `.loc` above it; -1: none
  int line = 0;
};

struct PtxFunction {
  std::string symbol;
  bool entry = false;  // `.entry` (a kernel) rather than `.func`
  std::vector<PtxLine> lines;
};

struct PtxListing {
  std::vector<std::string> files;  // by the `.file` numbers, each at index number - 1
  std::vector<PtxFunction> functions;
  [[nodiscard]] const PtxFunction* find(std::string_view symbol) const;
};

[[nodiscard]] PtxListing parse_ptx(std::string_view text);

// ptxas's figures for one kernel, per thread unless named otherwise.
struct ResourceUsage {
  std::string symbol;
  int registers = 0;
  int stack_bytes = 0;
  int shared_bytes = 0;  // static shared memory per block (dynamic comes at launch)
  // The 1 KB a block's shared memory reserves for the system, where cuobjdump counted it in
  // SHARED (sm_90 and newer; see parse_resource_usage); not part of shared_bytes.
  int reserved_shared_bytes = 0;
  int local_bytes = 0;     // local memory per thread: spilled registers and local arrays
  int constant_bytes = 0;  // CONSTANT[0]: the kernel's parameters and what the compiler puts there
};

// `cuobjdump -res-usage` of one cubin for `arch` ("sm_90", "sm_90a", ...). From sm_90 on, the
// cubin's shared-memory section of a kernel that uses shared memory begins with the 1 KB the
// driver reserves per block (.nv.reservedSmem), and cuobjdump's SHARED counts it: a kernel with
// `__shared__ float s[32]` reads SHARED:1152 there and SHARED:128 for sm_80 and sm_89, while
// ptxas -v and cudaFuncGetAttributes say 128 bytes on every architecture. shared_bytes is the
// kernel's own figure; the reserve goes to reserved_shared_bytes.
[[nodiscard]] std::vector<ResourceUsage> parse_resource_usage(std::string_view text,
                                                              std::string_view arch);

// What ptxas says of one kernel when asked to be verbose (`-Xptxas -v`, NVRTC's
// `--ptxas-options=-v`): the figures cuobjdump gives, plus the spills themselves. NVRTC puts
// these lines in its program log, so a learner's kernel gets them with no other tool installed.
struct PtxasReport {
  std::string symbol;  // as mangled
  std::string arch;    // "sm_90"
  int registers = 0;
  int barriers = 0;
  int stack_bytes = 0;        // the stack frame per thread (spills and local arrays live there)
  int spill_store_bytes = 0;  // bytes of registers stored to local memory per thread
  int spill_load_bytes = 0;   // and loaded back
  int shared_bytes = 0;       // static shared memory per block
  int constant_bytes = 0;     // cmem[0], where ptxas names it
  [[nodiscard]] bool spills() const { return spill_store_bytes > 0 || spill_load_bytes > 0; }
};

// Every entry function ptxas reported in `log` (other lines, the compiler's warnings, are skipped).
[[nodiscard]] std::vector<PtxasReport> parse_ptxas_report(std::string_view log);

// One kernel's instructions counted by kind, and its spills.
struct SassSummary {
  std::size_t instructions = 0;
  std::size_t counts[static_cast<int>(InstructionKind::kBranch) + 1] = {};
  // Fused multiply-adds on the FMA units (FFMA, DFMA, HFMA2 and their forms): the arithmetic a
  // matrix product's inner loop is made of, counted apart from the kinds above.
  std::size_t multiply_adds = 0;
  // Global loads by the width one thread reads: 128-bit (LDG.E.128, a float4), 64-bit, 32-bit
  // (a float) and narrower. One instruction moves a warp's 32 lanes × that width, so a kernel that
  // reads float4 needs a quarter of the load instructions a float-by-float one does.
  std::size_t global_loads_128 = 0;
  std::size_t global_loads_64 = 0;
  std::size_t global_loads_32 = 0;
  std::size_t global_loads_narrower = 0;
  [[nodiscard]] std::size_t count(InstructionKind kind) const {
    return counts[static_cast<int>(kind)];
  }
  // Local stores and loads: with no local arrays in the source, these are spilled registers.
  [[nodiscard]] std::size_t spill_stores() const { return count(InstructionKind::kLocalStore); }
  [[nodiscard]] std::size_t spill_loads() const { return count(InstructionKind::kLocalLoad); }
};

[[nodiscard]] SassSummary summarize(const SassFunction& function);
// The bits one thread moves with a global load or store opcode: "LDG.E.128" 128,
// "LDG.E.64.CONSTANT" 64, "LDG.E" 32, "LDG.E.U8" 8; 0 for another opcode.
[[nodiscard]] int global_access_bits(std::string_view opcode);

// The instructions of `function` made from `line` of `file` (a path as the listing names it, or
// its ending: "matrix_add.cuh"), in order.
[[nodiscard]] std::vector<std::size_t> instructions_of_line(const SassListing& listing,
                                                            const SassFunction& function,
                                                            std::string_view file, int line);

// "tl::gpu::matrix_add_x_to_row<tl::Untraced>(float const*, ...)", or the symbol itself where it
// is not a C++ name.
[[nodiscard]] std::string demangle(std::string_view symbol);
// The demangled name without its parameter list: "tl::gpu::matrix_add_x_to_row<tl::Untraced>".
[[nodiscard]] std::string short_name(std::string_view symbol);

// Whether a lesson kernel's short name is the traced twin of a timed kernel (its trace policy is
// Traced or ReductionTraced): the mapping view runs it, the timings do not.
[[nodiscard]] bool is_traced_instance(std::string_view short_name);
// The timed kernel's name in the listing: its short name without the namespace tl::gpu (the
// kernel's and its template arguments') and without its trace policy (the template argument
// tl::Untraced or tl::ReductionUntraced). "tl::gpu::matmul_tiled<16, tl::Untraced>" →
// "matmul_tiled<16>", as the GPU inspector and the occupancy view name it too; a kernel they name
// otherwise (a template over a type: "conv_implicit_gemm_fp16<ConvTensorTile<128, 64, 32, 4, 3, 0,
// 0, 0>>" is "conv_implicit_gemm_fp16") carries this name in its registered symbol
// (kernels::KernelSymbol::listing_name).
[[nodiscard]] std::string timed_kernel_name(std::string_view short_name);

}  // namespace tl::compiled
