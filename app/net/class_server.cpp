#include "net/class_server.hpp"

#include <httplib.h>
#include <sys/socket.h>

#include <charconv>
#include <filesystem>
#include <memory>
#include <optional>

#include "net/board_page.hpp"

namespace tl::net {
namespace {

constexpr auto kPresenceGrace = std::chrono::seconds(5);
constexpr auto kEventKeepAlive = std::chrono::seconds(15);

// A query number; `fallback` when absent or not a plain decimal.
std::uint64_t query_number(const httplib::Request& request, const char* key,
                           std::uint64_t fallback) {
  if (!request.has_param(key)) return fallback;
  std::string text = request.get_param_value(key);
  std::uint64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size()) return fallback;
  return value;
}

std::string given_code(const httplib::Request& request) {
  std::string code = request.get_header_value("X-Class-Code");
  if (code.empty() && request.has_param("code")) code = request.get_param_value("code");
  return code;
}

std::string given_key(const httplib::Request& request) {
  std::string key = request.get_header_value("X-Presenter-Key");
  if (key.empty() && request.has_param("key")) key = request.get_param_value("key");
  return key;
}

void answer(httplib::Response& response, int status, const std::string& reason) {
  response.status = status;
  // A small JSON object, so the page and the client read refusals the same way as answers.
  std::string escaped;
  for (char c : reason) {
    if (c == '"' || c == '\\') escaped.push_back('\\');
    if (static_cast<unsigned char>(c) >= 0x20) escaped.push_back(c);
  }
  response.set_content("{\"schema\":1,\"type\":\"refused\",\"reason\":\"" + escaped + "\"}",
                       "application/json");
}

}  // namespace

ClassServer::ClassServer(ClassServerOptions options)
    : options_(std::move(options)),
      student_limit_(options_.student_per_second, options_.student_burst),
      wrong_code_limit_(options_.wrong_code_per_second, options_.wrong_code_burst) {
  if (options_.code.empty()) options_.code = random_join_code();
  if (options_.presenter_key.empty()) options_.presenter_key = random_presenter_key();
}

ClassServer::~ClassServer() {
  stop();
}

void ClassServer::note(const std::string& text) const {
  if (options_.log) options_.log(text);
}

