// The message schema: round trips, every refusal the issue asks for (size, unknown fields, types,
// alphabets, ranges, the lesson's own limits), and a fuzz-style pass of mutated and random
// messages that must all be refused or parse into something that passes the same checks again.

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "net/class_messages.hpp"

namespace tl::net {
namespace {

FollowState sample_state() {
  FollowState state;
  state.seq = 7;
  state.lesson = "vector-add";
  state.values = {{"n", "2^20"}, {"block", "256"}, {"grid", "auto"}};
  state.step = 3;
  state.view = "grid";
  return state;
}

LabResult sample_result() {
  LabResult result;
  result.student = "AbCdEfGh12345678_-xy";
  result.name = "Ada Lovelace";
  result.exercise = "vector-add";
  result.outcome = LabOutcome::kFailed;
  result.failed_check = "element 7 is 0, expected 14";
  result.kernel_ms = 0.25;
  result.reference_ms = 0.2;
  result.attempt = 3;
  return result;
}

// A lesson check like the app's: only vector-add exists, and its n is at most 2^24 (a stand-in
// for the lesson's configure, which the app and CLI wire in).
Status fake_lesson_check(const std::string& lesson, const lessons::ParamValues& values) {
  if (lesson != "vector-add") return invalid_argument("no lesson " + lesson);
  auto n = values.find("n");
  if (n != values.end() && n->second == "2^30") return invalid_argument("n is at most 2^24");
  for (const auto& [name, value] : values) {
    if (name != "n" && name != "block" && name != "grid")
      return invalid_argument("vector-add has no " + name);
  }
  return {};
}

TEST(ClassMessages, FollowStateRoundTrips) {
  FollowState state = sample_state();
  auto parsed = parse_follow_state(to_json(state), fake_lesson_check);
  ASSERT_TRUE(parsed) << parsed.message();
  EXPECT_EQ(*parsed, state);
  state.step.reset();
  state.view.clear();
  auto bare = parse_follow_state(to_json(state));
  ASSERT_TRUE(bare) << bare.message();
  EXPECT_EQ(*bare, state);
}

TEST(ClassMessages, LabResultAndJoinRoundTrip) {
  auto result = parse_lab_result(to_json(sample_result()));
  ASSERT_TRUE(result) << result.message();
  EXPECT_EQ(*result, sample_result());
  JoinRequest join{"AbCdEfGh12345678", "Grace"};
  auto parsed = parse_join_request(to_json(join));
  ASSERT_TRUE(parsed) << parsed.message();
  EXPECT_EQ(*parsed, join);
}

TEST(ClassMessages, TheLessonsOwnLimitsRefuseAState) {
  FollowState state = sample_state();
  state.values["n"] = "2^30";
  auto refused = parse_follow_state(to_json(state), fake_lesson_check);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.message().find("at most 2^24"), std::string::npos) << refused.message();
  state = sample_state();
  state.lesson = "no-such-lesson";
  EXPECT_FALSE(parse_follow_state(to_json(state), fake_lesson_check));
  state = sample_state();
  state.values["exercise"] = "vector-add";  // not a parameter of the lesson
  EXPECT_FALSE(parse_follow_state(to_json(state), fake_lesson_check));
}

TEST(ClassMessages, DataOnlyRefusesPathsCommandsAndStrangeText) {
  const char* bad_values[] = {"../../etc/passwd",
                              "$(rm -rf ~)",
                              "a b",
                              "x;y",
                              "",
                              "\"q\"",
                              "123456789012345678901234567890123"};  // 33 characters
  for (const char* value : bad_values) {
    FollowState state = sample_state();
    state.values["n"] = value;
    EXPECT_FALSE(parse_follow_state(to_json(state))) << value;
  }
  FollowState state = sample_state();
  state.lesson = "../lessons";
  EXPECT_FALSE(parse_follow_state(to_json(state)));
  state = sample_state();
  state.view = "Grid View";
  EXPECT_FALSE(parse_follow_state(to_json(state)));
  state = sample_state();
  state.step = kMaxStep + 1;
  EXPECT_FALSE(parse_follow_state(to_json(state)));

  LabResult result = sample_result();
  result.name = "two\nlines";
  EXPECT_FALSE(parse_lab_result(to_json(result)));
  result = sample_result();
  result.student = "short";
  EXPECT_FALSE(parse_lab_result(to_json(result)));
  result = sample_result();
  result.failed_check = std::string(kMaxReasonBytes + 1, 'x');
  EXPECT_FALSE(parse_lab_result(to_json(result)));
  result = sample_result();
  result.kernel_ms = -1;
  EXPECT_FALSE(parse_lab_result(to_json(result)));
}

TEST(ClassMessages, TheEnvelopeIsChecked) {
  EXPECT_FALSE(parse_follow_state("not json"));
  EXPECT_FALSE(parse_follow_state("[1,2,3]"));
  EXPECT_FALSE(
      parse_follow_state(R"({"type":"follow","seq":1,"lesson":"a","values":{}})"));  // no schema
  EXPECT_FALSE(
      parse_follow_state(R"({"schema":2,"type":"follow","seq":1,"lesson":"a","values":{}})"));
  EXPECT_FALSE(
      parse_follow_state(R"({"schema":1,"type":"result","seq":1,"lesson":"a","values":{}})"));
  EXPECT_TRUE(
      parse_follow_state(R"({"schema":1,"type":"follow","seq":1,"lesson":"a","values":{}})"));
  // An unknown field: data only, and only the schema's.
  EXPECT_FALSE(parse_follow_state(
      R"({"schema":1,"type":"follow","seq":1,"lesson":"a","values":{},"run":"rm -rf /"})"));
  // Wrong types.
  EXPECT_FALSE(
      parse_follow_state(R"({"schema":1,"type":"follow","seq":"1","lesson":"a","values":{}})"));
  EXPECT_FALSE(
      parse_follow_state(R"({"schema":1,"type":"follow","seq":-1,"lesson":"a","values":{}})"));
  EXPECT_FALSE(
      parse_follow_state(R"({"schema":1,"type":"follow","seq":1,"lesson":"a","values":{"n":5}})"));
  EXPECT_FALSE(
      parse_follow_state(R"({"schema":1,"type":"follow","seq":1,"lesson":"a","values":[]})"));
  EXPECT_FALSE(parse_lab_result(
      R"({"schema":1,"type":"result","student":"abcdefgh","exercise":"e","outcome":"won","attempt":1})"));
  EXPECT_TRUE(parse_lab_result(
      R"({"schema":1,"type":"result","student":"abcdefgh","exercise":"e","outcome":"passed","attempt":1})"));
}

TEST(ClassMessages, OversizedMessagesAreRefusedBeforeParsing) {
  std::string padding(kMaxMessageBytes, ' ');
  std::string message =
      R"({"schema":1,"type":"follow","seq":1,"lesson":"a","values":{}})" + padding;
  auto refused = parse_follow_state(message);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.message().find("too large"), std::string::npos);
  FollowState state = sample_state();
  for (std::size_t i = 0; i <= kMaxParams; ++i) state.values["p" + std::to_string(i)] = "1";
  EXPECT_FALSE(parse_follow_state(to_json(state)));
}

