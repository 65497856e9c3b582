#pragma once
/// \file Error and Expected<T>: the error channel of every fxkit library.
/// No exceptions cross library boundaries; user-input errors carry a source location.

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace fxkit {

/// A position in a text input, 1-based; line 0 means "no position".
struct SourceLoc {
  std::string file;
  int line = 0;
  int col = 0;
};

/// What went wrong: a message, where (if it came from text), and the offending text.
struct Error {
  std::string message;
  SourceLoc loc;
  std::string snippet; ///< The offending source line or token, shown under the message.

  Error() = default;
  explicit Error(std::string msg) : message(std::move(msg)) {}
  Error(std::string msg, SourceLoc where, std::string text = {})
      : message(std::move(msg)), loc(std::move(where)), snippet(std::move(text)) {}

  /// "file:line:col: error: message" followed by the snippet, if any.
  std::string str() const;
};

/// Either a value or an Error, like llvm::Expected without the mandatory-check machinery.
template <typename T> class [[nodiscard]] Expected {
public:
  Expected(T value) : state_(std::move(value)) {}
  Expected(Error err) : state_(std::move(err)) {}

  explicit operator bool() const { return state_.index() == 0; }
  bool hasValue() const { return state_.index() == 0; }

  T &operator*() {
    assert(hasValue() && "dereferencing an Expected that holds an error");
    return std::get<0>(state_);
  }
  const T &operator*() const {
    assert(hasValue() && "dereferencing an Expected that holds an error");
    return std::get<0>(state_);
  }
  T *operator->() { return &**this; }
  const T *operator->() const { return &**this; }

  const Error &error() const {
    assert(!hasValue() && "asking for the error of an Expected that holds a value");
    return std::get<1>(state_);
  }
  Error takeError() { return std::move(std::get<1>(state_)); }
  T take() { return std::move(std::get<0>(state_)); }

private:
  std::variant<T, Error> state_;
};

/// Expected<void>: success or an Error.
class [[nodiscard]] Status {
public:
  Status() = default;
  Status(Error err) : err_(std::move(err)) {}
  static Status ok() { return Status(); }
  explicit operator bool() const { return !err_.has_value(); }
  const Error &error() const {
    assert(err_ && "asking for the error of a successful Status");
    return *err_;
  }
  Error takeError() { return std::move(*err_); }

private:
  std::optional<Error> err_;
};

} // namespace fxkit
