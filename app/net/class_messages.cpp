#include "net/class_messages.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <random>

namespace tl::net {
namespace {

using nlohmann::json;

Error refused(std::string what) {
  return {ErrorKind::kParseError, std::move(what)};
}

bool all_of_alphabet(std::string_view text, bool (*allowed)(char)) {
  for (char c : text) {
    if (!allowed(c)) return false;
  }
  return true;
}

bool id_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}
bool student_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}
// Parameter values are numbers, sizes ("2^20", "16M"), dims ("16,16"), choices and flags: no
// space, quote, slash or anything a shell or a path would need.
bool value_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == ',' ||
         c == '.' || c == '^' || c == '_' || c == '+' || c == '-';
}
constexpr std::string_view kCodeAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
bool code_char(char c) {
  return kCodeAlphabet.find(c) != std::string_view::npos;
}

// Free text (a name, a failed check): valid UTF-8 is already guaranteed by the JSON parser; control
// characters are refused so a line on the board stays one line.
bool is_plain_text(std::string_view text, std::size_t max_bytes) {
  if (text.size() > max_bytes) return false;
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return false;
  }
  return true;
}

// The object's keys are exactly among `allowed` and it holds every one of `required`.
Status check_keys(const json& object, std::initializer_list<std::string_view> allowed,
                  std::initializer_list<std::string_view> required, std::string_view what) {
  for (const auto& [key, value] : object.items()) {
    bool known = false;
    for (auto name : allowed) known = known || key == name;
    if (!known) {
      return refused(std::string(what) + ": unknown field (only " + std::to_string(allowed.size()) +
                     " named fields are accepted)");
    }
  }
  for (auto name : required) {
    if (!object.contains(name))
      return refused(std::string(what) + ": missing \"" + std::string(name) + "\"");
  }
  return {};
}

// The envelope every message shares: an object of at most kMaxMessageBytes with the schema version
// and the expected type.
Result<json> open_message(std::string_view text, std::string_view type) {
  if (text.size() > kMaxMessageBytes) {
    return refused("message too large (" + std::to_string(text.size()) + " bytes, at most " +
                   std::to_string(kMaxMessageBytes) + ")");
  }
  json parsed = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) return refused("not JSON");
  if (!parsed.is_object()) return refused("not a JSON object");
  auto schema = parsed.find("schema");
  if (schema == parsed.end() || !schema->is_number_integer()) return refused("no schema version");
  if (schema->get<std::int64_t>() != kSchemaVersion) {
    return refused("schema version " + schema->dump() + " (this app speaks version " +
                   std::to_string(kSchemaVersion) + ")");
  }
  auto found = parsed.find("type");
  if (found == parsed.end() || !found->is_string() || found->get<std::string>() != type) {
    return refused("not a \"" + std::string(type) + "\" message");
  }
  return parsed;
}

Result<std::string> string_field(const json& object, const char* key, std::size_t max_bytes) {
  const json& value = object.at(key);
  if (!value.is_string()) return refused(std::string("\"") + key + "\" is not a string");
  auto text = value.get<std::string>();
  if (text.size() > max_bytes) return refused(std::string("\"") + key + "\" is too long");
  return text;
}

Result<std::uint64_t> count_field(const json& object, const char* key, std::uint64_t max) {
  const json& value = object.at(key);
  if (!value.is_number_unsigned() &&
      !(value.is_number_integer() && value.get<std::int64_t>() >= 0)) {
    return refused(std::string("\"") + key + "\" is not a non-negative integer");
  }
  auto number = value.get<std::uint64_t>();
  if (number > max) return refused(std::string("\"") + key + "\" is out of range");
  return number;
}

Result<double> milliseconds_field(const json& object, const char* key) {
  const json& value = object.at(key);
  if (!value.is_number()) return refused(std::string("\"") + key + "\" is not a number");
  double ms = value.get<double>();
  if (!std::isfinite(ms) || ms < 0 || ms > kMaxMilliseconds) {
    return refused(std::string("\"") + key + "\" is out of range");
  }
  return ms;
}

