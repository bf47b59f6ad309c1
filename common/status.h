// Status and Result<T>: errors as values on every path that can fail because of
// input, the network or the disk. Exceptions are reserved for programming errors.
// A Status is cheap to copy when ok (no allocation). Thread-compatible.
#pragma once

#include <cassert>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace mr {

enum class StatusCode : int {
  kOk = 0,
  kInvalidArgument = 1,   // bad flag, bad input, malformed message
  kNotFound = 2,          // missing file, unknown job / task / policy
  kAlreadyExists = 3,     // output directory exists
  kIoError = 4,           // disk read/write failed
  kNetworkError = 5,      // connect/read/write failed, peer gone
  kProtocolError = 6,     // bad frame, version mismatch, unexpected message
  kPermissionDenied = 7,  // wrong cluster token
  kFailedPrecondition = 8,
  kUnavailable = 9,       // try again later (master not ready)
  kAborted = 10,          // job or task killed
  kInternal = 11,
  kDataLoss = 12,         // bytes failed their checksum: the copy read is corrupt
};

std::string_view StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }
  static Status InvalidArgument(std::string m) { return {StatusCode::kInvalidArgument, std::move(m)}; }
  static Status NotFound(std::string m) { return {StatusCode::kNotFound, std::move(m)}; }
  static Status AlreadyExists(std::string m) { return {StatusCode::kAlreadyExists, std::move(m)}; }
  static Status IoError(std::string m) { return {StatusCode::kIoError, std::move(m)}; }
  static Status NetworkError(std::string m) { return {StatusCode::kNetworkError, std::move(m)}; }
  static Status ProtocolError(std::string m) { return {StatusCode::kProtocolError, std::move(m)}; }
  static Status PermissionDenied(std::string m) { return {StatusCode::kPermissionDenied, std::move(m)}; }
  static Status FailedPrecondition(std::string m) { return {StatusCode::kFailedPrecondition, std::move(m)}; }
  static Status Unavailable(std::string m) { return {StatusCode::kUnavailable, std::move(m)}; }
  static Status Aborted(std::string m) { return {StatusCode::kAborted, std::move(m)}; }
  static Status Internal(std::string m) { return {StatusCode::kInternal, std::move(m)}; }
  static Status DataLoss(std::string m) { return {StatusCode::kDataLoss, std::move(m)}; }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "CodeName: message", or "OK".
  std::string ToString() const;
  // Returns a copy with "context: " prepended to the message.
  Status WithContext(std::string_view context) const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

// Holds either a value or a non-ok Status. REQUIRES: value() only when ok().
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}            // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {      // NOLINT: implicit by design
    assert(!std::get<Status>(v_).ok() && "Result constructed from an ok Status");
  }

  bool ok() const { return std::holds_alternative<T>(v_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(v_);
  }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace mr

#define MR_CONCAT_INNER_(a, b) a##b
#define MR_CONCAT_(a, b) MR_CONCAT_INNER_(a, b)

#define MR_RETURN_IF_ERROR(expr)               \
  do {                                         \
    ::mr::Status mr_status_ = (expr);          \
    if (!mr_status_.ok()) return mr_status_;   \
  } while (0)

#define MR_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                              \
  if (!tmp.ok()) return tmp.status();             \
  lhs = std::move(tmp).value()

#define MR_ASSIGN_OR_RETURN(lhs, expr) \
  MR_ASSIGN_OR_RETURN_IMPL_(MR_CONCAT_(mr_result_, __LINE__), lhs, expr)
