// The class server and client on loopback (127.0.0.1, a free port each): the join code gates
// every request, bad input is refused and the server stays up, followers get the presenter's
// states and step away and back, results survive a cut connection and a restarted server, and 60
// students follow a scripted sequence without losing a step or a result. Waits are bounded
// (wait_until), never asserted on: the times are the bench's business (docs/PERFORMANCE.md).

#include <gtest/gtest.h>
#include <httplib.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <random>
#include <thread>

#include "net/class_bench.hpp"
#include "net/class_client.hpp"
#include "net/class_server.hpp"

namespace tl::net {
namespace {

using namespace std::chrono_literals;

// True once `condition` holds; false after `limit` (the test then fails on what it waited for).
bool wait_until(const std::function<bool()>& condition, std::chrono::milliseconds limit = 20s) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(5ms);
  }
  return true;
}

ClassServerOptions loopback(std::string code = "K7QM2X") {
  ClassServerOptions options;
  options.bind = "127.0.0.1";
  options.code = std::move(code);
  options.poll_wait = 2s;  // short, so a stopped test never waits long on a poll
  return options;
}

ClassClientOptions client_for(const ClassServer& server, std::string name, std::string code = "") {
  ClassClientOptions options;
  options.address = {"127.0.0.1", server.port(), code.empty() ? server.code() : code};
  options.name = std::move(name);
  options.wait = 1s;
  options.retry_min = 20ms;
  options.retry_max = 200ms;
  return options;
}

FollowState state_of(const std::string& lesson, const std::string& n, std::uint32_t step) {
  FollowState state;
  state.lesson = lesson;
  state.values = {{"n", n}};
  state.step = step;
  state.view = "grid";
  return state;
}

LabResult passed(const std::string& exercise, double ms) {
  LabResult result;
  result.exercise = exercise;
  result.outcome = LabOutcome::kPassed;
  result.kernel_ms = ms;
  result.reference_ms = 1;
  return result;
}