std::string random_from(std::string_view alphabet, std::size_t length) {
  std::random_device device;
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  std::string out;
  for (std::size_t i = 0; i < length; ++i) out.push_back(alphabet[pick(device)]);
  return out;
}

}  // namespace

const char* to_string(LabOutcome outcome) {
  switch (outcome) {
    case LabOutcome::kPassed:
      return "passed";
    case LabOutcome::kFailed:
      return "failed";
    case LabOutcome::kCompileError:
      return "compile-error";
    case LabOutcome::kUnavailable:
      return "unavailable";
  }
  return "unavailable";
}

std::optional<LabOutcome> lab_outcome_from(std::string_view text) {
  for (auto outcome : {LabOutcome::kPassed, LabOutcome::kFailed, LabOutcome::kCompileError,
                       LabOutcome::kUnavailable}) {
    if (text == to_string(outcome)) return outcome;
  }
  return std::nullopt;
}

bool is_identifier(std::string_view text) {
  return !text.empty() && text.size() <= kMaxIdBytes && all_of_alphabet(text, id_char);
}
bool is_student_id(std::string_view text) {
  return text.size() >= 8 && text.size() <= 64 && all_of_alphabet(text, student_char);
}
bool is_join_code(std::string_view text) {
  return text.size() >= 4 && text.size() <= 16 && all_of_alphabet(text, code_char);
}

std::string random_join_code(std::size_t length) {
  return random_from(kCodeAlphabet, length);
}
std::string random_student_id() {
  return random_from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", 22);
}
std::string random_presenter_key() {
  return random_from("0123456789abcdef", 32);
}

bool same_secret(std::string_view a, std::string_view b) {
  // The length is not secret (codes have a public format); the contents are compared in full.
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  }
  return diff == 0;
}

std::string to_json(const FollowState& state) {
  json out = {{"schema", kSchemaVersion}, {"type", "follow"},       {"seq", state.seq},
              {"lesson", state.lesson},   {"values", state.values}, {"view", state.view}};
  if (state.step) out["step"] = *state.step;
  return out.dump();
}

std::string to_json(const LabResult& result) {
  return json{{"schema", kSchemaVersion},
              {"type", "result"},
              {"student", result.student},
              {"name", result.name},
              {"exercise", result.exercise},
              {"outcome", to_string(result.outcome)},
              {"failed_check", result.failed_check},
              {"kernel_ms", result.kernel_ms},
              {"reference_ms", result.reference_ms},
              {"attempt", result.attempt}}
      .dump();
}

std::string to_json(const JoinRequest& join) {
  return json{
      {"schema", kSchemaVersion}, {"type", "join"}, {"student", join.student}, {"name", join.name}}
      .dump();
}

std::string to_json(const SharedCode& share) {
  return json{{"schema", kSchemaVersion},   {"type", "share"},
              {"student", share.student},   {"name", share.name},
              {"exercise", share.exercise}, {"code", share.code},
              {"attempt", share.attempt}}
      .dump();
}

Status check_shared_code(std::string_view code) {
  if (code.size() > kMaxSharedCodeBytes) {
    return refused("the code is " + std::to_string(code.size()) + " bytes; at most " +
                   std::to_string(kMaxSharedCodeBytes) + " can be shared");
  }
  for (char c : code) {
    auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\n' && c != '\r' && c != '\t') || u == 0x7f) {
      return refused("the code has a control character (only lines and tabs can be shared)");
    }
  }
  return {};
}

