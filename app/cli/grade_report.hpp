#pragma once
// `lab grade`'s report: one row per entry of the graded folder, rendered as CSV (a stable column
// set, README), JSON (an array of rows), Gradescope's results.json or JUnit XML. With `--output
// FILE` the whole report is rewritten atomically after every row, files not graded yet listed as
// `pending`: a run stopped at any moment leaves a valid report that says which rows are missing,
// and `--resume` grades only those.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.hpp"

namespace tl::cli {

enum class GradeFormat { kCsv, kJson, kGradescope, kJunit };
[[nodiscard]] Result<GradeFormat> grade_format_named(const std::string& name);

struct GradeCheck {
  std::string label;  // the case, "n = 1000"
  bool passed = false;
  std::string message;  // the first thing wrong, or empty
};

struct GradeRow {
  std::string file;
  std::string outcome;  // passed, failed, compile-error, timeout, crashed, unreadable, skipped,
                        // unavailable, or pending (not graded yet)
  int passed_checks = 0;
  int checks = 0;
  double kernel_ms = 0.0;
  double seconds = 0.0;
  std::string reason;
  std::vector<GradeCheck> cases;
  // The JSON format's row: the verdict's fields (outcome and passed_checks set from the above).
  nlohmann::json detail;
};

// The CSV columns, in order (documented in the README; tools read them by name).
[[nodiscard]] const std::vector<std::string>& grade_csv_columns();

[[nodiscard]] std::string grade_csv_row(const GradeRow& row);
// The whole report. `exercise` names the suite (JUnit) and the rows (JSON).
[[nodiscard]] std::string render_grade_report(GradeFormat format, const std::string& exercise,
                                              const std::vector<GradeRow>& rows);

// The rows of an earlier report in `format` (CSV or JSON): what --resume keeps. An error names
// what is wrong with the file.
[[nodiscard]] Result<std::vector<GradeRow>> read_grade_report(GradeFormat format,
                                                              const std::string& text);

// Whether a resumed run keeps `row` as it is (a decided outcome) or grades its file again
// (pending, or unavailable: nothing was judged).
[[nodiscard]] bool grade_row_is_final(const GradeRow& row);

}  // namespace tl::cli
