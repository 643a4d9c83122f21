#pragma once
// Errors are values: every operation that can fail returns a Status or a Result<T> whose message is
// written for the person using ThreadLab, never an exit() or an exception escaping a library.

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace tl {

enum class ErrorKind {
  kInvalidArgument,  // the user asked for something impossible (bad size, bad launch configuration)
  kOutOfMemory,      // host or device allocation failed
  kCudaError,        // the CUDA runtime returned an error (launch, copy, event, ...)
  kCudaStickyError,  // the CUDA context is corrupted and must be reset before any further work
  kNoDevice,         // no usable CUDA device
  kGraphicsError,    // OpenGL, EGL, window or interop failure
  kIoError,          // file could not be read or written
  kParseError,       // a file or an argument could not be understood
  kCancelled,        // the user cancelled a running operation
  kTooSlow,          // refused because it would take far too long on this executor
};

struct Error {
  ErrorKind kind;
  std::string message;
};

class Status {
 public:
  Status() = default;
  Status(Error error) : error_(std::move(error)) {}  // NOLINT: implicit from an error is the point
  static Status ok() { return {}; }

  [[nodiscard]] bool is_ok() const { return !error_.has_value(); }
  explicit operator bool() const { return is_ok(); }
  [[nodiscard]] const Error& error() const { return *error_; }
  [[nodiscard]] const std::string& message() const { return error_->message; }

 private:
  std::optional<Error> error_;
};

template <typename T>
class Result {
 public:
  Result(T value) : state_(std::move(value)) {}             // NOLINT
  Result(Error error) : state_(std::move(error)) {}         // NOLINT
  Result(const Status& status) : state_(status.error()) {}  // only for a failed status

  [[nodiscard]] bool is_ok() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return is_ok(); }
  [[nodiscard]] T& value() { return std::get<T>(state_); }
  [[nodiscard]] const T& value() const { return std::get<T>(state_); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  [[nodiscard]] const Error& error() const { return std::get<Error>(state_); }
  [[nodiscard]] const std::string& message() const { return error().message; }
  [[nodiscard]] Status status() const { return is_ok() ? Status{} : Status{error()}; }

 private:
  std::variant<T, Error> state_;
};

inline Error invalid_argument(std::string message) {
  return {ErrorKind::kInvalidArgument, std::move(message)};
}

}  // namespace tl

// Returns the failed status of an expression from the enclosing function.
#define TL_RETURN_IF_ERROR(expr)                        \
  do {                                                  \
    ::tl::Status tl_status_ = (expr);                   \
    if (!tl_status_.is_ok()) return tl_status_.error(); \
  } while (false)
