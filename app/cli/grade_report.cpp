#include "grade_report.hpp"

#include <cstdio>
#include <sstream>

#include "core/format.hpp"

namespace tl::cli {
namespace {

using json = nlohmann::json;

std::string number(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

// Text as XML character data or an attribute value: the five entities escaped, and characters
// XML 1.0 cannot hold at all (most control characters) replaced.
std::string xml_text(const std::string& text) {
  std::string escaped;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '&':
        escaped += "&amp;";
        break;
      case '<':
        escaped += "&lt;";
        break;
      case '>':
        escaped += "&gt;";
        break;
      case '"':
        escaped += "&quot;";
        break;
      case '\'':
        escaped += "&apos;";
        break;
      default:
        if (byte < 0x20 && c != '\n' && c != '\t' && c != '\r') {
          escaped += '?';
        } else {
          escaped += c;
        }
    }
  }
  return escaped;
}

// RFC 4180 records: quoted fields may hold commas, doubled quotes and line breaks.
Result<std::vector<std::vector<std::string>>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  bool quoted = false;
  bool any = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
      continue;
    }
    if (c == '"') {
      quoted = true;
      any = true;
    } else if (c == ',') {
      record.push_back(std::move(field));
      field.clear();
      any = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      if (any || !field.empty()) {
        record.push_back(std::move(field));
        records.push_back(std::move(record));
      }
      record.clear();
      field.clear();
      any = false;
    } else {
      field += c;
      any = true;
    }
  }
  if (quoted) return Error{ErrorKind::kInvalidArgument, "a quoted field never ends"};
  if (any || !field.empty()) {
    record.push_back(std::move(field));
    records.push_back(std::move(record));
  }
  return records;
}

json row_json(const std::string& exercise, const GradeRow& row) {
  json detail = row.detail.is_object()
                    ? row.detail
                    : json{{"exercise", exercise}, {"file", row.file}, {"reason", row.reason}};
  detail["outcome"] = row.outcome;
  detail["passed_checks"] = row.passed_checks;
  return detail;
}

std::string gradescope(const std::vector<GradeRow>& rows) {
  json tests = json::array();
  double score = 0;
  int graded = 0;
  for (const GradeRow& row : rows) {
    const std::string prefix = rows.size() > 1 ? row.file + ": " : "";
    if (row.outcome != "pending") ++graded;
    if (row.cases.empty()) {
      // Nothing was checked (does not compile, timed out, skipped, not graded yet): one test,
      // worth nothing, that says why.
      tests.push_back({{"name", prefix + row.outcome},
                       {"score", 0},
                       {"max_score", row.checks > 0 ? row.checks : 1},
                       {"status", row.outcome == "passed" ? "passed" : "failed"},
                       {"output", row.reason},
                       {"visibility", "visible"}});
      continue;
    }
    for (const GradeCheck& check : row.cases) {
      if (check.passed) score += 1;
      tests.push_back({{"name", prefix + check.label},
                       {"score", check.passed ? 1 : 0},
                       {"max_score", 1},
                       {"status", check.passed ? "passed" : "failed"},
                       {"output", check.passed ? std::string("passed") : check.message},
                       {"visibility", "visible"}});
    }
  }
  json results = {{"score", score},
                  {"tests", tests},
                  {"output", "ThreadLab graded " + std::to_string(graded) + " of " +
                                 std::to_string(rows.size()) + " files"},
                  {"visibility", "visible"},
                  {"stdout_visibility", "hidden"}};
  return results.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string junit(const std::string& exercise, const std::vector<GradeRow>& rows) {
  std::ostringstream suites;
  int tests = 0;
  int failures = 0;
  int errors = 0;
  int skipped = 0;
  for (const GradeRow& row : rows) {
    std::ostringstream cases;
    int suite_tests = 0;
    int suite_failures = 0;
    int suite_errors = 0;
    int suite_skipped = 0;
    const std::string classname = xml_text(exercise + "." + row.file);
    if (row.cases.empty()) {
      ++suite_tests;
      cases << "    <testcase classname=\"" << classname << "\" name=\"" << xml_text(row.outcome)
            << "\" time=\"" << number(row.seconds) << "\">";
      if (row.outcome == "skipped" || row.outcome == "pending") {
        ++suite_skipped;
        cases << "<skipped message=\"" << xml_text(row.reason) << "\"/>";
      } else if (row.outcome != "passed") {
        ++suite_errors;
        cases << "<error type=\"" << xml_text(row.outcome) << "\" message=\""
              << xml_text(row.reason) << "\"/>";
      }
      cases << "</testcase>\n";
    }
    for (const GradeCheck& check : row.cases) {
      ++suite_tests;
      cases << "    <testcase classname=\"" << classname << "\" name=\"" << xml_text(check.label)
            << "\">";
      if (!check.passed) {
        ++suite_failures;
        cases << "<failure message=\"" << xml_text(check.message) << "\"/>";
      }
      cases << "</testcase>\n";
    }
    suites << "  <testsuite name=\"" << xml_text(row.file) << "\" tests=\"" << suite_tests
           << "\" failures=\"" << suite_failures << "\" errors=\"" << suite_errors
           << "\" skipped=\"" << suite_skipped << "\" time=\"" << number(row.seconds) << "\">\n"
           << cases.str() << "  </testsuite>\n";
    tests += suite_tests;
    failures += suite_failures;
    errors += suite_errors;
    skipped += suite_skipped;
  }
  std::ostringstream document;
  document << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
           << "<testsuites name=\"" << xml_text("threadlab lab grade " + exercise) << "\" tests=\""
           << tests << "\" failures=\"" << failures << "\" errors=\"" << errors << "\" skipped=\""
           << skipped << "\">\n"
           << suites.str() << "</testsuites>\n";
  return document.str();
}

}  // namespace

