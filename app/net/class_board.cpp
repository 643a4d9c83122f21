#include "net/class_board.hpp"

#include "core/user_files.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace tl::net {
namespace {

using nlohmann::json;

Error io_error(const std::string& path, const std::string& what) {
  return {ErrorKind::kIoError, path + ": " + what};
}

BoardStudent& student_entry(Board& board, const std::string& id) {
  auto found = board.students.find(id);
  if (found != board.students.end()) return found->second;
  BoardStudent& added = board.students[id];
  added.number = static_cast<std::uint32_t>(board.students.size());
  return added;
}

}  // namespace

Status Board::join(const JoinRequest& request) {
  if (!students.contains(request.student) && students.size() >= kMaxStudents) {
    return invalid_argument("the class is full (" + std::to_string(kMaxStudents) + " students)");
  }
  bool added = !students.contains(request.student);
  BoardStudent& student = student_entry(*this, request.student);
  if (added || student.name != request.name) {
    student.name = request.name;
    ++version;
  }
  return {};
}

Result<bool> Board::record(const LabResult& result) {
  if (!students.contains(result.student) && students.size() >= kMaxStudents) {
    return invalid_argument("the class is full (" + std::to_string(kMaxStudents) + " students)");
  }
  bool new_exercise =
      std::find(exercises.begin(), exercises.end(), result.exercise) == exercises.end();
  if (new_exercise && exercises.size() >= kMaxExercises) {
    return invalid_argument("the board has " + std::to_string(kMaxExercises) +
                            " exercises already");
  }
  BoardStudent& student = student_entry(*this, result.student);
  if (!result.name.empty()) student.name = result.name;
  auto found = student.results.find(result.exercise);
  // A resend after a cut connection carries the same attempt; an old one arriving late is older.
  if (found != student.results.end() && found->second.attempt >= result.attempt) return false;
  student.results[result.exercise] = result;
  if (new_exercise) exercises.push_back(result.exercise);
  ++version;
  return true;
}

Result<bool> Board::share(const SharedCode& code) {
  if (!students.contains(code.student) && students.size() >= kMaxStudents) {
    return invalid_argument("the class is full (" + std::to_string(kMaxStudents) + " students)");
  }
  auto existing = students.find(code.student);
  std::size_t replaced = 0;
  if (existing != students.end()) {
    auto found = existing->second.shared.find(code.exercise);
    if (found != existing->second.shared.end()) {
      if (found->second.attempt >= code.attempt) return false;
      replaced = found->second.code.size();
    }
  }
  if (shared_bytes() - replaced + code.code.size() > kMaxSharedBytes) {
    return invalid_argument("the board holds as much shared code as it can (" +
                            std::to_string(kMaxSharedBytes / (1024 * 1024)) + " MiB)");
  }
  BoardStudent& student = student_entry(*this, code.student);
  if (!code.name.empty()) student.name = code.name;
  student.shared[code.exercise] = code;
  ++version;
  return true;
}

std::size_t Board::shared_bytes() const {
  std::size_t bytes = 0;
  for (const auto& [id, student] : students) {
    for (const auto& [exercise, code] : student.shared) bytes += code.code.size();
  }
  return bytes;
}

std::string shared_json(const Board& board) {
  json codes = json::array();
  for (const auto& [id, student] : board.students) {
    for (const auto& [exercise, code] : student.shared) {
      codes.push_back({{"number", student.number},
                       {"name", student.name},
                       {"exercise", exercise},
                       {"code", code.code}});
    }
  }
  std::sort(codes.begin(), codes.end(), [](const json& a, const json& b) {
    return std::tie(a["number"], a["exercise"]) < std::tie(b["number"], b["exercise"]);
  });
  return json{{"schema", kSchemaVersion}, {"type", "shared"}, {"codes", codes}}.dump();
}

