#pragma once
// The window in a class on the network (issue 37). As the presenter, it runs a class server
// (net/class_server.hpp) in this process and publishes its lesson, guided step, parameters and
// view whenever they change. As a student, it follows: the presenter's states arrive on a
// background client (net/class_client.hpp), pass the lesson's own checks there, and are applied
// here, between frames, through the same lesson-action path a lesson link takes; the student's
// Kernel Lab checks go to the teacher's board (the verdict's outcome, failed check and times, never
// the code). update() never waits on the network.

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "core/result.hpp"
#include "net/class_client.hpp"
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
  // Step away to explore (false) or rejoin (true); rejoining catches up with the presenter.
  void set_following(bool following);
  [[nodiscard]] bool following() const;
  // One line for the status bar and the Class menu: "Class 192.168.1.20:8737/K7QM2X: 3 following"
  // (what students type), "Class at 192.168.1.20:8737: following".
  [[nodiscard]] std::string status_line() const;

  [[nodiscard]] net::ClassServer* server() { return server_.get(); }
  [[nodiscard]] net::ClassClient* client() { return client_.get(); }

 private:
  ClassSession() = default;
  void publish(AppController& app);
  void follow(AppController& app);
  void post_lab_verdict(AppController& app);

  std::unique_ptr<net::ClassServer> server_;
  std::unique_ptr<net::ClassClient> client_;
  net::JoinAddress address_;
  std::optional<net::FollowState> published_;  // what followers have now (seq aside)
  std::optional<net::FollowState> pending_;    // taken from the client, applied when not busy
  std::string publish_error_;                  // said once, until a publish succeeds again
  std::size_t followers_shown_ = 0;
  net::ClientState state_shown_ = net::ClientState::kConnecting;
  std::string message_shown_;
  std::uint64_t checks_seen_ = 0;
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
// The view a link would name for what the window brings forward ("lab", "grid", "plot", ...).
[[nodiscard]] std::string view_name(const ViewSettings& view);
// What the board gets of a Lab verdict; none for a Run (not a check) or a check still unjudged.
[[nodiscard]] std::optional<net::LabResult> lab_result_of(const std::string& exercise,
                                                          const lab::CheckVerdict& verdict);

}  // namespace tl::ui
