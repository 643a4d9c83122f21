#pragma once
// A student's side of the class: two background threads, so the window's thread never waits on
// the network. One long-polls the presenter's follow state and keeps the newest (checked by the
// lesson's own ParamCheck before the window sees it); the other sends Kernel Lab results from a
// queue, keeping each until the server acknowledged it, so a cut connection or a restarted server
// loses none. Both reconnect by themselves, backing off from retry_min to retry_max; only a wrong
// join code stops them (the class said no; retrying would not change that).
//
// The window calls take_follow() once a frame and applies what it gets through the same action
// path a lesson link uses.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "net/class_messages.hpp"

namespace tl::net {

struct ClassClientOptions {
  JoinAddress address;
  std::string name;        // shown on the board (the teacher can hide names)
  std::string student_id;  // empty: a random one (random_student_id)
  ParamCheck check;        // the follower's own lessons' checks, applied before take_follow
  std::chrono::milliseconds wait{15000};  // each long poll; the server may cap it lower
  std::chrono::milliseconds retry_min{200};
  std::chrono::milliseconds retry_max{5000};
  // Past it the oldest unsent result (or shared code) is dropped, and said.
  std::size_t max_queued_results = 256;
  // Called on the poll thread for each state accepted (the load test's clock); may be empty.
  std::function<void(const FollowState&)> on_follow;
};

enum class ClientState {
  kConnecting,    // not yet heard from the server
  kFollowing,     // connected, applying the presenter's states
  kSteppedAway,   // connected, the student explores on their own
  kReconnecting,  // the connection failed; trying again
  kRefused,       // the server refused the join code: stopped
  kStopped,
};
[[nodiscard]] const char* to_string(ClientState state);

struct ClientStatus {
  ClientState state = ClientState::kConnecting;
  std::string message;               // the last problem, in one sentence; empty when all is well
  std::uint64_t seq = 0;             // the last follow state received
  std::size_t results_queued = 0;    // not yet acknowledged
  std::uint64_t results_sent = 0;    // acknowledged by the server
  std::uint64_t shares_sent = 0;     // shared code acknowledged by the server
  std::uint64_t follow_refused = 0;  // states that failed the lesson's checks
  std::uint64_t reconnects = 0;
};

class ClassClient {
 public:
  explicit ClassClient(ClassClientOptions options);
  ~ClassClient();
  ClassClient(const ClassClient&) = delete;
  ClassClient& operator=(const ClassClient&) = delete;

  void start();
  // Ends both threads, aborting a waiting poll; results not yet sent are dropped (and counted).
  void stop();

  // The newest follow state not yet taken, while following; never blocks.
  std::optional<FollowState> take_follow();
  // Step away (false) or rejoin (true): rejoining hands the newest state to take_follow again.
  void set_following(bool following);
  [[nodiscard]] bool following() const;
  // Queues a result; `attempt` is numbered here (the caller's is ignored) so a resend is known.
  void post_result(LabResult result);
  // Queues the student's code for the teacher, sent like a result (kept until acknowledged). Only
  // the window's "Share with the teacher" calls it. Refused here, with why, when the code cannot
  // be shared (too large, control characters): nothing is queued then.
  Status share_code(SharedCode share);

  [[nodiscard]] ClientStatus status() const;
  [[nodiscard]] const std::string& student_id() const { return options_.student_id; }

 private:
  void poll_loop();
  void send_loop();
  // Sleeps `delay` unless stop() comes first; false when stopping.
  bool pause(std::chrono::milliseconds delay);
  void set_state(ClientState state, std::string message);

  ClassClientOptions options_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  bool started_ = false;
  bool following_ = true;
  std::optional<FollowState> latest_;
  bool latest_taken_ = true;
  // Results and shared code in the order they were made, each with its request ready.
  struct Outgoing {
    std::string path;  // /api/v1/result or /api/v1/share
    std::string body;
    std::uint64_t attempt = 0;
  };
  std::deque<Outgoing> outbox_;
  std::uint64_t next_attempt_ = 1;
  ClientStatus status_;
  void* poll_http_ = nullptr;  // the poll thread's httplib::Client, for stop() to abort its wait
  void* send_http_ = nullptr;
  std::thread poller_;
  std::thread sender_;
};

}  // namespace tl::net