Result<GradeFormat> grade_format_named(const std::string& name) {
  if (name.empty() || name == "csv") return GradeFormat::kCsv;
  if (name == "json") return GradeFormat::kJson;
  if (name == "gradescope") return GradeFormat::kGradescope;
  if (name == "junit") return GradeFormat::kJunit;
  return Error{ErrorKind::kInvalidArgument,
               "--format must be csv, json, gradescope or junit (not '" + name + "')"};
}

const std::vector<std::string>& grade_csv_columns() {
  static const std::vector<std::string> columns = {
      "file", "outcome", "passed_checks", "checks", "kernel_ms", "seconds", "reason"};
  return columns;
}

std::string grade_csv_row(const GradeRow& row) {
  return csv_field(row.file) + "," + row.outcome + "," + std::to_string(row.passed_checks) + "," +
         std::to_string(row.checks) + "," + number(row.kernel_ms) + "," + number(row.seconds) +
         "," + csv_field(row.reason) + "\n";
}

std::string render_grade_report(GradeFormat format, const std::string& exercise,
                                const std::vector<GradeRow>& rows) {
  switch (format) {
    case GradeFormat::kCsv: {
      std::string text;
      for (std::size_t i = 0; i < grade_csv_columns().size(); ++i) {
        text += (i ? "," : "") + grade_csv_columns()[i];
      }
      text += "\n";
      for (const GradeRow& row : rows) text += grade_csv_row(row);
      return text;
    }
    case GradeFormat::kJson: {
      json array = json::array();
      for (const GradeRow& row : rows) array.push_back(row_json(exercise, row));
      return array.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
    }
    case GradeFormat::kGradescope:
      return gradescope(rows);
    case GradeFormat::kJunit:
      return junit(exercise, rows);
  }
  return {};
}

Result<std::vector<GradeRow>> read_grade_report(GradeFormat format, const std::string& text) {
  std::vector<GradeRow> rows;
  if (format == GradeFormat::kCsv) {
    Result<std::vector<std::vector<std::string>>> records = parse_csv(text);
    if (!records) return records.error();
    if (records->empty() || (*records)[0] != grade_csv_columns()) {
      return Error{ErrorKind::kInvalidArgument, "not a lab grade CSV report (its header differs)"};
    }
    for (std::size_t i = 1; i < records->size(); ++i) {
      const std::vector<std::string>& r = (*records)[i];
      if (r.size() != grade_csv_columns().size()) {
        return Error{ErrorKind::kInvalidArgument, "row " + std::to_string(i + 1) + " has " +
                                                      std::to_string(r.size()) + " fields, not " +
                                                      std::to_string(grade_csv_columns().size())};
      }
      GradeRow row;
      row.file = r[0];
      row.outcome = r[1];
      row.passed_checks = std::atoi(r[2].c_str());
      row.checks = std::atoi(r[3].c_str());
      row.kernel_ms = std::atof(r[4].c_str());
      row.seconds = std::atof(r[5].c_str());
      row.reason = r[6];
      rows.push_back(std::move(row));
    }
    return rows;
  }
  if (format == GradeFormat::kJson) {
    const json array = json::parse(text, nullptr, false);
    if (!array.is_array()) {
      return Error{ErrorKind::kInvalidArgument, "not a lab grade JSON report (not an array)"};
    }
    for (const json& item : array) {
      if (!item.is_object() || !item.contains("file") || !item["file"].is_string() ||
          !item.contains("outcome") || !item["outcome"].is_string()) {
        return Error{ErrorKind::kInvalidArgument, "a row without its file or outcome"};
      }
      GradeRow row;
      row.file = item["file"];
      row.outcome = item["outcome"];
      row.passed_checks = item.value("passed_checks", 0);
      row.reason = item.value("reason", std::string());
      row.kernel_ms = item.value("kernel_ms", 0.0);
      row.seconds = item.value("seconds", 0.0);
      if (item.contains("cases") && item["cases"].is_array()) {
        for (const json& c : item["cases"]) {
          row.cases.push_back({c.value("case", std::string()), c.value("passed", false),
                               c.value("message", std::string())});
        }
      }
      row.checks = static_cast<int>(row.cases.size());
      row.detail = item;
      rows.push_back(std::move(row));
    }
    return rows;
  }
  return Error{ErrorKind::kInvalidArgument,
               "--resume reads a csv or json report (a Gradescope or JUnit report is written for "
               "its tool, not read back)"};
}

bool grade_row_is_final(const GradeRow& row) {
  return row.outcome != "pending" && row.outcome != "unavailable";
}

}  // namespace tl::cli
