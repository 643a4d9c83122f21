#pragma once
// The classroom's one message schema (version 1): what the presenter, the students' apps, the class
// server and the board page say to each other, as JSON. Messages are data only — a lesson id,
// parameter values as text, a step, a view, a Lab result — and every one is checked here before
// anything acts on it: a follower never runs code or opens a path it was sent, and parameter values
// pass the lesson's own checks (ParamCheck) before they reach the window.
//
// The parsers are strict on purpose: an unknown key, a wrong type, a string outside its alphabet or
// length, a number out of range or a message over kMaxMessageBytes is refused with one sentence, so
// a fuzzer's or an attacker's input can only ever be a refusal.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/lessons/lesson_params.hpp"
#include "core/result.hpp"

namespace tl::net {

inline constexpr int kSchemaVersion = 1;
// The largest request body or message the server and the client accept. A follow state with every
// parameter at its longest is under 3 KiB; a result under 1 KiB.
inline constexpr std::size_t kMaxMessageBytes = 16 * 1024;
inline constexpr std::size_t kMaxParams = 32;
inline constexpr std::size_t kMaxIdBytes = 64;       // lesson, exercise, view, parameter names
inline constexpr std::size_t kMaxValueBytes = 32;    // one parameter value: "16,16,4", "2^24"
inline constexpr std::size_t kMaxNameBytes = 40;     // a student's display name (UTF-8)
inline constexpr std::size_t kMaxReasonBytes = 200;  // the check that failed, in one line
inline constexpr std::uint32_t kMaxStep = 10000;
// A student's kernel shared with the teacher: the Lab's exercises are a screenful or two; the rest
// of the message (ids, name) is well under the difference to kMaxMessageBytes.
inline constexpr std::size_t kMaxSharedCodeBytes = 12 * 1024;
inline constexpr double kMaxMilliseconds = 1e7;

// Where the presenter is: every follower's window shows the same lesson, parameters, step and view.
// `seq` is given by the server, one more for each state it accepts, so a follower that reconnects
// asks for what came after the last one it saw.
struct FollowState {
  std::uint64_t seq = 0;
  std::string lesson;           // a lesson id: "vector-add"
  lessons::ParamValues values;  // the lesson's parameters as text: {"n": "2048", "block": "256"}
  std::optional<std::uint32_t> step;  // the guided step on screen, 0-based
  std::string view;  // the results tab in front ("grid", "timing"); empty: unchanged
  friend bool operator==(const FollowState&, const FollowState&) = default;
};

enum class LabOutcome { kPassed, kFailed, kCompileError, kUnavailable };
[[nodiscard]] const char* to_string(LabOutcome outcome);
[[nodiscard]] std::optional<LabOutcome> lab_outcome_from(std::string_view text);

// One Kernel Lab check of one student, for the board. The student's code is not in it.
struct LabResult {
  std::string student;  // the student's random id (StudentId), stable across reconnects
  std::string name;     // as the student typed it; the board may hide it
  std::string exercise;
  LabOutcome outcome = LabOutcome::kUnavailable;
  std::string failed_check;  // why it failed, one line; empty when it passed
  double kernel_ms = 0;      // 0: not timed
  double reference_ms = 0;   // the reference solution in the same run; 0: not timed
  // Counts the student's checks: a result sent again after a cut connection has the same attempt
  // and is counted once; an older attempt never replaces a newer one.
  std::uint64_t attempt = 0;
  friend bool operator==(const LabResult&, const LabResult&) = default;
};

// A student's code for one exercise, sent only when the student pressed "Share with the teacher"
// (nothing else carries code). The board keeps the latest per student and exercise, for the
// presenter's eyes only (its key), since every student has the join code.
struct SharedCode {
  std::string student;
  std::string name;
  std::string exercise;
  std::string code;  // UTF-8 text: lines and tabs, no other control characters
  // As a result's: a resend counts once; an older share never replaces a newer one.
  std::uint64_t attempt = 0;
  friend bool operator==(const SharedCode&, const SharedCode&) = default;
};

// A student announcing themselves (so the board lists them before their first check).
struct JoinRequest {
  std::string student;
  std::string name;
  friend bool operator==(const JoinRequest&, const JoinRequest&) = default;
};

// The lesson's own check of a follow state's parameters: Status::ok() when the lesson `lesson`
// exists and accepts `values` (its configure). The app and the CLI give one built on the lesson
// registry; the net layer knows no lesson.
using ParamCheck =
    std::function<Status(const std::string& lesson, const lessons::ParamValues& values)>;

// Serialisation: always a complete message with "schema" and "type".
[[nodiscard]] std::string to_json(const FollowState& state);
[[nodiscard]] std::string to_json(const LabResult& result);
[[nodiscard]] std::string to_json(const JoinRequest& join);
[[nodiscard]] std::string to_json(const SharedCode& share);

// Parsing and checking, in that order: size, JSON, schema version, type, keys, each field's type,
// alphabet, length and range; for a follow state also `check` (when given). Nothing is returned
// that did not pass every test.
[[nodiscard]] Result<FollowState> parse_follow_state(std::string_view text,
                                                     const ParamCheck& check = {});
[[nodiscard]] Result<LabResult> parse_lab_result(std::string_view text);
[[nodiscard]] Result<JoinRequest> parse_join_request(std::string_view text);
[[nodiscard]] Result<SharedCode> parse_shared_code(std::string_view text);
// The code a student may share: at most kMaxSharedCodeBytes, no control characters but newlines,
// carriage returns and tabs. Said before anything is sent, so the student reads why.
[[nodiscard]] Status check_shared_code(std::string_view code);

// A follow state built in the app (not parsed) checked the same way before it is sent.
[[nodiscard]] Status check_follow_state(const FollowState& state, const ParamCheck& check = {});

// The field checks, for the server's query parameters and the join code.
[[nodiscard]] bool is_identifier(std::string_view text);  // [a-z0-9_-], 1..kMaxIdBytes
[[nodiscard]] bool is_student_id(std::string_view text);  // [A-Za-z0-9_-], 8..64
// A join code: 4 to 16 characters of A-Z and 2-9 (no 0/O or 1/I to misread off a projector).
[[nodiscard]] bool is_join_code(std::string_view text);
// A random join code of `length` characters from that alphabet.
[[nodiscard]] std::string random_join_code(std::size_t length = 6);
// A random student id (a client keeps it for the session; 22 characters of base64url).
[[nodiscard]] std::string random_student_id();
// A random secret for the presenter's requests (32 hex characters).
[[nodiscard]] std::string random_presenter_key();
// Compares secrets in time that does not depend on where they first differ.
[[nodiscard]] bool same_secret(std::string_view a, std::string_view b);

// "host:port/CODE" as typed after `--join` or in the Join class dialog.
struct JoinAddress {
  std::string host;
  int port = 0;
  std::string code;
  friend bool operator==(const JoinAddress&, const JoinAddress&) = default;
};
[[nodiscard]] Result<JoinAddress> parse_join_address(std::string_view text);

}  // namespace tl::net
