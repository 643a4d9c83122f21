#pragma once
// The window in a class on the network (issue 37). As the presenter, it runs a class server
// (net/class_server.hpp) in this process and publishes its lesson, guided step, parameters and
// view whenever they change. As a student, it follows: the presenter's states arrive on a
// background client (net/class_client.hpp), pass the lesson's own checks there, and are applied
// here, between frames, through the same lesson-action path a lesson link takes; the student's
// Kernel Lab checks go to the teacher's board (the verdict's outcome, failed check and times, never
// the code). update() never waits on the network.

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/result.hpp"
#include "net/class_client.hpp"
#include "net/class_discovery.hpp"
#include "net/class_messages.hpp"
#include "net/class_server.hpp"

namespace tl::lab {
struct CheckVerdict;
}

namespace tl::ui {

class AppController;
struct ViewSettings;

class ClassSession {
 public:
  // The presenter's: a class server on `options` (its check is set here to the lessons' own).
  static Result<std::unique_ptr<ClassSession>> host(net::ClassServerOptions options);
  // A student's: joins `address` as `name` (its check is set here to the lessons' own).
  static std::unique_ptr<ClassSession> join(net::ClassClientOptions options);
  ~ClassSession();

  // Once a frame, between frames: the presenter publishes what changed; a follower applies the
  // newest state it was sent and posts a new Lab verdict. Says on the status bar what changed in
  // the class (joined, following, stepped away, the count of followers, a refusal).
  void update(AppController& app);

  [[nodiscard]] bool presenting() const { return server_ != nullptr; }
  // The presenter publishes at most once per kMinPublishInterval: a slider dragged changes the
  // values every frame, and each state wakes every follower, whose next poll would soon pass its
  // rate limit (429). The newest state is held back and published once the interval has passed;
  // the window keeps drawing frames meanwhile (AppController::wants_frames).
  static constexpr std::chrono::milliseconds kMinPublishInterval{100};
  [[nodiscard]] bool publish_pending() const { return publish_pending_; }
  // The clock publishing is paced by; the tests hold it still to count what is published.
  void set_clock(std::function<std::chrono::steady_clock::time_point()> clock) {
    clock_ = std::move(clock);
  }
  // A student's "Share with the teacher": the Lab's current exercise and the learner's own source
  // (never the solution shown in its place) go to the teacher's board. The only way code leaves
  // a student's machine. Refused, with why, for the presenter, without an exercise, or for code
  // that cannot be shared (too large); the status bar says when the teacher has it.
  Status share_lab_code(AppController& app);
  // Step away to explore (false) or rejoin (true); rejoining catches up with the presenter.
  void set_following(bool following);
  [[nodiscard]] bool following() const;
  // One line for the status bar and the Class menu: "Class 192.168.1.20:8737/K7QM2X: 3 following"
  // (what students type), "Class at 192.168.1.20:8737: following".
  [[nodiscard]] std::string status_line() const;

  // Called on the window's thread each time a follower's window has applied a presenter's state,
  // with what the window shows now (its lesson, guided step and view, read back from the window,
  // not echoed from the message): `threadlab gui --join` prints it on the terminal, so a scripted
  // run (the two-window test) and a teacher at a student's desk can see that it followed.
  void set_on_applied(std::function<void(const net::FollowState& shown)> on_applied) {
    on_applied_ = std::move(on_applied);
  }

  // Called on the window's thread when a student's Lab check is handed to the client for the
  // board (it is sent, and resent, until the teacher's server has it); `gui --join` prints it.
  void set_on_result(std::function<void(const net::LabResult& result)> on_result) {
    on_result_ = std::move(on_result);
  }

  [[nodiscard]] net::ClassServer* server() { return server_.get(); }
  [[nodiscard]] net::ClassClient* client() { return client_.get(); }

 private:
  ClassSession() = default;
  void publish(AppController& app);
  void follow(AppController& app);
  void post_lab_verdict(AppController& app);

  std::unique_ptr<net::ClassServer> server_;
  // The class announced on the LAN (mDNS) while it is served on every address; none where Avahi
  // is absent, said once on the status bar.
  std::unique_ptr<net::ClassAnnouncer> announcer_;
  std::string announce_problem_;
  bool announce_said_ = false;
  std::unique_ptr<net::ClassClient> client_;
  net::JoinAddress address_;
  std::optional<net::FollowState> published_;  // what followers have now (seq aside)
  std::optional<net::FollowState> pending_;    // taken from the client, applied when not busy
  std::string publish_error_;                  // said once, until a publish succeeds again
  std::function<std::chrono::steady_clock::time_point()> clock_ = std::chrono::steady_clock::now;
  std::optional<std::chrono::steady_clock::time_point> last_publish_;
  bool publish_pending_ = false;
  std::size_t followers_shown_ = 0;
  net::ClientState state_shown_ = net::ClientState::kConnecting;
  std::string message_shown_;
  std::uint64_t checks_seen_ = 0;
  std::uint64_t shares_seen_ = 0;
  std::string shared_exercise_;  // the last one shared, for the status bar's acknowledgement
  std::function<void(const net::FollowState&)> on_applied_;
  std::function<void(const net::LabResult&)> on_result_;
};

// A student's client options for `address` as `name`: the window is woken (glfwPostEmptyEvent) when
// a state arrives, since an idle window waits for input and would apply it only then.
[[nodiscard]] net::ClassClientOptions class_client_options(const net::JoinAddress& address,
                                                           std::string name);
// The presenter's server options: every address of the machine, `port`, `code` (empty: random), the
// board saved in $XDG_STATE_HOME/threadlab/class-board.json.
[[nodiscard]] net::ClassServerOptions class_server_options(int port, std::string code);

// The follow state the window shows now: its lesson and parameters, its guided step, its view.
[[nodiscard]] net::FollowState current_follow_state(const AppController& app);
// "lesson vector-add, step 3, view grid": a state in words, for the terminal (steps counted from 1,
// as the step bar shows them; "no step" when the lesson has none on screen).
[[nodiscard]] std::string describe_follow_state(const net::FollowState& state);
// The view a link would name for what the window brings forward ("lab", "grid", "plot", ...).
[[nodiscard]] std::string view_name(const ViewSettings& view);
// What the board gets of a Lab verdict; none for a Run (not a check) or a check still unjudged.
[[nodiscard]] std::optional<net::LabResult> lab_result_of(const std::string& exercise,
                                                          const lab::CheckVerdict& verdict);

}  // namespace tl::ui
