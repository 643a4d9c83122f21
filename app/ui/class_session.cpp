#include "class_session.hpp"

#include <GLFW/glfw3.h>
#include <unistd.h>

#include <utility>

#include "app_controller.hpp"
#include "compute/lessons/lesson_values_check.hpp"
#include "core/user_files.hpp"
#include "lab/lab_check.hpp"
#include "net/lan_addresses.hpp"

namespace tl::ui {
namespace {

// The follower's and the presenter's lessons judge a state by the lesson's own configure.
Status lessons_check(const std::string& lesson, const lessons::ParamValues& values) {
  return compute::check_lesson_values(lesson, values);
}

// Two states that show the same thing (the server numbers them; that is not a change).
bool same_place(const net::FollowState& a, const net::FollowState& b) {
  return a.lesson == b.lesson && a.values == b.values && a.step == b.step && a.view == b.view;
}

// A verdict's reason as the board takes it: one line of plain text, at most kMaxReasonBytes,
// cut at a character boundary.
std::string one_board_line(const std::string& text) {
  std::string line;
  for (char c : text) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) continue;
    line.push_back(c);
  }
  if (line.size() > net::kMaxReasonBytes) {
    std::size_t cut = net::kMaxReasonBytes;
    while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;
    line.resize(cut);
  }
  return line;
}

}  // namespace

Result<std::unique_ptr<ClassSession>> ClassSession::host(net::ClassServerOptions options) {
  options.check = lessons_check;
  std::unique_ptr<ClassSession> session(new ClassSession());
  const bool every_address = options.bind == "0.0.0.0";
  session->server_ = std::make_unique<net::ClassServer>(std::move(options));
  TL_RETURN_IF_ERROR(session->server_->start());
  // Students find a class served to the LAN in their Join dialog; one bound to a single address
  // (a test on loopback) is for that address alone and is not announced.
  if (every_address) {
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    const std::string title = std::string("ThreadLab class on ") + host;
    net::ClassAnnouncement announcement{title, net::kSchemaVersion};
    auto announcer = net::ClassAnnouncer::start(title, session->server_->port(), announcement);
    if (announcer) {
      session->announcer_ = std::move(*announcer);
    } else {
      session->announce_problem_ = announcer.message();
    }
  } else {
    session->announce_said_ = true;
  }
  return session;
}

std::unique_ptr<ClassSession> ClassSession::join(net::ClassClientOptions options) {
  options.check = lessons_check;
  std::unique_ptr<ClassSession> session(new ClassSession());
  session->address_ = options.address;
  session->client_ = std::make_unique<net::ClassClient>(std::move(options));
  session->client_->start();
  return session;
}

ClassSession::~ClassSession() {
  if (client_) client_->stop();
  if (server_) server_->stop();
}

void ClassSession::set_following(bool following) {
  if (client_) client_->set_following(following);
}

bool ClassSession::following() const {
  return client_ && client_->following();
}

std::string ClassSession::status_line() const {
  if (server_) {
    // What students type, with the machine's first LAN address (the Class menu and the status
    // bar are what the teacher reads it from).
    const std::vector<std::string> hosts = net::lan_addresses();
    const std::string host = hosts.empty() ? std::string("127.0.0.1") : hosts.front();
    return "Class " + host + ":" + std::to_string(server_->port()) + "/" + server_->code() + ": " +
           std::to_string(server_->followers()) + " following";
  }
  net::ClientStatus status = client_->status();
  std::string line = "Class at " + address_.host + ":" + std::to_string(address_.port) + ": " +
                     net::to_string(status.state);
  if (!status.message.empty()) line += " (" + status.message + ")";
  return line;
}

void ClassSession::update(AppController& app) {
  if (server_) {
    publish(app);
    return;
  }
  follow(app);
  post_lab_verdict(app);
}