TEST(ClassMessages, JoinAddressesAndCodes) {
  auto address = parse_join_address("192.168.1.20:8737/k7QM2X");
  ASSERT_TRUE(address) << address.message();
  EXPECT_EQ(*address, (JoinAddress{"192.168.1.20", 8737, "K7QM2X"}));
  EXPECT_TRUE(parse_join_address("teacher-pc.local:80/ABCD"));
  EXPECT_FALSE(parse_join_address("host:8737"));
  EXPECT_FALSE(parse_join_address("host/ABCD"));
  EXPECT_FALSE(parse_join_address("host:0/ABCD"));
  EXPECT_FALSE(parse_join_address("host:70000/ABCD"));
  EXPECT_FALSE(parse_join_address("host:80/AB"));
  EXPECT_FALSE(parse_join_address("host:80/ABC0"));  // 0 is not in the alphabet
  EXPECT_FALSE(parse_join_address("ho st:80/ABCD"));
  for (int i = 0; i < 50; ++i) {
    EXPECT_TRUE(is_join_code(random_join_code()));
    EXPECT_TRUE(is_student_id(random_student_id()));
  }
  EXPECT_TRUE(same_secret("ABCD", "ABCD"));
  EXPECT_FALSE(same_secret("ABCD", "ABCE"));
  EXPECT_FALSE(same_secret("ABCD", "ABCDE"));
}