std::string scratch_board(const std::string& name) {
  auto dir =
      std::filesystem::temp_directory_path() / ("threadlab-class-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto path = dir / name;
  std::filesystem::remove(path);
  return path.string();
}

std::string valid_result_body(const std::string& student = "student-raw-1") {
  LabResult result = passed("vector-add", 2);
  result.student = student;
  result.attempt = 1;
  return to_json(result);
}

TEST(ClassServer, AWrongJoinCodeIsRefusedOnEveryPath) {
  ClassServerOptions options = loopback();
  options.wrong_code_burst = 1000;  // this test counts 403s; the next one counts 429s
  ClassServer server(options);
  ASSERT_TRUE(server.start());
  httplib::Client http("127.0.0.1", server.port());
  for (const char* path :
       {"/board", "/api/v1/board", "/api/v1/follow?student=abcdefgh", "/", "/nothing"}) {
    auto none = http.Get(path);
    ASSERT_TRUE(none) << path;
    EXPECT_EQ(none->status, 403) << path;
    auto wrong = http.Get(path, {{"X-Class-Code", "WRONG2"}});
    ASSERT_TRUE(wrong) << path;
    EXPECT_EQ(wrong->status, 403) << path;
    auto in_query =
        http.Get(std::string(path) +
                 (std::string(path).find('?') != std::string::npos ? "&" : "?") + "code=K7QM2Y");
    ASSERT_TRUE(in_query);
    EXPECT_EQ(in_query->status, 403) << path;
  }
  auto post = http.Post("/api/v1/result", {{"X-Class-Code", "WRONG2"}}, valid_result_body(),
                        "application/json");
  ASSERT_TRUE(post);
  EXPECT_EQ(post->status, 403);
  EXPECT_TRUE(server.board().students.empty());  // nothing recorded
  // A student with the wrong code is told so, and stops trying.
  ClassClient client(client_for(server, "Eve", "WRONG2"));
  client.start();
  ASSERT_TRUE(wait_until([&] { return client.status().state == ClientState::kRefused; }));
  EXPECT_TRUE(server.board().students.empty());
  // The right code still works: the server is alive.
  auto right = http.Get("/board?code=K7QM2X");
  ASSERT_TRUE(right);
  EXPECT_EQ(right->status, 200);
  EXPECT_NE(right->body.find("ThreadLab class board"), std::string::npos);
}

TEST(ClassServer, GuessingTheCodeIsSlowedDown) {
  ClassServerOptions options = loopback();
  options.wrong_code_burst = 5;
  options.wrong_code_per_second = 0.01;
  ClassServer server(options);
  ASSERT_TRUE(server.start());
  httplib::Client http("127.0.0.1", server.port());
  int refused = 0;
  int limited = 0;
  for (int i = 0; i < 20; ++i) {
    auto guess = http.Get("/api/v1/board",
                          {{"X-Class-Code", "GUESS" + std::string(1, static_cast<char>('A' + i))}});
    ASSERT_TRUE(guess);
    refused += guess->status == 403;
    limited += guess->status == 429;
  }
  EXPECT_EQ(refused, 5);
  EXPECT_EQ(limited, 15);
}

TEST(ClassServer, OversizedMalformedAndFuzzedBodiesAreRefusedAndTheServerStaysUp) {
  ClassServer server(loopback());
  ASSERT_TRUE(server.start());
  httplib::Client http("127.0.0.1", server.port());
  httplib::Headers code = {{"X-Class-Code", "K7QM2X"}};
  std::string huge(kMaxMessageBytes + 1, 'x');
  for (const char* path : {"/api/v1/result", "/api/v1/join", "/api/v1/follow"}) {
    auto oversized = http.Post(path, code, huge, "application/json");
    if (oversized) {
      EXPECT_EQ(oversized->status, 413) << path;  // or the connection is closed
    }
  }
  std::mt19937 random(37);
  std::string seed = valid_result_body();
  int accepted = 0;
  for (int i = 0; i < 300; ++i) {
    std::string body = seed;
    for (int e = 0; e < 3; ++e) body[random() % body.size()] = static_cast<char>(random() % 256);
    auto answer = http.Post("/api/v1/result", code, body, "application/json");
    ASSERT_TRUE(answer) << "the server went away after " << i << " fuzzed bodies";
    ASSERT_TRUE(answer->status == 200 || answer->status == 400 || answer->status == 429)
        << answer->status;
    if (answer->status == 200) {
      ++accepted;
      EXPECT_TRUE(parse_lab_result(body)) << "accepted what the schema refuses: " << body;
    }
  }
  EXPECT_LT(accepted, 300);
  // A follow state from a student (no presenter key) is refused, and so is one the lessons refuse.
  auto not_presenter = http.Post("/api/v1/follow", code, to_json(state_of("vector-add", "1", 0)),
                                 "application/json");
  ASSERT_TRUE(not_presenter);
  EXPECT_EQ(not_presenter->status, 403);
  auto alive = http.Get("/api/v1/board?wait_ms=0", code);
  ASSERT_TRUE(alive);
  EXPECT_EQ(alive->status, 200);
}

TEST(ClassServer, ThePresentersStatesAreCheckedByTheLessons) {
  ClassServerOptions options = loopback();
  options.check = [](const std::string& lesson, const lessons::ParamValues& values) -> Status {
    if (lesson != "vector-add") return invalid_argument("no lesson " + lesson);
    if (values.contains("n") && values.at("n") == "2^40") return invalid_argument("n is too large");
    return {};
  };
  ClassServer server(options);
  ASSERT_TRUE(server.start());
  EXPECT_FALSE(server.publish(state_of("vector-add", "2^40", 0)));
  EXPECT_FALSE(server.publish(state_of("other", "1", 0)));
  EXPECT_FALSE(server.board().follow);
  httplib::Client http("127.0.0.1", server.port());
  httplib::Headers presenter = {{"X-Class-Code", "K7QM2X"},
                                {"X-Presenter-Key", server.presenter_key()}};
  auto refused = http.Post("/api/v1/follow", presenter, to_json(state_of("vector-add", "2^40", 0)),
                           "application/json");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 400);
  auto moved = http.Post("/api/v1/follow", presenter, to_json(state_of("vector-add", "4096", 1)),
                         "application/json");
  ASSERT_TRUE(moved);
  EXPECT_EQ(moved->status, 200);
  ASSERT_TRUE(server.board().follow);
  EXPECT_EQ(server.board().follow->values.at("n"), "4096");
}