void ClassSession::publish(AppController& app) {
  if (!announce_said_) {
    announce_said_ = true;
    app.post(Severity::kInfo, announcer_ ? "The class is announced on this network: students find "
                                           "it in Class → Join class…"
                                         : "Students type the address (" + announce_problem_ + ")");
  }
  net::FollowState now = current_follow_state(app);
  publish_pending_ = false;
  if (!published_ || !same_place(now, *published_)) {
    const auto time = clock_();
    if (last_publish_ && time - *last_publish_ < kMinPublishInterval) {
      publish_pending_ = true;  // the newest is published on a later frame
      return;
    }
    auto published = server_->publish(now);
    last_publish_ = time;
    if (published) {
      published_ = now;
      publish_error_.clear();
    } else if (published.message() != publish_error_) {
      publish_error_ = published.message();
      app.post(Severity::kWarning, "The class was not moved: " + publish_error_);
    }
  }
  std::size_t followers = server_->followers();
  if (followers != followers_shown_) {
    followers_shown_ = followers;
    app.post(Severity::kInfo, status_line());
  }
}

void ClassSession::follow(AppController& app) {
  net::ClientStatus status = client_->status();
  if (status.state != state_shown_ || status.message != message_shown_) {
    state_shown_ = status.state;
    message_shown_ = status.message;
    const bool trouble = status.state == net::ClientState::kRefused ||
                         status.state == net::ClientState::kReconnecting;
    app.post(trouble ? Severity::kWarning : Severity::kInfo, status_line());
  }
  if (auto newest = client_->take_follow()) pending_ = std::move(newest);
  if (!pending_) return;
  // The class moves on as a clicked step does: the student's own measurement still running gives
  // way (a lesson switch would otherwise wait for it, and the state would be half applied). The
  // state is applied once the runner has stopped, a frame or two later.
  if (app.busy()) {
    app.cancel_launch();
    return;
  }
  const std::optional<net::FollowState> state = std::exchange(pending_, std::nullopt);

  // The guided step first: it applies the step's own link (the lesson, its values, a launch), as
  // a click on the step would. Then whatever the presenter changed beyond it.
  const AppState& shown = app.state();
  if (state->step) {
    const bool other_lesson = shown.controls.lesson_id != state->lesson;
    if (other_lesson ||
        shown.classroom.cursor.current() != std::optional<std::size_t>(*state->step)) {
      if (other_lesson) {
        lessons::LessonAction only_lesson;
        only_lesson.lesson = state->lesson;
        app.apply_action(only_lesson);
        if (app.state().controls.lesson_id != state->lesson) return;  // the router said why
      }
      app.go_to_step(*state->step);
    }
  }
  lessons::LessonAction action;
  if (app.state().controls.lesson_id != state->lesson) action.lesson = state->lesson;
  const lessons::ParamValues current =
      action.lesson ? lessons::ParamValues{} : app.current_lesson().values();
  for (const auto& [name, value] : state->values) {
    auto found = current.find(name);
    if (found == current.end() || found->second != value) action.values[name] = value;
  }
  // A results tab is the lesson workspace's: a student in the Lab comes back to the lesson with
  // it, as the presenter shows it (a link's view= alone leaves the workspace as it is).
  if (!state->view.empty() && state->view != kLabView &&
      app.state().view.workspace == Workspace::kLab) {
    app.show_workspace(Workspace::kLesson);
  }
  if (!state->view.empty() && view_name(app.state().view) != state->view) action.view = state->view;
  action.launch = !action.values.empty();
  if (action.lesson || !action.values.empty() || action.view) app.apply_action(action);
  if (on_applied_) on_applied_(current_follow_state(app));
}

Status ClassSession::share_lab_code(AppController& app) {
  if (!client_) return invalid_argument("the presenter has no teacher to share with");
  const LabState& lab = app.lab().state();
  net::SharedCode share;
  share.exercise = lab.current;
  share.code = app.lab().source();
  TL_RETURN_IF_ERROR(client_->share_code(std::move(share)));
  shared_exercise_ = lab.current;
  app.post(Severity::kInfo, "Sending your code for " + lab.current + " to the teacher…");
  return {};
}