Status check_follow_state(const FollowState& state, const ParamCheck& check) {
  if (!is_identifier(state.lesson)) return refused("follow: the lesson is not a lesson id");
  if (!state.view.empty() && !is_identifier(state.view))
    return refused("follow: the view is not a view name");
  if (state.step && *state.step > kMaxStep) return refused("follow: the step is out of range");
  if (state.values.size() > kMaxParams) return refused("follow: too many parameters");
  for (const auto& [name, value] : state.values) {
    if (!is_identifier(name)) return refused("follow: a parameter name is not an identifier");
    if (value.empty() || value.size() > kMaxValueBytes || !all_of_alphabet(value, value_char)) {
      return refused("follow: the value of \"" + name + "\" is not a parameter value");
    }
  }
  if (check) {
    Status accepted = check(state.lesson, state.values);
    if (!accepted) return refused("follow: " + accepted.message());
  }
  return {};
}

Result<FollowState> parse_follow_state(std::string_view text, const ParamCheck& check) {
  auto message = open_message(text, "follow");
  if (!message) return message.error();
  const json& object = *message;
  TL_RETURN_IF_ERROR(check_keys(object,
                                {"schema", "type", "seq", "lesson", "values", "step", "view"},
                                {"seq", "lesson", "values"}, "follow"));
  FollowState state;
  auto seq = count_field(object, "seq", std::numeric_limits<std::int64_t>::max());
  if (!seq) return seq.error();
  state.seq = *seq;
  auto lesson = string_field(object, "lesson", kMaxIdBytes);
  if (!lesson) return lesson.error();
  state.lesson = *lesson;
  const json& values = object.at("values");
  if (!values.is_object()) return refused("follow: \"values\" is not an object");
  if (values.size() > kMaxParams) return refused("follow: too many parameters");
  for (const auto& [name, value] : values.items()) {
    if (!value.is_string()) return refused("follow: a parameter value is not a string");
    state.values[name] = value.get<std::string>();
  }
  if (object.contains("step")) {
    auto step = count_field(object, "step", kMaxStep);
    if (!step) return step.error();
    state.step = static_cast<std::uint32_t>(*step);
  }
  if (object.contains("view")) {
    auto view = string_field(object, "view", kMaxIdBytes);
    if (!view) return view.error();
    state.view = *view;
  }
  TL_RETURN_IF_ERROR(check_follow_state(state, check));
  return state;
}

Result<LabResult> parse_lab_result(std::string_view text) {
  auto message = open_message(text, "result");
  if (!message) return message.error();
  const json& object = *message;
  TL_RETURN_IF_ERROR(check_keys(object,
                                {"schema", "type", "student", "name", "exercise", "outcome",
                                 "failed_check", "kernel_ms", "reference_ms", "attempt"},
                                {"student", "exercise", "outcome", "attempt"}, "result"));
  LabResult result;
  auto student = string_field(object, "student", 64);
  if (!student) return student.error();
  if (!is_student_id(*student)) return refused("result: the student id is not one");
  result.student = *student;
  if (object.contains("name")) {
    auto name = string_field(object, "name", kMaxNameBytes);
    if (!name) return name.error();
    if (!is_plain_text(*name, kMaxNameBytes))
      return refused("result: the name is not one line of text");
    result.name = *name;
  }
  auto exercise = string_field(object, "exercise", kMaxIdBytes);
  if (!exercise) return exercise.error();
  if (!is_identifier(*exercise)) return refused("result: the exercise is not an exercise id");
  result.exercise = *exercise;
  auto outcome_text = string_field(object, "outcome", 32);
  if (!outcome_text) return outcome_text.error();
  auto outcome = lab_outcome_from(*outcome_text);
  if (!outcome) return refused("result: unknown outcome");
  result.outcome = *outcome;
  if (object.contains("failed_check")) {
    auto reason = string_field(object, "failed_check", kMaxReasonBytes);
    if (!reason) return reason.error();
    if (!is_plain_text(*reason, kMaxReasonBytes)) {
      return refused("result: the failed check is not one line of text");
    }
    result.failed_check = *reason;
  }
  for (auto [key, field] : {std::pair{"kernel_ms", &result.kernel_ms},
                            std::pair{"reference_ms", &result.reference_ms}}) {
    if (!object.contains(key)) continue;
    auto ms = milliseconds_field(object, key);
    if (!ms) return ms.error();
    *field = *ms;
  }
  auto attempt = count_field(object, "attempt", std::numeric_limits<std::int64_t>::max());
  if (!attempt) return attempt.error();
  result.attempt = *attempt;
  return result;
}