TEST(ClassServer, AFollowerFollowsStepsAwayAndRejoins) {
  ClassServer server(loopback());
  ASSERT_TRUE(server.start());
  ClassClient client(client_for(server, "Ada"));
  client.start();
  ASSERT_TRUE(wait_until([&] { return server.followers() == 1; }));
  auto first = server.publish(state_of("vector-add", "1024", 0));
  ASSERT_TRUE(first);
  std::optional<FollowState> got;
  ASSERT_TRUE(wait_until([&] { return (got = client.take_follow()).has_value(); }));
  EXPECT_EQ(*got, *first);
  EXPECT_FALSE(client.take_follow());  // taken once

  client.set_following(false);
  EXPECT_EQ(client.status().state, ClientState::kSteppedAway);
  auto second = server.publish(state_of("vector-add", "2048", 1));
  ASSERT_TRUE(second);
  ASSERT_TRUE(wait_until([&] { return client.status().seq == second->seq; }));
  EXPECT_FALSE(client.take_follow());  // exploring: the window is left alone
  ASSERT_TRUE(wait_until([&] { return server.followers() == 0; }));  // the presenter sees it

  client.set_following(true);
  got = client.take_follow();  // rejoining catches up at once, without waiting for the network
  ASSERT_TRUE(got);
  EXPECT_EQ(*got, *second);
  ASSERT_TRUE(wait_until([&] { return server.followers() == 1; }));
}

TEST(ClassServer, AFollowerRefusesWhatItsOwnLessonsRefuse) {
  ClassServer server(loopback());  // a headless server without the lessons' checks
  ASSERT_TRUE(server.start());
  ClassClientOptions options = client_for(server, "Ada");
  options.check = [](const std::string& lesson, const lessons::ParamValues&) -> Status {
    return lesson == "vector-add" ? Status{} : Status{invalid_argument("no lesson " + lesson)};
  };
  ClassClient client(options);
  client.start();
  ASSERT_TRUE(server.publish(state_of("not-installed-here", "1", 0)));
  ASSERT_TRUE(wait_until([&] { return client.status().follow_refused == 1; }));
  EXPECT_FALSE(client.take_follow());
  EXPECT_NE(client.status().message.find("no lesson not-installed-here"), std::string::npos);
  auto good = server.publish(state_of("vector-add", "8", 1));
  ASSERT_TRUE(good);
  std::optional<FollowState> got;
  ASSERT_TRUE(wait_until([&] { return (got = client.take_follow()).has_value(); }));
  EXPECT_EQ(got->seq, good->seq);
}

TEST(ClassServer, ACutConnectionResumesWithoutLosingTheBoardOrAResult) {
  ClassServerOptions options = loopback();
  options.port = 0;
  ClassServer server(options);
  ASSERT_TRUE(server.start());
  int port = server.port();
  ClassClient client(client_for(server, "Ada"));
  client.start();
  client.post_result(passed("vector-add", 1.5));
  ASSERT_TRUE(wait_until([&] { return client.status().results_sent == 1; }));

  server.stop();                              // every connection cut
  client.post_result(passed("matmul", 3.0));  // sent while the server is away
  ASSERT_TRUE(wait_until([&] { return client.status().state == ClientState::kReconnecting; }));
  EXPECT_EQ(client.status().results_queued, 1u);

  // The same server on the same port, as a presenter's app that lost its network for a moment.
  ASSERT_TRUE(server.start());
  ASSERT_EQ(server.port(), port);
  ASSERT_TRUE(wait_until([&] { return client.status().results_queued == 0; }));
  Board board = server.board();
  ASSERT_EQ(board.students.size(), 1u);
  const auto& results = board.students.begin()->second.results;
  EXPECT_TRUE(results.contains("vector-add"));  // kept through the cut
  EXPECT_TRUE(results.contains("matmul"));      // delivered after it
  auto state = server.publish(state_of("vector-add", "64", 2));
  ASSERT_TRUE(state);
  std::optional<FollowState> got;
  ASSERT_TRUE(wait_until(
      [&] { return (got = client.take_follow()).has_value() && got->seq == state->seq; }));
  EXPECT_GE(client.status().reconnects, 1u);
}

