// What the compiler made of a learner's kernel, and the word the Lab says about it: the warning
// from ptxas's report and the SASS's spill lines (from hand-made listings, no tool needed), then
// the whole path through a sandboxed worker and NVRTC (no GPU needed; skipped, visibly, where
// NVRTC is missing) on a kernel that spills and on one that does not.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include "lab/exercise_registry.hpp"
#include "lab/gpu/cuda_libraries.hpp"
#include "lab/lab_inspect.hpp"

namespace tl::lab {
namespace {

constexpr std::string_view kSpillingLog = R"(ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'
ptxas info    : Function properties for _Z1kPf
ptxas         .     352 bytes stack frame, 440 bytes spill stores, 536 bytes spill loads
ptxas info    : Used 32 registers, used 0 barriers, 352 bytes cumulative stack size
)";

constexpr std::string_view kSpillingSass = R"(	.target	sm_90
//--------------------- .text._Z1kPf --------------------------
	.section	.text._Z1kPf,"ax",@progbits
_Z1kPf:
.text._Z1kPf:
	//## File "kernel.cu", line 4
        /*0000*/                   LDC R1, c[0x0][0x28] ;
	//## File "kernel.cu", line 7
        /*0010*/                   STL [R1+0x4], R2 ;
	//## File "threadlab_lab.cuh", line 145
        /*0020*/                   STL [R1+0x8], R3 ;
	//## File "kernel.cu", line 9
        /*0030*/                   LDL R4, [R1+0x4] ;
        /*0040*/                   EXIT ;
)";

LearnerListing listing_of(std::string_view log, std::string_view sass, std::string source) {
  LearnerListing listing;
  listing.arch = 90;
  listing.symbol = "_Z1kPf";
  listing.source = std::move(source);
  listing.source_name = "mine.cu";
  listing.log = std::string(log);
  listing.sass_text = std::string(sass);
  listing.sass = compiled::parse_sass(listing.sass_text);
  listing.report = compiled::parse_ptxas_report(log).front();
  return listing;
}

LaunchShape block_of(std::uint32_t threads) {
  LaunchShape launch;
  launch.grid = {64, 1, 1};
  launch.block = {threads, 1, 1};
  return launch;
}

TEST(CompiledFeedback, ASpillIsNamedWithItsLinesAndTheLaunchBoundsThatCapsTheRegisters) {
  const std::string source =
      "// __launch_bounds__ in a comment is not the one\n"
      "/* nor\n __launch_bounds__ here */\n"
      "__global__ void __launch_bounds__(256, 8) k(float* c) {\n";
  const CompiledFeedback feedback =
      compiled_feedback(listing_of(kSpillingLog, kSpillingSass, source), block_of(256));
  EXPECT_TRUE(feedback.unavailable.empty());
  EXPECT_EQ(feedback.spill_store_bytes, 440);
  EXPECT_EQ(feedback.spill_load_bytes, 536);
  EXPECT_EQ(feedback.spill_lines, (std::vector<int>{7, 9})) << "the prelude's line is not theirs";
  EXPECT_EQ(feedback.launch_bounds_line, 4);
  ASSERT_FALSE(feedback.warnings.empty());
  const std::string& warning = feedback.warnings.front();
  EXPECT_NE(warning.find("440"), std::string::npos) << warning;
  EXPECT_NE(warning.find("Lines 7 and 9 of mine.cu"), std::string::npos) << warning;
  EXPECT_NE(warning.find("Line 4's __launch_bounds__"), std::string::npos) << warning;
}

TEST(CompiledFeedback, AKernelThatNeitherSpillsNorStarvesTheSmHearsNothing) {
  const std::string log = R"(ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'
ptxas info    : Function properties for _Z1kPf
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 12 registers, used 0 barriers
)";
  const CompiledFeedback feedback = compiled_feedback(listing_of(log, "", "k\n"), block_of(256));
  EXPECT_TRUE(feedback.warnings.empty());
  ASSERT_TRUE(feedback.occupancy.has_value());
  EXPECT_DOUBLE_EQ(feedback.occupancy->fraction(), 1.0);
  EXPECT_EQ(feedback.occupancy_gpu, "H100 SXM");
}

TEST(CompiledFeedback, OccupancyHeldLowByRegistersIsSaidAndModelledOnTheArchitecturesGpu) {
  // 128 registers × 256 threads: two blocks of an H100's 64K registers, 16 of 64 warp slots.
  const std::string log = R"(ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'
ptxas info    : Function properties for _Z1kPf
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 128 registers, used 0 barriers
)";
  const CompiledFeedback feedback = compiled_feedback(listing_of(log, "", "k\n"), block_of(256));
  ASSERT_TRUE(feedback.occupancy.has_value());
  EXPECT_EQ(feedback.occupancy->limit, OccupancyLimit::kRegisters);
  EXPECT_DOUBLE_EQ(feedback.occupancy->fraction(), 0.25);
  ASSERT_EQ(feedback.warnings.size(), 1u);
  EXPECT_NE(feedback.warnings[0].find("25 %"), std::string::npos) << feedback.warnings[0];
  EXPECT_NE(feedback.warnings[0].find("registers"), std::string::npos) << feedback.warnings[0];
  // The same kernel at 64 threads a block: 8 blocks, 16 warps, still registers, still low.
  EXPECT_FALSE(compiled_feedback(listing_of(log, "", "k\n"), block_of(64)).warnings.empty());
}