std::string board_json(const Board& board, bool names, std::size_t followers) {
  json students = json::array();
  for (const auto& [id, student] : board.students) {
    json results = json::object();
    for (const auto& [exercise, result] : student.results) {
      results[exercise] = {{"outcome", to_string(result.outcome)},
                           {"failed_check", result.failed_check},
                           {"kernel_ms", result.kernel_ms},
                           {"reference_ms", result.reference_ms},
                           {"attempt", result.attempt}};
    }
    json entry = {{"number", student.number}, {"results", results}};
    if (names) {
      // Exercise -> attempt: the page fetches the code itself (/api/v1/shared) when these change.
      json shared = json::object();
      for (const auto& [exercise, code] : student.shared) shared[exercise] = code.attempt;
      entry["shared"] = shared;
    }
    entry["name"] = names ? student.name : "Student " + std::to_string(student.number);
    students.push_back(std::move(entry));
  }
  std::sort(students.begin(), students.end(),
            [](const json& a, const json& b) { return a["number"] < b["number"]; });
  json out = {{"schema", kSchemaVersion}, {"type", "board"}, {"version", board.version},
              {"followers", followers},   {"names", names},  {"exercises", board.exercises},
              {"students", students}};
  if (board.follow) {
    out["lesson"] = board.follow->lesson;
    if (board.follow->step) out["step"] = *board.follow->step;
  }
  return out.dump();
}

Result<Board> load_board(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error) && !error) return Board{};  // a class not yet saved
  std::ifstream in(path, std::ios::binary);
  if (!in) return io_error(path, "cannot be read");
  std::stringstream text;
  text << in.rdbuf();
  json file = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  auto damaged = [&](const std::string& why) {
    return Error{ErrorKind::kParseError, path + ": not a ThreadLab class board (" + why + ")"};
  };
  if (!file.is_object() || file.value("type", "") != "board-file") return damaged("no board here");
  if (file.value("schema", 0) != kSchemaVersion) return damaged("another schema version");
  Board board;
  const json& students = file.value("students", json::array());
  if (!students.is_array()) return damaged("no students");
  for (const json& entry : students) {
    if (!entry.is_object()) return damaged("a student is not an object");
    JoinRequest join{entry.value("student", ""), entry.value("name", "")};
    // The same checks as a message from the network: the file is data too.
    auto checked = parse_join_request(to_json(join));
    if (!checked) return damaged(checked.message());
    TL_RETURN_IF_ERROR(board.join(*checked));
    board.students[join.student].number = entry.value("number", 0u);
  }
  const json& results = file.value("results", json::array());
  if (!results.is_array()) return damaged("no results");
  for (const json& entry : results) {
    auto result = parse_lab_result(entry.dump());
    if (!result) return damaged(result.message());
    auto recorded = board.record(*result);
    if (!recorded) return damaged(recorded.message());
  }
  const json& shares = file.value("shares", json::array());
  if (!shares.is_array()) return damaged("no shared code");
  for (const json& entry : shares) {
    auto share = parse_shared_code(entry.dump());
    if (!share) return damaged(share.message());
    auto kept = board.share(*share);
    if (!kept) return damaged(kept.message());
  }
  if (file.contains("follow")) {
    auto follow = parse_follow_state(file["follow"].dump());
    if (!follow) return damaged(follow.message());
    board.follow = *follow;
  }
  board.version = file.value("version", std::uint64_t{0});
  return board;
}

Status save_board(const Board& board, const std::string& path) {
  json students = json::array();
  json results = json::array();
  for (const auto& [id, student] : board.students) {
    students.push_back({{"student", id}, {"name", student.name}, {"number", student.number}});
  }
  // In the order the exercises first came, so a reloaded board keeps its columns.
  for (const std::string& exercise : board.exercises) {
    for (const auto& [id, student] : board.students) {
      auto found = student.results.find(exercise);
      if (found != student.results.end()) results.push_back(json::parse(to_json(found->second)));
    }
  }
  json shares = json::array();
  for (const auto& [id, student] : board.students) {
    for (const auto& [exercise, code] : student.shared)
      shares.push_back(json::parse(to_json(code)));
  }
  json file = {{"schema", kSchemaVersion}, {"type", "board-file"}, {"version", board.version},
               {"students", students},     {"results", results},   {"shares", shares}};
  if (board.follow) file["follow"] = json::parse(to_json(*board.follow));
  std::string text = file.dump(1);

  // Written beside the board and renamed over it (core/user_files): a crash leaves the old board
  // or the new one, never half of one.
  return write_file_atomically(path, text);
}

}  // namespace tl::net