Result<JoinRequest> parse_join_request(std::string_view text) {
  auto message = open_message(text, "join");
  if (!message) return message.error();
  const json& object = *message;
  TL_RETURN_IF_ERROR(
      check_keys(object, {"schema", "type", "student", "name"}, {"student", "name"}, "join"));
  JoinRequest join;
  auto student = string_field(object, "student", 64);
  if (!student) return student.error();
  if (!is_student_id(*student)) return refused("join: the student id is not one");
  join.student = *student;
  auto name = string_field(object, "name", kMaxNameBytes);
  if (!name) return name.error();
  if (!is_plain_text(*name, kMaxNameBytes))
    return refused("join: the name is not one line of text");
  join.name = *name;
  return join;
}

Result<SharedCode> parse_shared_code(std::string_view text) {
  auto message = open_message(text, "share");
  if (!message) return message.error();
  const json& object = *message;
  TL_RETURN_IF_ERROR(
      check_keys(object, {"schema", "type", "student", "name", "exercise", "code", "attempt"},
                 {"student", "exercise", "code", "attempt"}, "share"));
  SharedCode share;
  auto student = string_field(object, "student", 64);
  if (!student) return student.error();
  if (!is_student_id(*student)) return refused("share: the student id is not one");
  share.student = *student;
  if (object.contains("name")) {
    auto name = string_field(object, "name", kMaxNameBytes);
    if (!name) return name.error();
    if (!is_plain_text(*name, kMaxNameBytes))
      return refused("share: the name is not one line of text");
    share.name = *name;
  }
  auto exercise = string_field(object, "exercise", kMaxIdBytes);
  if (!exercise) return exercise.error();
  if (!is_identifier(*exercise)) return refused("share: the exercise is not an exercise id");
  share.exercise = *exercise;
  auto code = string_field(object, "code", kMaxSharedCodeBytes);
  if (!code) return code.error();
  if (Status checked = check_shared_code(*code); !checked)
    return refused("share: " + checked.message());
  share.code = *code;
  auto attempt = count_field(object, "attempt", std::numeric_limits<std::int64_t>::max());
  if (!attempt) return attempt.error();
  share.attempt = *attempt;
  return share;
}

Result<JoinAddress> parse_join_address(std::string_view text) {
  auto usage = [&](const std::string& why) {
    return invalid_argument("'" + std::string(text.substr(0, 80)) + "' is not HOST:PORT/CODE (" +
                            why + ")");
  };
  auto slash = text.rfind('/');
  if (slash == std::string_view::npos) return usage("no /CODE");
  std::string_view address = text.substr(0, slash);
  std::string code(text.substr(slash + 1));
  for (char& c : code) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');  // typed in lower case
  }
  if (!is_join_code(code)) return usage("the code is 4 to 16 letters and digits");
  auto colon = address.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return usage("no :PORT");
  std::string_view host = address.substr(0, colon);
  std::string_view port_text = address.substr(colon + 1);
  int port = 0;
  auto [end, error] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (error != std::errc{} || end != port_text.data() + port_text.size() || port < 1 ||
      port > 65535) {
    return usage("the port is 1 to 65535");
  }
  if (host.size() > 253) return usage("the host name is too long");
  for (char c : host) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '-';
    if (!ok) return usage("the host is a name or an IPv4 address");
  }
  return JoinAddress{std::string(host), port, code};
}

}  // namespace tl::net
