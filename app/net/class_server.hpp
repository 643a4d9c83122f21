#pragma once
// The class server: HTTP on the local network (cpp-httplib, docs/ARCHITECTURE.md says why), run
// headless by `threadlab class serve` or inside the presenter's app. Followers long-poll for the
// presenter's follow state; students post Kernel Lab results to the board; the board page (plain
// HTML/JS, board_page.hpp) and the app read the board.
//
//   GET  /board?code=C[&key=K]                        the board page (K: the presenter's, shows
//   names) GET  /api/v1/follow?student=S&after=N&wait_ms=W&following=1
//        the follow state newer than N (200), or 204 after W ms (at most the server's poll_wait)
//   GET  /api/v1/board/events[?names=1]               the board as server-sent events (each change)
//   GET  /api/v1/board?after=V&wait_ms=W[&names=1]    the board once its version passes V, or as it
//        is after W ms; names=1 needs the presenter key
//   POST /api/v1/join, /api/v1/result                 a JoinRequest, a LabResult (class_messages)
//   POST /api/v1/follow                               the presenter's FollowState (needs the key)
//   POST /api/v1/share                                a student's SharedCode (pressed "Share")
//   GET  /api/v1/shared                               every shared code (needs the key)
//
// The join code gates every request (header X-Class-Code or query `code`); a wrong one is 403,
// and an address that keeps guessing gets 429 (a token bucket per address). Bodies over
// kMaxMessageBytes are 413; each student's requests are rate-limited too. Every change to the
// board is saved (atomically) before the request that made it is answered, so an acknowledged
// result survives the server's restart.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "core/result.hpp"
#include "net/class_board.hpp"
#include "net/class_messages.hpp"
#include "net/rate_limit.hpp"

namespace httplib {
class Server;
}

namespace tl::net {

struct ClassServerOptions {
  std::string bind = "0.0.0.0";  // the LAN; the tests bind 127.0.0.1
  int port = 0;                  // 0: any free port (port() says which)
  std::string code;              // empty: a random one (random_join_code)
  std::string presenter_key;     // empty: a random one
  std::string board_file;        // empty: the board is kept in memory only
  ParamCheck check;              // the lessons' own checks of the presenter's states
  // The longest a follow or board request waits for news before answering anyway.
  std::chrono::milliseconds poll_wait{20000};
  // Long polls each hold a worker thread while they wait: enough for a class of kMaxStudents and
  // their result posts.
  std::size_t threads = 2 * kMaxStudents + 16;
  double student_per_second = 20;
  double student_burst = 40;
  double wrong_code_per_second = 0.2;  // guesses of the join code, per remote address
  double wrong_code_burst = 10;
  // What the server did that a person running it wants to see (a refused request, a save that
  // failed); called from the server's threads.
  std::function<void(const std::string&)> log;
};

class ClassServer {
 public:
  explicit ClassServer(ClassServerOptions options);
  ~ClassServer();
  ClassServer(const ClassServer&) = delete;
  ClassServer& operator=(const ClassServer&) = delete;

  // Loads the board file (a damaged one is an error, not an empty board), binds and starts
  // serving on a thread of its own. An error says what failed: nothing is left running.
  Status start();
  // Wakes every waiting request, stops serving and saves the board.
  void stop();
  [[nodiscard]] bool running() const { return running_; }

  [[nodiscard]] int port() const { return port_; }
  [[nodiscard]] const std::string& code() const { return options_.code; }
  [[nodiscard]] const std::string& presenter_key() const { return options_.presenter_key; }

  // The presenter moved (the app calls it directly; POST /api/v1/follow over HTTP): the state is
  // checked, numbered, saved and handed to every waiting follower. Returns it with its seq.
  Result<FollowState> publish(FollowState state);

  [[nodiscard]] Board board() const;
  [[nodiscard]] std::string board_json(bool names) const;
  // Students whose app follows now: polled within the last poll_wait plus a grace, not stepped
  // away.
  [[nodiscard]] std::size_t followers() const;
  // Requests refused so far (wrong code, malformed, oversized, rate-limited), for the tests and the
  // server's summary.
  [[nodiscard]] std::uint64_t refused() const { return refused_; }
  // The last failure to save the board, or empty.
  [[nodiscard]] std::string save_error() const;

 private:
  struct Presence {
    std::chrono::steady_clock::time_point last_seen;
    bool following = false;
    int polling = 0;  // follow requests waiting now
  };
  void install_routes();
  void save_now();
  void save_loop();
  std::size_t followers_locked() const;
  void note(const std::string& text) const;

  ClassServerOptions options_;
  std::unique_ptr<httplib::Server> http_;
  std::thread thread_;
  std::atomic<bool> running_{false};
  int port_ = 0;

  mutable std::mutex mutex_;  // guards board_, presence_, stopping_, save_wanted_
  std::condition_variable changed_;
  Board board_;
  std::map<std::string, Presence> presence_;
  bool stopping_ = false;
  bool save_wanted_ = false;  // the saver thread's work (a published follow state)
  std::thread saver_;

  mutable std::mutex save_mutex_;  // one save at a time, never an older board over a newer one
  std::condition_variable save_done_;
  bool saving_ = false;
  bool saved_once_ = false;  // saved_version_ is on disk (version 0 of a new board is not)
  std::uint64_t saved_version_ = 0;
  std::string save_error_;

  RateLimiter student_limit_;
  RateLimiter wrong_code_limit_;
  std::atomic<std::uint64_t> refused_{0};
};

}  // namespace tl::net
