#include "net/class_client.hpp"

#include <httplib.h>
#include <algorithm>

namespace tl::net {
namespace {

httplib::Headers code_header(const JoinAddress& address) {
  return {{"X-Class-Code", address.code}};
}

std::chrono::milliseconds grow(std::chrono::milliseconds delay, std::chrono::milliseconds max) {
  return std::min(max, delay * 2);
}

// What a failed request means for the student, in one sentence.
std::string describe(const httplib::Result& result) {
  if (!result) return "cannot reach the class server (" + httplib::to_string(result.error()) + ")";
  return "the class server answered " + std::to_string(result->status);
}

}  // namespace

const char* to_string(ClientState state) {
  switch (state) {
    case ClientState::kConnecting:
      return "connecting";
    case ClientState::kFollowing:
      return "following";
    case ClientState::kSteppedAway:
      return "stepped away";
    case ClientState::kReconnecting:
      return "reconnecting";
    case ClientState::kRefused:
      return "refused";
    case ClientState::kStopped:
      return "stopped";
  }
  return "stopped";
}

ClassClient::ClassClient(ClassClientOptions options) : options_(std::move(options)) {
  if (options_.student_id.empty()) options_.student_id = random_student_id();
  // Attempts count on from the wall clock, so an app restarted with the same id still numbers its
  // checks above the ones the board already has.
  next_attempt_ =
      static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                     std::chrono::system_clock::now().time_since_epoch())
                                     .count());
}

ClassClient::~ClassClient() {
  stop();
}

void ClassClient::start() {
  std::lock_guard lock(mutex_);
  if (started_) return;
  started_ = true;
  stopping_ = false;
  poller_ = std::thread([this] { poll_loop(); });
  sender_ = std::thread([this] { send_loop(); });
}

void ClassClient::stop() {
  {
    std::lock_guard lock(mutex_);
    if (!started_) return;
    stopping_ = true;
    // A long poll waits inside httplib: closing its socket ends the wait now.
    if (poll_http_) static_cast<httplib::Client*>(poll_http_)->stop();
    if (send_http_) static_cast<httplib::Client*>(send_http_)->stop();
  }
  wake_.notify_all();
  if (poller_.joinable()) poller_.join();
  if (sender_.joinable()) sender_.join();
  std::lock_guard lock(mutex_);
  started_ = false;
  status_.state = ClientState::kStopped;
}

bool ClassClient::pause(std::chrono::milliseconds delay) {
  std::unique_lock lock(mutex_);
  wake_.wait_for(lock, delay, [&] { return stopping_; });
  return !stopping_;
}

void ClassClient::set_state(ClientState state, std::string message) {
  std::lock_guard lock(mutex_);
  if (status_.state == ClientState::kRefused || stopping_) return;
  if (state == ClientState::kReconnecting && status_.state != ClientState::kReconnecting) {
    ++status_.reconnects;
  }
  if (state == ClientState::kFollowing && !following_) state = ClientState::kSteppedAway;
  status_.state = state;
  status_.message = std::move(message);
}

std::optional<FollowState> ClassClient::take_follow() {
  std::lock_guard lock(mutex_);
  if (!following_ || latest_taken_ || !latest_) return std::nullopt;
  latest_taken_ = true;
  return latest_;
}

void ClassClient::set_following(bool following) {
  std::lock_guard lock(mutex_);
  if (following && !following_) latest_taken_ = false;  // rejoin: catch up with the presenter
  following_ = following;
  if (status_.state == ClientState::kFollowing || status_.state == ClientState::kSteppedAway) {
    status_.state = following ? ClientState::kFollowing : ClientState::kSteppedAway;
  }
}

bool ClassClient::following() const {
  std::lock_guard lock(mutex_);
  return following_;
}

void ClassClient::post_result(LabResult result) {
  {
    std::lock_guard lock(mutex_);
    result.student = options_.student_id;
    result.name = options_.name;
    result.attempt = next_attempt_++;
    if (outbox_.size() >= options_.max_queued_results) {
      outbox_.pop_front();
      status_.message = "the class server has been away long: the oldest unsent result was dropped";
    }
    outbox_.push_back({"/api/v1/result", to_json(result), result.attempt});
    status_.results_queued = outbox_.size();
  }
  wake_.notify_all();
}

Status ClassClient::share_code(SharedCode share) {
  TL_RETURN_IF_ERROR(check_shared_code(share.code));
  if (!is_identifier(share.exercise)) return invalid_argument("no exercise to share");
  {
    std::lock_guard lock(mutex_);
    share.student = options_.student_id;
    share.name = options_.name;
    share.attempt = next_attempt_++;
    if (outbox_.size() >= options_.max_queued_results) {
      outbox_.pop_front();
      status_.message = "the class server has been away long: the oldest unsent result was dropped";
    }
    outbox_.push_back({"/api/v1/share", to_json(share), share.attempt});
    status_.results_queued = outbox_.size();
  }
  wake_.notify_all();
  return {};
}

