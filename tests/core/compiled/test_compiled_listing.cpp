// The toolkit's listings read back: nvdisasm's SASS with its line information, PTX with its .loc
// lines and ptxas's resources, from excerpts of what the tools printed for lesson 3's kernels
// (nvcc 13.0, sm_90), paths made relative as the build makes them.
#include <gtest/gtest.h>

#include <string>

#include "core/compiled/compiled_listing.hpp"

namespace tl::compiled {
namespace {

constexpr const char* kSymbol = "_ZN2tl3gpu19matrix_add_x_to_rowINS_8UntracedEEEvPKfS4_PfiiT_";

constexpr const char* kSass = R"(	.target	sm_90

	.elftype	@"ET_EXEC"


//--------------------- .text._ZN2tl3gpu19matrix_add_x_to_rowINS_8UntracedEEEvPKfS4_PfiiT_ --------------------------
	.section	.text._ZN2tl3gpu19matrix_add_x_to_rowINS_8UntracedEEEvPKfS4_PfiiT_,"ax",@progbits
	.align	128
_ZN2tl3gpu19matrix_add_x_to_rowINS_8UntracedEEEvPKfS4_PfiiT_:
.text._ZN2tl3gpu19matrix_add_x_to_rowINS_8UntracedEEEvPKfS4_PfiiT_:
	//## File "lessons/03_2d_blocks/kernels/matrix_add.cuh", line 34
        /*0000*/                   LDC R1, c[0x0][0x28] ;
	//## File "lessons/03_2d_blocks/kernels/matrix_add.cuh", line 38
        /*00c0*/               @P0 EXIT ;
	//## File "lessons/03_2d_blocks/kernels/matrix_add.cuh", line 40
        /*01e0*/                   LDG.E R7, desc[UR6][R6.64] ;
        /*01f0*/                   LDG.E R8, desc[UR6][R8.64] ;
        /*0200*/                   FADD R9, R8, R7 ;
        /*0210*/                   STG.E desc[UR6][R4.64], R9 ;
	//## File "kernels/trace.cuh", line 20
        /*0220*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;
        /*0230*/              @!PT LDS RZ, [RZ] ;
        /*0240*/                   STL [R1], R2 ;
        /*0250*/                   LDL R3, [R1] ;
        /*0260*/                   HMMA.16816.F32 R12, R4, R8, R12 ;
        /*0270*/                   EXIT ;
.L_x_0:
        /*0280*/                   BRA `(.L_x_0) ;
)";

TEST(SassListing, ReadsFunctionsInstructionsAndTheirSourceLines) {
  const SassListing listing = parse_sass(kSass);
  ASSERT_EQ(listing.functions.size(), 1u);
  const SassFunction& f = listing.functions[0];
  EXPECT_EQ(f.symbol, kSymbol);
  ASSERT_EQ(f.instructions.size(), 13u);
  EXPECT_EQ(f.instructions[0].offset, 0u);
  EXPECT_EQ(f.instructions[0].opcode, "LDC");
  EXPECT_EQ(f.instructions[0].line, 34);
  EXPECT_EQ(f.instructions[1].predicate, "@P0");
  EXPECT_EQ(f.instructions[1].opcode, "EXIT");
  EXPECT_EQ(f.instructions[1].text, "@P0 EXIT");
  EXPECT_EQ(f.instructions[2].offset, 0x1e0u);
  EXPECT_EQ(f.instructions[2].text, "LDG.E R7, desc[UR6][R6.64]");
  EXPECT_EQ(f.instructions[2].kind, InstructionKind::kGlobalLoad);
  EXPECT_EQ(f.instructions[2].line, 40);
  ASSERT_EQ(listing.files.size(), 2u);
  EXPECT_EQ(listing.files[static_cast<std::size_t>(f.instructions[2].file)],
            "lessons/03_2d_blocks/kernels/matrix_add.cuh");
  EXPECT_EQ(listing.files[static_cast<std::size_t>(f.instructions[6].file)], "kernels/trace.cuh");
  EXPECT_EQ(f.instructions[12].opcode, "BRA");
  EXPECT_NE(listing.find(kSymbol), nullptr);
  EXPECT_EQ(listing.find("_Z3foov"), nullptr);
}

TEST(SassListing, ALineOfSourceFindsItsInstructions) {
  const SassListing listing = parse_sass(kSass);
  const SassFunction& f = listing.functions[0];
  // `c[i] = a[i] + b[i];` is line 40: two loads, the add, the store.
  const auto line40 = instructions_of_line(listing, f, "matrix_add.cuh", 40);
  ASSERT_EQ(line40.size(), 4u);
  EXPECT_EQ(f.instructions[line40[0]].opcode, "LDG.E");
  EXPECT_EQ(f.instructions[line40[3]].kind, InstructionKind::kGlobalStore);
  EXPECT_EQ(instructions_of_line(listing, f, "lessons/03_2d_blocks/kernels/matrix_add.cuh", 40),
            line40);
  EXPECT_TRUE(instructions_of_line(listing, f, "add.cuh", 40).empty())
      << "a file is named whole, or by its path's ending at a /";
  EXPECT_TRUE(instructions_of_line(listing, f, "matrix_add.cuh", 41).empty());
}

TEST(SassListing, SummaryCountsKindsSpillsAndSkipsPadding) {
  const SassSummary summary = summarize(parse_sass(kSass).functions[0]);
  EXPECT_EQ(summary.instructions, 12u) << "@!PT LDS never runs: padding, not counted";
  EXPECT_EQ(summary.count(InstructionKind::kGlobalLoad), 2u);
  EXPECT_EQ(summary.count(InstructionKind::kGlobalStore), 1u);
  EXPECT_EQ(summary.count(InstructionKind::kSharedLoad), 0u);
  EXPECT_EQ(summary.count(InstructionKind::kBarrier), 1u);
  EXPECT_EQ(summary.count(InstructionKind::kTensorCore), 1u);
  EXPECT_EQ(summary.count(InstructionKind::kBranch), 3u);
  EXPECT_EQ(summary.spill_stores(), 1u);
  EXPECT_EQ(summary.spill_loads(), 1u);
}

TEST(SassListing, SummaryCountsTheFusedMultiplyAddsApart) {
  const SassSummary summary = summarize(parse_sass(R"(
	.section	.text._Z1kPf,"ax",@progbits
_Z1kPf:
.text._Z1kPf:
        /*0000*/                   FFMA R8, R22, R8, R23 ;
        /*0010*/                   FFMA.FTZ R9, R2, R3, R9 ;
        /*0020*/                   HFMA2.MMA R4, -RZ, RZ, 0, 0 ;
        /*0030*/                   DFMA R10, R2, R4, R10 ;
        /*0040*/                   FADD R9, R8, R7 ;
        /*0050*/                   FMUL R9, R8, R7 ;
        /*0060*/              @!PT FFMA RZ, RZ, RZ, RZ ;
        /*0070*/                   EXIT ;
)")
                                            .functions[0]);
  EXPECT_EQ(summary.multiply_adds, 4u) << "FFMA, FFMA.FTZ, HFMA2, DFMA; not FADD, FMUL or padding";
  EXPECT_EQ(summary.instructions, 7u);
}

TEST(SassListing, GlobalLoadsAreCountedByTheWidthOneThreadReads) {
  const SassSummary summary = summarize(parse_sass(R"(
	.section	.text._Z1kPf,"ax",@progbits
_Z1kPf:
.text._Z1kPf:
        /*0000*/                   LDG.E.128 R4, desc[UR6][R2.64] ;
        /*0010*/                   LDG.E.128.CONSTANT R8, desc[UR6][R2.64+0x10] ;
        /*0020*/                   LDG.E.64 R12, desc[UR6][R2.64] ;
        /*0030*/                   LDG.E R14, desc[UR6][R2.64] ;
        /*0040*/                   LDG.E.LTC128B R15, desc[UR6][R2.64] ;
        /*0050*/                   LDG.E.U8 R16, desc[UR6][R2.64] ;
        /*0060*/                   STG.E.128 desc[UR6][R2.64], R4 ;
        /*0070*/                   LDGSTS.E.BYPASS.LTC128B.128 [R1], desc[UR6][R2.64] ;
        /*0080*/                   EXIT ;
)")
                                            .functions[0]);
  EXPECT_EQ(summary.count(InstructionKind::kGlobalLoad), 6u);
  EXPECT_EQ(summary.global_loads_128, 2u) << "LDG.E.128 and LDG.E.128.CONSTANT";
  EXPECT_EQ(summary.global_loads_64, 1u);
  EXPECT_EQ(summary.global_loads_32, 2u) << "no width is 32 bits; LTC128B is a cache hint";
  EXPECT_EQ(summary.global_loads_narrower, 1u);
  EXPECT_EQ(global_access_bits("STG.E.128"), 128);
  EXPECT_EQ(global_access_bits("LDG.E.S16"), 16);
  EXPECT_EQ(global_access_bits("LDS.128"), 0) << "a shared load is not a global access";
}

TEST(SassListing, OpcodesAreSortedByWhatTheyDo) {
  EXPECT_EQ(classify_sass("LDG.E.128.CONSTANT"), InstructionKind::kGlobalLoad);
  EXPECT_EQ(classify_sass("LDS.U.128"), InstructionKind::kSharedLoad);
  EXPECT_EQ(classify_sass("LDSM.16.M88.4"), InstructionKind::kSharedLoad);
  EXPECT_EQ(classify_sass("STS.64"), InstructionKind::kSharedStore);
  EXPECT_EQ(classify_sass("LDGSTS.E.BYPASS.LTC128B.128"), InstructionKind::kAsyncCopy);
  EXPECT_EQ(classify_sass("SHFL.BFLY"), InstructionKind::kShuffle);
  EXPECT_EQ(classify_sass("RED.E.ADD.F32.FTZ.RN.STRONG.GPU"), InstructionKind::kAtomic);
  EXPECT_EQ(classify_sass("HGMMA.64x128x16.F32"), InstructionKind::kTensorCore);
  EXPECT_EQ(classify_sass("MUFU.EX2"), InstructionKind::kSpecialFunction);
  EXPECT_EQ(classify_sass("LDCU"), InstructionKind::kOther) << "whole opcodes, not prefixes";
  EXPECT_EQ(classify_sass("FFMA"), InstructionKind::kOther);
  EXPECT_TRUE(is_memory(InstructionKind::kLocalStore));
  EXPECT_FALSE(is_memory(InstructionKind::kBarrier));
  EXPECT_EQ(kind_name(InstructionKind::kLocalStore), "local store (spill)");
  EXPECT_NE(gloss("BAR.SYNC.DEFER_BLOCKING").find("__syncthreads()"), std::string_view::npos);
  EXPECT_NE(gloss("LDG.E.128").find("float4"), std::string_view::npos);
  EXPECT_NE(gloss("HGMMA.64x128x16.F32").find("Hopper"), std::string_view::npos);
  EXPECT_TRUE(gloss("XMAD").empty());
}

constexpr const char* kPtx = R"(//
// Generated by NVIDIA NVVM Compiler
.version 9.0
.target sm_90
.address_size 64

.extern .func  (.param .b32 func_retval0) vprintf
(
	.param .b64 vprintf_param_0,
	.param .b64 vprintf_param_1
)
;

.visible .entry _ZN2tl3gpu19matrix_add_x_to_rowINS_8UntracedEEEvPKfS4_PfiiT_(
	.param .u64 .ptr .align 1 _ZN2tl3gpu19matrix_add_x_to_rowINS_8UntracedEEEvPKfS4_PfiiT__param_0,
	.param .u32 _ZN2tl3gpu19matrix_add_x_to_rowINS_8UntracedEEEvPKfS4_PfiiT__param_3
)
{
	.reg .f32 	%f<4>;

	.loc	1 36 3
	mov.u32 	%r1, %ctaid.x;
	.loc	1 40 5
	ld.global.f32 	%f1, [%rd1];
	add.f32 	%f3, %f2, %f1;
	.loc	2 20 1
	bar.sync 	0;
	ret;

}
.func  (.param .b32 func_retval0) _ZN2tl3gpu6helperEv()
{
	ret;
}
	.file	1 "lessons/03_2d_blocks/kernels/matrix_add.cuh"
	.file	2 "kernels/trace.cuh", 1700000000, 1234
)";

TEST(PtxListing, ReadsEntriesFunctionsAndLocLines) {
  const PtxListing listing = parse_ptx(kPtx);
  ASSERT_EQ(listing.functions.size(), 2u) << "the extern declaration is not a function";
  const PtxFunction& f = listing.functions[0];
  EXPECT_EQ(f.symbol, kSymbol);
  EXPECT_TRUE(f.entry);
  EXPECT_EQ(listing.functions[1].symbol, "_ZN2tl3gpu6helperEv");
  EXPECT_FALSE(listing.functions[1].entry);
  ASSERT_EQ(listing.files.size(), 2u);
  EXPECT_EQ(listing.files[0], "lessons/03_2d_blocks/kernels/matrix_add.cuh");
  EXPECT_EQ(listing.files[1], "kernels/trace.cuh");
  const PtxLine* load = nullptr;
  const PtxLine* barrier = nullptr;
  for (const PtxLine& l : f.lines) {
    if (l.text.find("ld.global.f32") != std::string::npos) load = &l;
    if (l.text.find("bar.sync") != std::string::npos) barrier = &l;
    EXPECT_EQ(l.text.find(".loc"), std::string::npos) << ".loc lines are the lines' numbers";
  }
  ASSERT_NE(load, nullptr);
  EXPECT_EQ(load->file, 0);
  EXPECT_EQ(load->line, 40);
  ASSERT_NE(barrier, nullptr);
  EXPECT_EQ(barrier->file, 1);
  EXPECT_EQ(barrier->line, 20);
  EXPECT_EQ(f.lines.front().file, -1) << "the header comes before any .loc";
  EXPECT_EQ(f.lines.back().text, "}");
  EXPECT_NE(listing.find(kSymbol), nullptr);
}

TEST(ResourceUsage, ReadsEachKernelsFigures) {
  const auto usages = parse_resource_usage(R"(
Resource usage:
 Common:
  GLOBAL:29 CONSTANT[4]:232
 Function _ZN2tl3gpu12matmul_tiledILi16ENS_8UntracedEEEvPKfS4_Pfiiii:
  REG:40 STACK:8 SHARED:2048 LOCAL:16 CONSTANT[0]:576 TEXTURE:0 SURFACE:0 SAMPLER:0
 Function _ZN2tl3gpu19matrix_add_x_to_rowINS_8UntracedEEEvPKfS4_PfiiT_:
  REG:12 STACK:0 SHARED:0 LOCAL:0 CONSTANT[0]:561 TEXTURE:0 SURFACE:0 SAMPLER:0
)",
                                           "sm_86");
  ASSERT_EQ(usages.size(), 2u);
  EXPECT_EQ(usages[0].symbol, "_ZN2tl3gpu12matmul_tiledILi16ENS_8UntracedEEEvPKfS4_Pfiiii");
  EXPECT_EQ(usages[0].registers, 40);
  EXPECT_EQ(usages[0].stack_bytes, 8);
  EXPECT_EQ(usages[0].shared_bytes, 2048);
  EXPECT_EQ(usages[0].local_bytes, 16);
  EXPECT_EQ(usages[0].constant_bytes, 576);
  EXPECT_EQ(usages[1].registers, 12);
  EXPECT_EQ(usages[1].shared_bytes, 0);
  EXPECT_EQ(usages[0].reserved_shared_bytes, 0) << "sm_86's SHARED is the kernel's own";
}

// cuobjdump 13.0 on one kernel with `__shared__ float s[32]` and one with only `extern __shared__`,
// built for sm_90: their shared sections begin with the driver's 1 KB reserve, which ptxas -v
// and cudaFuncGetAttributes do not count (128 and 0 bytes).
constexpr std::string_view kSm90Usage = R"(
 Function _Z1kPf:
  REG:12 STACK:0 SHARED:1152 LOCAL:0 CONSTANT[0]:536 TEXTURE:0 SURFACE:0 SAMPLER:0
 Function _Z1dPf:
  REG:12 STACK:0 SHARED:1024 LOCAL:0 CONSTANT[0]:536 TEXTURE:0 SURFACE:0 SAMPLER:0
 Function _Z2k2Pf:
  REG:8 STACK:0 SHARED:0 LOCAL:0 CONSTANT[0]:536 TEXTURE:0 SURFACE:0 SAMPLER:0
)";

TEST(ResourceUsage, FromSm90OnTheReservedKilobyteIsNotTheKernelsSharedMemory) {
  for (const std::string_view arch : {"sm_90", "sm_90a", "sm_100", "sm_120"}) {
    const auto usages = parse_resource_usage(kSm90Usage, arch);
    ASSERT_EQ(usages.size(), 3u) << arch;
    EXPECT_EQ(usages[0].shared_bytes, 128) << arch;
    EXPECT_EQ(usages[0].reserved_shared_bytes, 1024) << arch;
    EXPECT_EQ(usages[1].shared_bytes, 0) << arch << ": dynamic shared memory only";
    EXPECT_EQ(usages[1].reserved_shared_bytes, 1024) << arch;
    EXPECT_EQ(usages[2].shared_bytes, 0) << arch;
    EXPECT_EQ(usages[2].reserved_shared_bytes, 0) << arch << ": no shared memory, no reserve";
  }
  EXPECT_EQ(parse_resource_usage(kSm90Usage, "sm_89")[0].shared_bytes, 1152)
      << "before sm_90 SHARED is taken as it is";
}

// ptxas -v as NVRTC's program log gives it (CUDA 13.0, a kernel capped at 32 registers by
// __launch_bounds__(1024, 2)) and as nvcc prints it (properties indented, smem named).
constexpr std::string_view kNvrtcLog = R"(ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'k' for 'sm_90'
ptxas info    : Function properties for k
ptxas         .     360 bytes stack frame, 444 bytes spill stores, 540 bytes spill loads
ptxas info    : Used 32 registers, used 0 barriers, 360 bytes cumulative stack size
ptxas info    : Compile time = 282.577 ms
)";
constexpr std::string_view kNvccLog =
    R"(kernel.cu(3): warning #177-D: variable "unused" was declared but never referenced
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_Z5plainPf' for 'sm_90'
ptxas info    : Function properties for _Z5plainPf
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 10 registers, used 0 barriers
ptxas info    : Compile time = 3.273 ms
ptxas info    : Compiling entry function '_Z5tiledILi16EEvPKfPfi' for 'sm_89'
ptxas info    : Function properties for _Z5tiledILi16EEvPKfPfi
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 12 registers, used 1 barriers, 1088 bytes smem, 380 bytes cmem[0]
)";

TEST(PtxasReport, ReadsSpillsFromNvrtcsLog) {
  const std::vector<PtxasReport> reports = parse_ptxas_report(kNvrtcLog);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].symbol, "k");
  EXPECT_EQ(reports[0].arch, "sm_90");
  EXPECT_EQ(reports[0].registers, 32);
  EXPECT_EQ(reports[0].stack_bytes, 360);
  EXPECT_EQ(reports[0].spill_store_bytes, 444);
  EXPECT_EQ(reports[0].spill_load_bytes, 540);
  EXPECT_TRUE(reports[0].spills());
}

TEST(PtxasReport, ReadsEachKernelOfNvccsLogAndSkipsWarnings) {
  const std::vector<PtxasReport> reports = parse_ptxas_report(kNvccLog);
  ASSERT_EQ(reports.size(), 2u);
  EXPECT_EQ(reports[0].symbol, "_Z5plainPf");
  EXPECT_EQ(reports[0].registers, 10);
  EXPECT_FALSE(reports[0].spills());
  EXPECT_EQ(reports[1].arch, "sm_89");
  EXPECT_EQ(reports[1].registers, 12);
  EXPECT_EQ(reports[1].barriers, 1);
  EXPECT_EQ(reports[1].shared_bytes, 1088);
  EXPECT_EQ(reports[1].constant_bytes, 380);
  EXPECT_TRUE(parse_ptxas_report("kernel.cu(1): error: expected a ;").empty());
}

TEST(Demangle, NamesTheKernelAsWritten) {
  EXPECT_EQ(short_name(kSymbol), "tl::gpu::matrix_add_x_to_row<tl::Untraced>");
  EXPECT_EQ(demangle(kSymbol),
            "void tl::gpu::matrix_add_x_to_row<tl::Untraced>(float const*, float const*, "
            "float*, int, int, tl::Untraced)");
  EXPECT_EQ(demangle("vprintf"), "vprintf") << "a C name stays as it is";
  EXPECT_EQ(short_name("vprintf"), "vprintf");
}

TEST(KernelNames, TracedTwinsAndTheTimedKernelsName) {
  EXPECT_TRUE(is_traced_instance("tl::gpu::matmul_tiled<16, tl::Traced>"));
  EXPECT_TRUE(is_traced_instance("tl::gpu::sum_strided<tl::ReductionTraced>"));
  EXPECT_FALSE(is_traced_instance("tl::gpu::matmul_tiled<16, tl::Untraced>"));
  EXPECT_FALSE(is_traced_instance("tl::gpu::matmul_mma_layout_probe"));
  EXPECT_EQ(timed_kernel_name("tl::gpu::matmul_tiled<16, tl::Untraced>"), "matmul_tiled<16>");
  EXPECT_EQ(timed_kernel_name("tl::gpu::matrix_add_x_to_row<tl::Untraced>"), "matrix_add_x_to_row");
  EXPECT_EQ(timed_kernel_name("tl::gpu::matmul_mma_layout_probe"), "matmul_mma_layout_probe");
  EXPECT_EQ(timed_kernel_name("tl::gpu::sum_strided<tl::ReductionUntraced>"), "sum_strided");
  EXPECT_EQ(timed_kernel_name("tl::gpu::matmul_in<__half, float, tl::Untraced>"),
            "matmul_in<__half, float>");
  EXPECT_EQ(timed_kernel_name("tl::gpu::dot_partials<__half, float>"),
            "dot_partials<__half, float>")
      << "no trace policy: every argument stays";
}

// A kernel that is a template over a type (lesson 11's tensor rung over its tile): the listing
// names it with its argument as the compiler spells it, without the namespace, and without the
// trace policy that follows the type's own template arguments.
TEST(KernelNames, ATemplateOverATypeKeepsTheTypeWithoutItsNamespace) {
  // _Z...: the mangled symbol as ptxas and nvdisasm list it.
  const std::string symbol =
      "_ZN2tl3gpu23conv_implicit_gemm_fp16INS0_14ConvTensorTileILi128ELi64ELi32ELi4ELi3ELi3ELi3E"
      "Li64EEENS_8UntracedEEEvPK6__halfS7_PfiiiiiiiiiT0_";
  ASSERT_EQ(
      short_name(symbol),
      "tl::gpu::conv_implicit_gemm_fp16<tl::gpu::ConvTensorTile<128, 64, 32, 4, 3, 3, 3, 64>, "
      "tl::Untraced>");
  EXPECT_FALSE(is_traced_instance(short_name(symbol)));
  EXPECT_EQ(timed_kernel_name(short_name(symbol)),
            "conv_implicit_gemm_fp16<ConvTensorTile<128, 64, 32, 4, 3, 3, 3, 64>>");
  EXPECT_EQ(timed_kernel_name("tl::gpu::conv_implicit_gemm_fp16<tl::gpu::ConvTensorTile<128, 64, "
                              "32, 4, 3, 0, 0, 0>, tl::Untraced>"),
            "conv_implicit_gemm_fp16<ConvTensorTile<128, 64, 32, 4, 3, 0, 0, 0>>");
  EXPECT_TRUE(is_traced_instance(
      "tl::gpu::conv_implicit_gemm_fp16<tl::gpu::ConvTensorTile<128, 64, 32, 4, 3, 0, 0, 0>, "
      "tl::Traced>"));
  // A type whose own last argument looks like a policy is not the kernel's policy.
  EXPECT_EQ(timed_kernel_name("tl::gpu::f<tl::gpu::Wrap<tl::Untraced>>"), "f<Wrap<tl::Untraced>>");
  // Wherever the policy stands among the kernel's arguments (lesson 4's wgmma rung).
  EXPECT_EQ(
      timed_kernel_name("tl::gpu::wgmma_unit::matmul_wgmma<tl::gpu::wgmma_unit::WgmmaShape<4, "
                        "true>, true, tl::Untraced, tl::gpu::wgmma_unit::WgmmaFp16>"),
      "wgmma_unit::matmul_wgmma<wgmma_unit::WgmmaShape<4, true>, true, wgmma_unit::WgmmaFp16>");
  // Lesson 11's halo kernel, a template over its filter's shape: its integers stay.
  EXPECT_EQ(timed_kernel_name("tl::gpu::conv_halo_fp16<3, 3, 64, tl::Untraced>"),
            "conv_halo_fp16<3, 3, 64>");
}

}  // namespace
}  // namespace tl::compiled