Status ClassServer::start() {
  if (running_) return {};
  if (!is_join_code(options_.code)) {
    return invalid_argument("the join code must be 4 to 16 of A-Z and 2-9 (no 0, O, 1 or I)");
  }
  if (!options_.board_file.empty()) {
    auto loaded = load_board(options_.board_file);
    if (!loaded) return loaded.error();
    std::lock_guard lock(mutex_);
    board_ = std::move(*loaded);
    saved_version_ = board_.version;
    // A board read from its file is on disk; a new class (no file yet) is saved at its first change
    // or when it stops, so the file says a class was held.
    std::error_code error;
    saved_once_ = std::filesystem::exists(options_.board_file, error);
  }
  {
    std::lock_guard lock(mutex_);
    stopping_ = false;
  }
  http_ = std::make_unique<httplib::Server>();
  std::size_t threads = options_.threads;
  http_->new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  http_->set_payload_max_length(kMaxMessageBytes);
  // A request's headers and body arrive in well under this on a LAN; a client that trickles them
  // would otherwise hold a worker.
  http_->set_read_timeout(std::chrono::seconds(5));
  http_->set_write_timeout(std::chrono::seconds(5));
  // An idle kept-alive connection holds its worker for this long, and stop() waits for it: a
  // follower polls again at once, so one second costs nothing and keeps closing the app quick.
  http_->set_keep_alive_timeout(1);
  // httplib closes a kept-alive connection after 5 requests by default: a follower would then
  // reconnect every few steps, which costs a step's latency for nothing.
  http_->set_keep_alive_max_count(100000);
  http_->set_tcp_nodelay(true);
  // httplib's default is SO_REUSEPORT, which lets a second server bind the same port and take half
  // the class's connections. SO_REUSEADDR alone still allows a restart on the port at once (past
  // the old sockets in TIME_WAIT) but refuses a second listener.
  http_->set_socket_options([](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  install_routes();

  // A server started again keeps its port, so its students find it where it was.
  int wanted = options_.port != 0 ? options_.port : port_;
  int bound = wanted == 0 ? http_->bind_to_any_port(options_.bind)
                          : (http_->bind_to_port(options_.bind, wanted) ? wanted : -1);
  if (bound < 0) {
    http_.reset();
    return Error{ErrorKind::kIoError, "cannot listen on " + options_.bind + ":" +
                                          std::to_string(wanted) +
                                          " (in use, or not an address of this machine)"};
  }
  port_ = bound;
  thread_ = std::thread([this] { http_->listen_after_bind(); });
  saver_ = std::thread([this] { save_loop(); });
  // listen_after_bind has not necessarily entered its loop yet; stop() before it does would be
  // lost, so start() returns once it serves.
  while (!http_->is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  running_ = true;
  return {};
}

void ClassServer::stop() {
  if (!http_) return;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  http_->stop();
  if (thread_.joinable()) thread_.join();
  if (saver_.joinable()) saver_.join();
  http_.reset();
  running_ = false;
  save_now();
}

// One write (and fsync) covers every change made while the one before it ran: a request whose
// change is not yet on disk either starts the next write or waits for it. A burst of results from a
// class costs a few writes, not one each, and each request is still answered only once its change
// is on disk.
void ClassServer::save_now() {
  if (options_.board_file.empty()) return;
  std::uint64_t wanted = 0;
  {
    std::lock_guard lock(mutex_);
    wanted = board_.version;
  }
  std::unique_lock save(save_mutex_);
  for (;;) {
    if (saved_version_ >= wanted && saved_once_) return;  // another request's write covered it
    if (!saving_) break;
    save_done_.wait(save);
  }
  saving_ = true;
  save.unlock();
  Board copy;
  {
    std::lock_guard lock(mutex_);
    copy = board_;
  }
  Status saved = save_board(copy, options_.board_file);
  save.lock();
  saving_ = false;
  if (saved) {
    saved_version_ = std::max(saved_version_, copy.version);
    saved_once_ = true;
    save_error_.clear();
  } else {
    save_error_ = saved.message();
    note("could not save the board: " + saved.message());
  }
  save.unlock();
  save_done_.notify_all();
}

void ClassServer::save_loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stopping_ || save_wanted_; });
    if (save_wanted_) {
      save_wanted_ = false;
      lock.unlock();
      save_now();
      lock.lock();
      continue;
    }
    if (stopping_) return;
  }
}

std::string ClassServer::save_error() const {
  std::lock_guard save(save_mutex_);
  return save_error_;
}

Result<FollowState> ClassServer::publish(FollowState state) {
  TL_RETURN_IF_ERROR(check_follow_state(state, options_.check));
  {
    std::lock_guard lock(mutex_);
    state.seq = board_.follow ? board_.follow->seq + 1 : 1;
    board_.follow = state;
    ++board_.version;
  }
  // Saved by the saver thread: the presenter's window publishes between frames and must not wait
  // on the disk; a follow state lost to a crash is only the presenter's position.
  {
    std::lock_guard lock(mutex_);
    save_wanted_ = true;
  }
  changed_.notify_all();
  return state;
}

Board ClassServer::board() const {
  std::lock_guard lock(mutex_);
  return board_;
}

std::string ClassServer::board_json(bool names) const {
  std::lock_guard lock(mutex_);
  return net::board_json(board_, names, followers_locked());
}

std::size_t ClassServer::followers() const {
  std::lock_guard lock(mutex_);
  return followers_locked();
}

std::size_t ClassServer::followers_locked() const {
  auto now = std::chrono::steady_clock::now();
  std::size_t count = 0;
  for (const auto& [id, presence] : presence_) {
    bool recent =
        presence.polling > 0 || now - presence.last_seen < options_.poll_wait + kPresenceGrace;
    if (presence.following && recent) ++count;
  }
  return count;
}