ClientStatus ClassClient::status() const {
  std::lock_guard lock(mutex_);
  return status_;
}

void ClassClient::poll_loop() {
  httplib::Client http(options_.address.host, options_.address.port);
  http.set_keep_alive(true);
  http.set_connection_timeout(std::chrono::seconds(3));
  http.set_read_timeout(options_.wait + std::chrono::seconds(5));
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    poll_http_ = &http;
  }
  auto forget_client = [&] {
    std::lock_guard lock(mutex_);
    poll_http_ = nullptr;
  };

  auto delay = options_.retry_min;
  bool joined = false;
  std::uint64_t seq = 0;
  for (;;) {
    {
      std::lock_guard lock(mutex_);
      if (stopping_) break;
    }
    if (!joined) {
      auto result =
          http.Post("/api/v1/join", code_header(options_.address),
                    to_json(JoinRequest{options_.student_id, options_.name}), "application/json");
      if (result && result->status == 200) {
        joined = true;
        delay = options_.retry_min;
        set_state(ClientState::kFollowing, "");
        continue;
      }
      if (result && result->status == 403) {
        set_state(ClientState::kRefused, "the class refused the join code");
        break;
      }
      set_state(ClientState::kReconnecting, describe(result));
      if (!pause(delay)) break;
      delay = grow(delay, options_.retry_max);
      continue;
    }
    bool following = this->following();
    std::string path = "/api/v1/follow?student=" + options_.student_id +
                       "&after=" + std::to_string(seq) +
                       "&wait_ms=" + std::to_string(options_.wait.count()) +
                       "&following=" + (following ? "1" : "0");
    auto result = http.Get(path, code_header(options_.address));
    if (result && result->status == 200) {
      delay = options_.retry_min;
      set_state(ClientState::kFollowing, "");
      // The seq first, with no lesson check: a state this app refuses must not be asked for again
      // and again.
      auto shape = parse_follow_state(result->body);
      if (!shape) {
        std::lock_guard lock(mutex_);
        ++status_.follow_refused;
        status_.message = "refused a message from the class server: " + shape.message();
        if (!pause(delay)) break;
        continue;
      }
      seq = shape->seq;
      auto checked = parse_follow_state(result->body, options_.check);
      {
        std::lock_guard lock(mutex_);
        status_.seq = seq;
        if (!checked) {
          ++status_.follow_refused;
          status_.message = "did not follow: " + checked.message();
          continue;
        }
        latest_ = *checked;
        latest_taken_ = false;
      }
      // Outside the lock: the callback may post a result through this client.
      if (options_.on_follow) options_.on_follow(*checked);
      continue;
    }
    if (result && result->status == 204) {
      delay = options_.retry_min;
      set_state(ClientState::kFollowing, "");
      continue;
    }
    if (result && result->status == 403) {
      set_state(ClientState::kRefused, "the class refused the join code");
      break;
    }
    // Refused for now (429), or the server is gone: the same state (a restarted server that lost
    // its board, or a new class on the same port) is learnt again after joining again.
    set_state(ClientState::kReconnecting, describe(result));
    joined = result && result->status == 429;
    if (!pause(delay)) break;
    delay = grow(delay, options_.retry_max);
  }
  forget_client();
}

void ClassClient::send_loop() {
  httplib::Client http(options_.address.host, options_.address.port);
  http.set_keep_alive(true);
  http.set_connection_timeout(std::chrono::seconds(3));
  http.set_read_timeout(std::chrono::seconds(10));
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    send_http_ = &http;
  }
  auto delay = options_.retry_min;
  for (;;) {
    Outgoing next;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] {
        return stopping_ || (!outbox_.empty() && status_.state != ClientState::kRefused);
      });
      if (stopping_) break;
      next = outbox_.front();
    }
    auto result =
        http.Post(next.path, code_header(options_.address), next.body, "application/json");
    bool acknowledged = result && result->status == 200;
    // A 400 or a 503 is the server's considered refusal of this result (malformed, class full):
    // sending it again would be refused again, so it is dropped and said.
    bool refused = result && (result->status == 400 || result->status == 503);
    if (acknowledged || refused) {
      std::lock_guard lock(mutex_);
      if (!outbox_.empty() && outbox_.front().attempt == next.attempt) outbox_.pop_front();
      status_.results_queued = outbox_.size();
      const bool share = next.path == "/api/v1/share";
      if (acknowledged) ++(share ? status_.shares_sent : status_.results_sent);
      if (refused) {
        status_.message = std::string("the class server refused ") +
                          (share ? "your shared code: " : "a result: ") + result->body;
      }
      delay = options_.retry_min;
      continue;
    }
    if (result && result->status == 403) {
      set_state(ClientState::kRefused, "the class refused the join code");
      continue;
    }
    if (!pause(delay)) break;
    delay = grow(delay, options_.retry_max);
  }
  std::lock_guard lock(mutex_);
  send_http_ = nullptr;
}

}  // namespace tl::net