// Fuzz-style: byte flips, truncations, insertions and splices of valid messages, plus random
// bytes. Nothing may crash, and whatever parses must be a message that passes every check again
// (its own serialisation parses to the same value): the parser never lets through something the
// checks would refuse.
TEST(ClassMessages, MalformedMessagesAreRefusedOrCleanlyParsed) {
  std::mt19937 random(37);
  const std::string seeds[] = {to_json(sample_state()), to_json(sample_result()),
                               to_json(JoinRequest{"AbCdEfGh12345678", "Grace"})};
  const std::string tokens[] = {"{",
                                "}",
                                "[",
                                "]",
                                "\"",
                                ":",
                                ",",
                                "null",
                                "true",
                                "1e999",
                                "-0",
                                "\\u0000",
                                "\\ud800",
                                "\"schema\":1",
                                "\"values\":{}",
                                "\xff",
                                "\n"};
  int parsed = 0;
  int refused = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string text = seeds[random() % 3];
    int edits = 1 + static_cast<int>(random() % 4);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      std::size_t at = random() % text.size();
      switch (random() % 5) {
        case 0:
          text[at] = static_cast<char>(random() % 256);
          break;
        case 1:
          text.erase(at, 1 + random() % 8);
          break;
        case 2:
          text.insert(at, tokens[random() % std::size(tokens)]);
          break;
        case 3:
          text.resize(at);
          break;
        default:
          text.insert(at, seeds[random() % 3].substr(0, random() % 40));
          break;
      }
    }
    if (round % 10 == 0) {
      text.clear();
      for (std::size_t i = random() % 200; i > 0; --i)
        text.push_back(static_cast<char>(random() % 256));
    }
    auto state = parse_follow_state(text, fake_lesson_check);
    auto result = parse_lab_result(text);
    auto join = parse_join_request(text);
    if (state) {
      ++parsed;
      auto again = parse_follow_state(to_json(*state), fake_lesson_check);
      ASSERT_TRUE(again) << text;
      EXPECT_EQ(*again, *state);
    }
    if (result) {
      ++parsed;
      auto again = parse_lab_result(to_json(*result));
      ASSERT_TRUE(again) << text;
      EXPECT_EQ(*again, *result);
    }
    if (join) {
      ++parsed;
      auto again = parse_join_request(to_json(*join));
      ASSERT_TRUE(again) << text;
      EXPECT_EQ(*again, *join);
    }
    if (!state && !result && !join) ++refused;
  }
  // The mutations reach both sides: most are refused, and some still parse (a changed digit).
  EXPECT_GT(refused, 10000);
  EXPECT_GT(parsed, 0);
}

}  // namespace
}  // namespace tl::net

namespace tl::net {
namespace {

SharedCode share_of(std::string code) {
  SharedCode share;
  share.student = "student-aaaa";
  share.name = "Ada";
  share.exercise = "vector-add";
  share.code = std::move(code);
  share.attempt = 3;
  return share;
}

TEST(ClassMessages, SharedCodeRoundTripsAndIsBounded) {
  const SharedCode share =
      share_of("__global__ void add(float* c) {\n\tc[threadIdx.x] = 1; // <b>\"&\"</b>\r\n}\n");
  auto parsed = parse_shared_code(to_json(share));
  ASSERT_TRUE(parsed) << parsed.message();
  EXPECT_EQ(*parsed, share);

  // At the limit it is shared; one byte over, refused with the sizes, before and after sending.
  EXPECT_TRUE(parse_shared_code(to_json(share_of(std::string(kMaxSharedCodeBytes, 'x')))));
  const std::string over(kMaxSharedCodeBytes + 1, 'x');
  EXPECT_FALSE(check_shared_code(over));
  EXPECT_NE(check_shared_code(over).message().find("at most 12288"), std::string::npos)
      << check_shared_code(over).message();
  EXPECT_FALSE(parse_shared_code(to_json(share_of(over))));

  // Control characters other than lines and tabs, a path for an exercise, a foreign student id,
  // a missing or extra field: refused.
  EXPECT_FALSE(parse_shared_code(to_json(share_of(std::string("a\x1b[2Jb")))));
  SharedCode bad = share;
  bad.exercise = "../etc";
  EXPECT_FALSE(parse_shared_code(to_json(bad)));
  bad = share;
  bad.student = "no";
  EXPECT_FALSE(parse_shared_code(to_json(bad)));
  EXPECT_FALSE(parse_shared_code(
      R"({"schema":1,"type":"share","student":"student-aaaa","exercise":"x","attempt":1})"));
  EXPECT_FALSE(parse_shared_code(
      R"({"schema":1,"type":"share","student":"student-aaaa","exercise":"x","code":"",)"
      R"("attempt":1,"path":"/etc/passwd"})"));
  // A result is not a share, and a share is not a result.
  EXPECT_FALSE(parse_lab_result(to_json(share)));
  LabResult result;
  result.student = "student-aaaa";
  result.exercise = "vector-add";
  EXPECT_FALSE(parse_shared_code(to_json(result)));
}

}  // namespace
}  // namespace tl::net