TEST(CompiledFeedback, ArchitecturesAreReadAsTheCliWritesThem) {
  EXPECT_EQ(*parse_arch("sm_90"), 90);
  EXPECT_EQ(*parse_arch("80"), 80);
  EXPECT_FALSE(parse_arch("sm_9x"));
  EXPECT_FALSE(parse_arch("compute_90a"));
  EXPECT_FALSE(parse_arch(""));
  EXPECT_FALSE(parse_arch("sm_30")) << "no CUDA 13 compiler targets it";
}

// ---- through the worker and NVRTC ----

std::string spilling_vector_add() {
  std::ifstream in(THREADLAB_TEST_DATA "/vector_add_spills.cu");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

LabOptions worker_options() {
  LabOptions options;
  const char* executable = std::getenv("THREADLAB_EXECUTABLE");
  options.worker_executable = executable != nullptr ? executable : THREADLAB_EXECUTABLE;
  options.cache_dir = ::testing::TempDir() + "threadlab-inspect-cache";
  return options;
}

class InspectThroughNvrtc : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const Result<const Nvrtc*> nvrtc = Nvrtc::load(); !nvrtc) {
      GTEST_SKIP() << nvrtc.error().message;
    }
  }
};

TEST_F(InspectThroughNvrtc, AKernelCappedByItsLaunchBoundsSpillsAndIsToldWhere) {
  const Exercise& exercise = *find_exercise("vector-add");
  const std::string source = spilling_vector_add();
  ASSERT_FALSE(source.empty());
  Result<LearnerListing> listing = inspect_submission(exercise, source, worker_options(), 90);
  ASSERT_TRUE(listing) << listing.error().message;
  ASSERT_TRUE(listing->report.has_value()) << listing->log;
  EXPECT_LE(listing->report->registers, 32) << "65536 / (256 × 8)";
  EXPECT_GT(listing->report->spill_store_bytes, 0) << listing->log;
  ASSERT_NE(listing->ptx_function(), nullptr) << "the PTX names the kernel NVRTC lowered";
  EXPECT_FALSE(listing->ptx.files.empty());
  EXPECT_EQ(listing->ptx.files.front(), "kernel.cu") << "the worker's folder is not shown";
  const CompiledFeedback feedback = compiled_feedback(*listing, largest_case_launch(exercise));
  ASSERT_FALSE(feedback.warnings.empty());
  EXPECT_NE(feedback.warnings.front().find("spill"), std::string::npos);
  EXPECT_EQ(feedback.launch_bounds_line, 4);
  if (listing->sass_function() == nullptr) {
    std::cout << "[ NOTE ] no SASS: " << listing->sass_unavailable << '\n';
    return;
  }
  // Every spill line is a line of the learner's file that has instructions of its own.
  ASSERT_FALSE(feedback.spill_lines.empty());
  for (const int line : feedback.spill_lines) {
    EXPECT_FALSE(
        compiled::instructions_of_line(listing->sass, *listing->sass_function(), "kernel.cu", line)
            .empty())
        << line;
  }
}

TEST_F(InspectThroughNvrtc, TheSolutionDoesNotSpillAndEveryListingAgrees) {
  const Exercise& exercise = *find_exercise("vector-add");
  Result<LearnerListing> listing =
      inspect_submission(exercise, exercise.solution, worker_options(), 90);
  ASSERT_TRUE(listing) << listing.error().message;
  ASSERT_TRUE(listing->report.has_value()) << listing->log;
  EXPECT_FALSE(listing->report->spills());
  EXPECT_GT(listing->report->registers, 0);
  EXPECT_TRUE(compiled_feedback(*listing, largest_case_launch(exercise)).warnings.empty());
  if (const compiled::SassFunction* f = listing->sass_function()) {
    const compiled::SassSummary summary = compiled::summarize(*f);
    EXPECT_EQ(summary.spill_stores(), 0u);
    EXPECT_EQ(summary.count(compiled::InstructionKind::kGlobalLoad), 2u) << "a[i] and b[i]";
    EXPECT_EQ(summary.count(compiled::InstructionKind::kGlobalStore), 1u) << "c[i]";
  }
}

TEST_F(InspectThroughNvrtc, ACompileErrorIsTheCompilersLogNamingTheLine) {
  const Exercise& exercise = *find_exercise("vector-add");
  Result<LearnerListing> listing =
      inspect_submission(exercise, "__global__ void vector_add(int n) {\n  undeclared = 1;\n}\n",
                         worker_options(), 90);
  ASSERT_FALSE(listing);
  EXPECT_EQ(listing.error().kind, ErrorKind::kParseError);
  EXPECT_NE(listing.error().message.find("kernel.cu(2)"), std::string::npos)
      << listing.error().message;
}

}  // namespace
}  // namespace tl::lab