TEST(ClassServer, ARestartedServerKeepsTheBoardAndStudentsReconnectByThemselves) {
  std::string file = scratch_board("restart.json");
  ClassServerOptions options = loopback();
  options.board_file = file;
  auto first = std::make_unique<ClassServer>(options);
  ASSERT_TRUE(first->start());
  int port = first->port();
  ClassClient ada(client_for(*first, "Ada"));
  ClassClient bob(client_for(*first, "Bob"));
  ada.start();
  bob.start();
  auto step = first->publish(state_of("vector-add", "4096", 3));
  ASSERT_TRUE(step);
  ada.post_result(passed("vector-add", 1.0));
  bob.post_result(passed("matmul", 2.0));
  ASSERT_TRUE(
      wait_until([&] { return ada.status().results_sent == 1 && bob.status().results_sent == 1; }));
  first.reset();  // the presenter's app closes (saving the board)

  ada.post_result(passed("matmul", 4.0));  // while no server runs
  options.port = port;
  ClassServer second(options);
  ASSERT_TRUE(second.start());
  Board board = second.board();
  EXPECT_EQ(board.students.size(), 2u);
  ASSERT_TRUE(board.follow);
  EXPECT_EQ(board.follow->seq, step->seq);  // the presenter is where it was
  EXPECT_NE(second.board_json(true).find("\"Bob\""), std::string::npos);
  ASSERT_TRUE(wait_until([&] { return ada.status().results_queued == 0; }));
  EXPECT_TRUE(second.board().students.at(ada.student_id()).results.contains("matmul"));
  auto next = second.publish(state_of("vector-add", "8192", 4));
  ASSERT_TRUE(next);
  EXPECT_EQ(next->seq, step->seq + 1);  // the numbering goes on, so followers see it as new
  std::optional<FollowState> got;
  ASSERT_TRUE(wait_until([&] {
    auto taken = bob.take_follow();
    if (taken) got = taken;
    return got && got->seq == next->seq;
  }));
}

TEST(ClassServer, ASecondServerOnTheSamePortIsRefused) {
  ClassServer first(loopback());
  ASSERT_TRUE(first.start());
  ClassServerOptions options = loopback();
  options.port = first.port();
  ClassServer second(options);
  auto started = second.start();
  ASSERT_FALSE(started);
  EXPECT_NE(started.message().find("cannot listen"), std::string::npos) << started.message();
  EXPECT_TRUE(first.running());
}

TEST(ClassServer, ADamagedBoardFileStopsTheServerFromStarting) {
  std::string file = scratch_board("damaged.json");
  {
    std::FILE* out = std::fopen(file.c_str(), "w");
    ASSERT_NE(out, nullptr);
    std::fputs("{ not a board", out);
    std::fclose(out);
  }
  ClassServerOptions options = loopback();
  options.board_file = file;
  ClassServer server(options);
  auto started = server.start();
  ASSERT_FALSE(started);
  EXPECT_NE(started.message().find("damaged.json"), std::string::npos);
  EXPECT_FALSE(server.running());
}

TEST(ClassServer, SixtyStudentsFollowAScriptedSequenceWithoutLosingAStepOrAResult) {
  ClassBenchOptions options;
  options.students = 60;
  options.steps = 12;
  options.interval = 150ms;
  auto report = run_class_bench(options);
  ASSERT_TRUE(report) << report.message();
  std::cout << format_class_bench(*report);
  EXPECT_EQ(report->missed, 0u);
  EXPECT_EQ(report->deliveries, 60u * 12u);
  EXPECT_EQ(report->results_acknowledged, report->results_posted);
  EXPECT_EQ(report->cells_right, report->cells_expected);
  EXPECT_EQ(report->cells_expected, 60u * 4u);
  EXPECT_EQ(report->followers_seen, 60u);
}

}  // namespace
}  // namespace tl::net

namespace tl::net {
namespace {

TEST(ClassServerFile, ANewClassLeavesItsBoardFileWhenItStops) {
  std::string file = scratch_board("new-class.json");
  ClassServerOptions options = loopback();
  options.board_file = file;
  {
    ClassServer server(options);
    ASSERT_TRUE(server.start());
    EXPECT_FALSE(std::filesystem::exists(file));  // nothing to keep yet
  }
  EXPECT_TRUE(std::filesystem::exists(file)) << "a stopped class saves its (empty) board";
  auto loaded = load_board(file);
  ASSERT_TRUE(loaded) << loaded.message();
  EXPECT_TRUE(loaded->students.empty());
}

}  // namespace
}  // namespace tl::net