void ClassSession::post_lab_verdict(AppController& app) {
  const std::uint64_t shares = client_->status().shares_sent;
  if (shares != shares_seen_) {
    shares_seen_ = shares;
    app.post(Severity::kInfo, "The teacher has your code for " + shared_exercise_ + ".");
  }
  const LabState& lab = app.lab().state();
  if (lab.checks_finished == checks_seen_) return;
  checks_seen_ = lab.checks_finished;
  if (!lab.verdict) return;
  const std::string& exercise = lab.check.exercise_id.empty() ? lab.current : lab.check.exercise_id;
  if (auto result = lab_result_of(exercise, *lab.verdict)) {
    client_->post_result(*result);
    if (on_result_) on_result_(*result);
  }
}

net::ClassClientOptions class_client_options(const net::JoinAddress& address, std::string name) {
  net::ClassClientOptions options;
  options.address = address;
  options.name = std::move(name);
  options.on_follow = [](const net::FollowState&) { glfwPostEmptyEvent(); };
  return options;
}

net::ClassServerOptions class_server_options(int port, std::string code) {
  net::ClassServerOptions options;
  options.port = port;
  options.code = std::move(code);
  if (auto file = user_file("XDG_STATE_HOME", ".local/state", "class-board.json")) {
    options.board_file = file->string();
  }
  return options;
}

net::FollowState current_follow_state(const AppController& app) {
  const AppState& state = app.state();
  net::FollowState follow;
  follow.lesson = state.controls.lesson_id;
  follow.values = app.current_lesson().values();
  if (auto step = state.classroom.cursor.current()) follow.step = static_cast<std::uint32_t>(*step);
  follow.view = view_name(state.view);
  return follow;
}

std::string describe_follow_state(const net::FollowState& state) {
  return "lesson " + state.lesson + ", " +
         (state.step ? "step " + std::to_string(*state.step + 1) : std::string("no step")) +
         ", view " + (state.view.empty() ? std::string("unchanged") : state.view);
}

std::string view_name(const ViewSettings& view) {
  if (view.workspace == Workspace::kLab) return std::string(kLabView);
  switch (view.results_tab) {
    case ResultsTab::kTiming:
      return "plot";
    case ResultsTab::kGrid:
      return "grid";
    case ResultsTab::kTimeline:
      return "timeline";
    case ResultsTab::kOccupancy:
      return "occupancy";
    case ResultsTab::kRoofline:
      return "roofline";
    case ResultsTab::kMemory:
      return "memory";
    case ResultsTab::kCompiled:
      return "compiled";
    case ResultsTab::kLesson:
      return net::is_identifier(view.lesson_tab) ? view.lesson_tab : std::string("plot");
  }
  return "plot";
}

std::optional<net::LabResult> lab_result_of(const std::string& exercise,
                                            const lab::CheckVerdict& verdict) {
  if (verdict.run_only || !net::is_identifier(exercise)) return std::nullopt;
  net::LabResult result;
  result.exercise = exercise;
  switch (verdict.outcome) {
    case lab::Outcome::kPassed:
      result.outcome = net::LabOutcome::kPassed;
      break;
    case lab::Outcome::kFailed:
      result.outcome = net::LabOutcome::kFailed;
      break;
    case lab::Outcome::kCompileError:
      result.outcome = net::LabOutcome::kCompileError;
      break;
    case lab::Outcome::kUnavailable:
      result.outcome = net::LabOutcome::kUnavailable;
      break;
  }
  if (result.outcome != net::LabOutcome::kPassed)
    result.failed_check = one_board_line(verdict.reason);
  // The schema's range; a time past it (or not a number) is not worth a refused result.
  auto in_range = [](double ms) { return ms >= 0 && ms <= net::kMaxMilliseconds ? ms : 0.0; };
  result.kernel_ms = in_range(verdict.kernel_ms);
  result.reference_ms = in_range(verdict.solution_ms);
  return result;
}

}  // namespace tl::ui