void ClassServer::install_routes() {
  httplib::Server& http = *http_;

  // The join code before anything else, for every path: a request without it learns nothing,
  // not even which paths exist.
  http.set_pre_routing_handler(
      [this](const httplib::Request& request, httplib::Response& response) {
        if (same_secret(given_code(request), options_.code))
          return httplib::Server::HandlerResponse::Unhandled;
        ++refused_;
        if (!wrong_code_limit_.allow(request.remote_addr)) {
          answer(response, 429, "too many wrong join codes from this address; wait a minute");
        } else {
          answer(response, 403, "wrong or missing join code");
        }
        return httplib::Server::HandlerResponse::Handled;
      });

  http.Get("/board", [this](const httplib::Request& request, httplib::Response& response) {
    bool presenter = same_secret(given_key(request), options_.presenter_key);
    response.set_content(board_page_html(presenter), "text/html; charset=utf-8");
  });

  http.Get("/api/v1/follow", [this](const httplib::Request& request, httplib::Response& response) {
    std::string student = request.get_param_value("student");
    if (!is_student_id(student)) {
      ++refused_;
      return answer(response, 400, "no student id");
    }
    if (!student_limit_.allow(student)) {
      ++refused_;
      return answer(response, 429, "too many requests");
    }
    std::uint64_t after = query_number(request, "after", 0);
    auto wait = std::min<std::chrono::milliseconds>(
        std::chrono::milliseconds(query_number(request, "wait_ms", options_.poll_wait.count())),
        options_.poll_wait);
    bool following = query_number(request, "following", 1) != 0;

    std::unique_lock lock(mutex_);
    if (!presence_.contains(student) && presence_.size() >= 4 * kMaxStudents) {
      ++refused_;
      return answer(response, 503, "the class is full");
    }
    Presence& presence = presence_[student];
    presence.following = following;
    presence.last_seen = std::chrono::steady_clock::now();
    ++presence.polling;
    // A follower whose seq differs from the server's is behind, or ahead of a server that started
    // afresh without its board: either way the current state is its answer.
    changed_.wait_for(lock, wait,
                      [&] { return stopping_ || (board_.follow && board_.follow->seq != after); });
    --presence.polling;
    presence.last_seen = std::chrono::steady_clock::now();
    if (board_.follow && board_.follow->seq != after) {
      response.set_content(to_json(*board_.follow), "application/json");
    } else {
      response.status = 204;
    }
  });

  http.Get("/api/v1/board", [this](const httplib::Request& request, httplib::Response& response) {
    bool names = query_number(request, "names", 0) != 0;
    if (names && !same_secret(given_key(request), options_.presenter_key)) {
      ++refused_;
      return answer(response, 403, "names are for the presenter");
    }
    std::uint64_t after = query_number(request, "after", 0);
    auto wait = std::min<std::chrono::milliseconds>(
        std::chrono::milliseconds(query_number(request, "wait_ms", options_.poll_wait.count())),
        options_.poll_wait);
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, wait, [&] { return stopping_ || board_.version != after; });
    response.set_content(net::board_json(board_, names, followers_locked()), "application/json");
  });

  // The board as server-sent events, for the board page: one `data:` line with the board JSON at
  // once and after every change, a comment line at least every kEventKeepAlive so a dead projector
  // connection is noticed at a write. Like a long poll, each open stream holds a worker thread.
  http.Get(
      "/api/v1/board/events", [this](const httplib::Request& request, httplib::Response& response) {
        bool names = query_number(request, "names", 0) != 0;
        if (names && !same_secret(given_key(request), options_.presenter_key)) {
          ++refused_;
          return answer(response, 403, "names are for the presenter");
        }
        response.set_header("Cache-Control", "no-store");
        auto sent = std::make_shared<std::optional<std::uint64_t>>();
        response.set_chunked_content_provider(
            "text/event-stream", [this, names, sent](std::size_t, httplib::DataSink& sink) {
              std::unique_lock lock(mutex_);
              changed_.wait_for(lock, kEventKeepAlive,
                                [&] { return stopping_ || !*sent || board_.version != **sent; });
              if (stopping_) return false;
              std::string event;
              if (!*sent || board_.version != **sent) {
                *sent = board_.version;
                event = "data: " + net::board_json(board_, names, followers_locked()) + "\n\n";
              } else {
                event = ": still here\n\n";
              }
              lock.unlock();
              return sink.write(event.data(), event.size());
            });
      });

  http.Post("/api/v1/join", [this](const httplib::Request& request, httplib::Response& response) {
    auto join = parse_join_request(request.body);
    if (!join) {
      ++refused_;
      return answer(response, 400, join.message());
    }
    if (!student_limit_.allow(join->student)) {
      ++refused_;
      return answer(response, 429, "too many requests");
    }
    Status joined;
    {
      std::lock_guard lock(mutex_);
      joined = board_.join(*join);
    }
    if (!joined) {
      ++refused_;
      return answer(response, 503, joined.message());
    }
    changed_.notify_all();
    save_now();
    response.set_content("{\"schema\":1,\"type\":\"joined\"}", "application/json");
  });

  http.Post("/api/v1/result", [this](const httplib::Request& request, httplib::Response& response) {
    auto result = parse_lab_result(request.body);
    if (!result) {
      ++refused_;
      return answer(response, 400, result.message());
    }
    if (!student_limit_.allow(result->student)) {
      ++refused_;
      return answer(response, 429, "too many requests");
    }
    Result<bool> recorded = false;
    {
      std::lock_guard lock(mutex_);
      recorded = board_.record(*result);
    }
    if (!recorded) {
      ++refused_;
      return answer(response, 503, recorded.message());
    }
    if (*recorded) {
      changed_.notify_all();
      save_now();
    }
    response.set_content("{\"schema\":1,\"type\":\"recorded\"}", "application/json");
  });

  // A student's code, sent only when they pressed "Share with the teacher": kept on the board and
  // saved with it, as a result is.
  http.Post("/api/v1/share", [this](const httplib::Request& request, httplib::Response& response) {
    auto share = parse_shared_code(request.body);
    if (!share) {
      ++refused_;
      return answer(response, 400, share.message());
    }
    if (!student_limit_.allow(share->student)) {
      ++refused_;
      return answer(response, 429, "too many requests");
    }
    Result<bool> kept = false;
    {
      std::lock_guard lock(mutex_);
      kept = board_.share(*share);
    }
    if (!kept) {
      ++refused_;
      return answer(response, 503, kept.message());
    }
    if (*kept) {
      changed_.notify_all();
      save_now();
    }
    response.set_content("{\"schema\":1,\"type\":\"shared\"}", "application/json");
  });

  // The shared code, for the presenter alone: every student has the join code, and a student's
  // code is for the teacher, not the class.
  http.Get("/api/v1/shared", [this](const httplib::Request& request, httplib::Response& response) {
    if (!same_secret(given_key(request), options_.presenter_key)) {
      ++refused_;
      return answer(response, 403, "shared code is for the presenter");
    }
    std::lock_guard lock(mutex_);
    response.set_content(shared_json(board_), "application/json");
  });

  http.Post("/api/v1/follow", [this](const httplib::Request& request, httplib::Response& response) {
    if (!same_secret(given_key(request), options_.presenter_key)) {
      ++refused_;
      return answer(response, 403, "only the presenter moves the class");
    }
    auto state = parse_follow_state(request.body, options_.check);
    if (!state) {
      ++refused_;
      return answer(response, 400, state.message());
    }
    auto published = publish(*state);
    if (!published) {
      ++refused_;
      return answer(response, 400, published.message());
    }
    response.set_content(to_json(*published), "application/json");
  });
}

}  // namespace tl::net