namespace tl::net {
namespace {

// "Share with the teacher": the code reaches the board through the client, behind the join code;
// only the presenter's key reads it back; the board every student can read never carries it; a
// share too large is refused and the server stays up.
TEST(ClassServerShare, SharedCodeReachesThePresenterAlone) {
  ClassServer server(loopback());
  ASSERT_TRUE(server.start());
  ClassClient client(client_for(server, "Ada"));
  client.start();
  SharedCode share;
  share.exercise = "vector-add";
  share.code = "__global__ void add() { /* </pre><script>alert(1)</script> */ }\n";
  ASSERT_TRUE(client.share_code(share));
  ASSERT_TRUE(wait_until([&] { return client.status().shares_sent == 1; }))
      << client.status().message;
  const Board board = server.board();
  ASSERT_EQ(board.students.size(), 1u);
  EXPECT_EQ(board.students.begin()->second.shared.at("vector-add").code, share.code);
  EXPECT_EQ(board.students.begin()->second.name, "Ada");

  httplib::Client http("127.0.0.1", server.port());
  const httplib::Headers code = {{"X-Class-Code", "K7QM2X"}};
  auto no_key = http.Get("/api/v1/shared", code);
  ASSERT_TRUE(no_key);
  EXPECT_EQ(no_key->status, 403);
  EXPECT_EQ(no_key->body.find("alert"), std::string::npos);
  auto no_code = http.Get("/api/v1/shared?key=" + server.presenter_key());
  ASSERT_TRUE(no_code);
  EXPECT_EQ(no_code->status, 403);
  auto presenter = http.Get(
      "/api/v1/shared", {{"X-Class-Code", "K7QM2X"}, {"X-Presenter-Key", server.presenter_key()}});
  ASSERT_TRUE(presenter);
  EXPECT_EQ(presenter->status, 200);
  EXPECT_NE(presenter->body.find("alert(1)"), std::string::npos) << presenter->body;
  for (const char* path : {"/api/v1/board?wait_ms=0", "/api/v1/board?wait_ms=0&names=1"}) {
    auto board_answer =
        http.Get(path, {{"X-Class-Code", "K7QM2X"}, {"X-Presenter-Key", server.presenter_key()}});
    ASSERT_TRUE(board_answer);
    EXPECT_EQ(board_answer->body.find("alert"), std::string::npos) << path;
  }

  // Too large for the schema: the client says so and sends nothing; sent by hand, refused (400 or
  // 413) and the board unchanged.
  share.code.assign(kMaxSharedCodeBytes + 1, 'x');
  EXPECT_FALSE(client.share_code(share));
  SharedCode raw;
  raw.student = "student-raw-1";
  raw.exercise = "vector-add";
  raw.attempt = 1;
  raw.code.assign(kMaxSharedCodeBytes + 1, 'x');
  auto oversized = http.Post("/api/v1/share", code, to_json(raw), "application/json");
  ASSERT_TRUE(oversized);
  EXPECT_TRUE(oversized->status == 400 || oversized->status == 413) << oversized->status;
  auto wrong_code = http.Post("/api/v1/share", {{"X-Class-Code", "WRONG2"}},
                              to_json(SharedCode{"student-raw-1", "", "vector-add", "int a;", 2}),
                              "application/json");
  ASSERT_TRUE(wrong_code);
  EXPECT_EQ(wrong_code->status, 403);
  EXPECT_EQ(server.board().students.size(), 1u);
  client.stop();
}

}  // namespace
}  // namespace tl::net

namespace tl::net {
namespace {

// The board page's event stream: the board at once, then again at each change; gated by the join
// code, names for the presenter's key alone.
TEST(ClassServerEvents, TheBoardStreamsEachChange) {
  ClassServer server(loopback());
  ASSERT_TRUE(server.start());
  std::mutex mutex;
  std::string received;
  auto seen = [&](const std::string& text) {
    std::lock_guard lock(mutex);
    return received.find(text) != std::string::npos;
  };
  std::thread reader([&] {
    httplib::Client http("127.0.0.1", server.port());
    http.set_read_timeout(std::chrono::seconds(30));
    http.Get("/api/v1/board/events", {{"X-Class-Code", "K7QM2X"}},
             [&](const char* data, std::size_t size) {
               std::lock_guard lock(mutex);
               received.append(data, size);
               return received.find("\"vector-add\"") == std::string::npos;
             });
  });
  ASSERT_TRUE(wait_until([&] { return seen("data: {\"exercises\":[]"); })) << received;
  httplib::Client http("127.0.0.1", server.port());
  auto posted = http.Post("/api/v1/result", {{"X-Class-Code", "K7QM2X"}}, valid_result_body(),
                          "application/json");
  ASSERT_TRUE(posted);
  ASSERT_EQ(posted->status, 200);
  EXPECT_TRUE(wait_until([&] { return seen("\"vector-add\""); })) << received;
  reader.join();
  EXPECT_FALSE(seen("Name of")) << "names on the projector's stream";

  auto wrong = http.Get("/api/v1/board/events", {{"X-Class-Code", "WRONG2"}});
  ASSERT_TRUE(wrong);
  EXPECT_EQ(wrong->status, 403);
  auto names = http.Get("/api/v1/board/events?names=1", {{"X-Class-Code", "K7QM2X"}});
  ASSERT_TRUE(names);
  EXPECT_EQ(names->status, 403);
}

}  // namespace
}  // namespace tl::net
