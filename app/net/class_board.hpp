#pragma once
// The teacher's board: who is in the class and each student's latest Kernel Lab result per
// exercise, plus where the presenter is (the last follow state). Plain data with its own rules (a
// result sent twice counts once, an older attempt never replaces a newer one, the class has a
// size limit) and its file: saved atomically (a temporary file renamed over the old one), so a
// presenter whose app or server restarts finds the board as it was.

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "net/class_messages.hpp"

namespace tl::net {

inline constexpr std::size_t kMaxStudents = 200;
inline constexpr std::size_t kMaxExercises = 64;
// All the code students shared, together: a class of kMaxStudents each sharing a few exercises
// fits; past it a share is refused (and the student told) rather than the server's memory grown.
inline constexpr std::size_t kMaxSharedBytes = 8 * 1024 * 1024;

struct BoardStudent {
  std::string name;
  std::uint32_t number = 0;  // 1, 2, ... in the order students joined: "Student 3" without names
  std::map<std::string, LabResult> results;  // by exercise
  std::map<std::string, SharedCode> shared;  // by exercise: what the student chose to share
};

struct Board {
  std::map<std::string, BoardStudent> students;  // by student id
  std::vector<std::string> exercises;            // in the order their first result came
  std::optional<FollowState> follow;             // where the presenter is
  std::uint64_t version = 0;                     // one more for each change

  // A student joins (again): a new name replaces the old. Refused when the class is full.
  Status join(const JoinRequest& join);
  // Records `result`; false when it changes nothing (the same or an older attempt). Refused when
  // the class or the exercise list is full.
  Result<bool> record(const LabResult& result);
  // Keeps `share` as the student's code for its exercise; false when it changes nothing (the same
  // or an older attempt). Refused when the class is full or the board's shared code would pass
  // kMaxSharedBytes.
  Result<bool> share(const SharedCode& share);
  // The bytes of code the board holds.
  [[nodiscard]] std::size_t shared_bytes() const;
};

// The board as JSON for the page and the app. Without `names`, each student shows as
// "Student N" (BoardStudent::number), for a projector.
// `followers` is the count the server sees following now.
// With `names` (the presenter's), each student also lists the exercises whose code they shared
// (exercise -> the share's attempt), not the code.
[[nodiscard]] std::string board_json(const Board& board, bool names, std::size_t followers);
// The shared code, for the presenter only: every student's (by number and name) per exercise.
[[nodiscard]] std::string shared_json(const Board& board);

// The board file: JSON, the same schema version; a missing file is an empty board, a damaged or
// foreign one an error naming the file (the server refuses to start over it rather than lose it).
[[nodiscard]] Result<Board> load_board(const std::string& path);
[[nodiscard]] Status save_board(const Board& board, const std::string& path);

}  // namespace tl::net
