// The words of a passing kernel's memory notes and of the table's scope, from a table made by
// hand: sectors against the ideal, bank conflicts, the array each line touches, extrapolation and
// whose model the figures are.
#include <gtest/gtest.h>

#include <string>

#include "lab/exercise_registry.hpp"
#include "lab/memory_findings.hpp"

namespace tl::lab {
namespace {

memory::LineTotals global_row(int line, memory::AccessKind kind, std::uint64_t requests,
                              std::uint64_t sectors, std::uint64_t ideal) {
  memory::LineTotals row;
  row.line = line;
  row.kind = kind;
  row.requests = requests;
  row.sectors = sectors;
  row.ideal_sectors = ideal;
  return row;
}

MemoryFindings transpose_findings() {
  MemoryFindings findings;
  findings.case_label = "in 64 × 64";
  findings.launch = {{2, 2, 1}, {32, 32, 1}, 0};
  memory::LineTotals shared;
  shared.line = 11;
  shared.space = memory::MemorySpace::kShared;
  shared.requests = 128;
  shared.wavefronts = 128 * 32;
  shared.ideal_wavefronts = 128;
  shared.worst_conflict_degree = 32;
  findings.reply.table.rows = {global_row(6, memory::AccessKind::kLoad, 128, 512, 512),
                               global_row(11, memory::AccessKind::kStore, 128, 4096, 512), shared};
  findings.reply.row_argument = {0, 1, MemoryReply::kNoArray};
  findings.reply.table.recorded_blocks = 4;
  findings.reply.table.grid_blocks = 4;
  return findings;
}

TEST(MemoryNotes, SayWhatEachLineMovesAgainstWhatItUsesAndNameItsArray) {
  const Exercise& e = *find_exercise("transpose");  // parameters in, out, rows, cols
  const MemoryFindings findings = transpose_findings();
  const std::vector<MemoryNote> notes = memory_notes(e, findings.reply);
  ASSERT_EQ(notes.size(), 3u);
  EXPECT_EQ(notes[0].text,
            "your loads of `in` move 4 sectors per request, the fewest that hold the bytes used "
            "— line 6");
  EXPECT_TRUE(notes[0].ideal);
  EXPECT_EQ(
      notes[1].text,
      "your stores to `out` move 32 sectors for every 4 used (8× the bytes needed) — line 11");
  EXPECT_FALSE(notes[1].ideal);
  EXPECT_EQ(notes[1].line, 11);
  EXPECT_EQ(notes[2].text,
            "your shared-memory loads hit a 32-way bank conflict: 32 wavefronts per request where "
            "1 would do — line 11");
  EXPECT_FALSE(notes[2].ideal);
}

TEST(MemoryNotes, ALineOverSeveralArraysOrUnknownSaysSo) {
  const Exercise& e = *find_exercise("transpose");
  MemoryReply reply;
  reply.table.rows = {global_row(0, memory::AccessKind::kLoad, 2, 8, 8)};
  reply.row_argument = {MemoryReply::kSeveralArrays};
  const std::vector<MemoryNote> notes = memory_notes(e, reply);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].text,
            "your loads of several arrays move 4 sectors per request, the fewest that hold the "
            "bytes used — line unknown");
}

TEST(MemoryScope, SaysWhetherTheCountsAreExactOrExtrapolatedAndWhoseModelTheyAre) {
  MemoryFindings findings = transpose_findings();
  EXPECT_EQ(memory_scope_label(findings),
            "recorded every warp of all 4 blocks of in 64 × 64 <<<2×2, 32×32>>>: exact");
  findings.reply.table.grid_blocks = 64;
  findings.beside_gpu = true;
  const std::string label = memory_scope_label(findings);
  EXPECT_NE(label.find("4 of 64 blocks"), std::string::npos) << label;
  EXPECT_NE(label.find("16× as many (extrapolated"), std::string::npos) << label;
  EXPECT_NE(label.find("the emulator's model of your kernel, not the GPU's counters"),
            std::string::npos)
      << label;
}

TEST(MemoryBadges, ShowSectorsAgainstTheIdealAndTheConflictDegree) {
  const Exercise& e = *find_exercise("transpose");
  const MemoryFindings findings = transpose_findings();
  const auto& rows = findings.reply.table.rows;
  EXPECT_EQ(memory_badge(rows[0]), "4 sectors / request — ideal");
  EXPECT_EQ(memory_badge(rows[1]), "32 sectors / request — 8× the bytes needed");
  EXPECT_EQ(memory_badge(rows[2]), "32-way bank conflict");
  memory::LineTotals padded = rows[2];
  padded.wavefronts = padded.ideal_wavefronts;
  padded.worst_conflict_degree = 1;
  EXPECT_EQ(memory_badge(padded), "no bank conflict");

  std::string source;
  for (int line = 1; line <= 11; ++line) source += "  // line " + std::to_string(line) + "\n";
  MemoryFindings with_notes = findings;
  with_notes.notes = memory_notes(e, findings.reply);
  const std::vector<MemoryLine> lines = memory_lines(e, source, with_notes);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].line, 6);
  EXPECT_EQ(lines[0].source, "// line 6");
  EXPECT_EQ(lines[0].access, "load of `in`");
  EXPECT_TRUE(lines[0].ideal);
  EXPECT_EQ(lines[1].access, "store to `out`");
  EXPECT_EQ(lines[1].note, with_notes.notes[1].text);
  EXPECT_EQ(lines[2].access, "shared-memory load");
  EXPECT_FALSE(lines[2].ideal);
}

TEST(MemoryNotes, SourceLinesAreTrimmedAndOutOfRangeOnesEmpty) {
  const std::string source = "a\n  b = c;  \n\td\n";
  EXPECT_EQ(source_line(source, 1), "a");
  EXPECT_EQ(source_line(source, 2), "b = c;");
  EXPECT_EQ(source_line(source, 3), "d");
  EXPECT_EQ(source_line(source, 5), "");
  EXPECT_EQ(source_line(source, 0), "");
  EXPECT_EQ(per_request_text(4.0), "4");
  EXPECT_EQ(per_request_text(5.46), "5.5");
}

}  // namespace
}  // namespace tl::lab
