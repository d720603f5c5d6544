// check.h - internal invariants (our bugs, never the user's) --------------//
// Owns: EXGC_CHECK and EXGC_UNREACHABLE. A failed check throws InternalError,
// which the driver reports as "internal error" with the step that was running;
// user input problems go through diagnostics (diagnostics.h), never here.
#pragma once
#include <sstream>
#include <stdexcept>
#include <string>

namespace exgc {

class InternalError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

namespace detail {
/// Builds the message only when the check failed, then throws from its destructor.
class CheckFailure {
public:
  CheckFailure(const char *file, int line, const char *cond) {
    os_ << file << ":" << line << ": internal check failed: " << cond << " ";
  }
  [[noreturn]] ~CheckFailure() noexcept(false) { throw InternalError(os_.str()); }
  template <typename T> CheckFailure &operator<<(const T &v) {
    os_ << v;
    return *this;
  }

private:
  std::ostringstream os_;
};
} // namespace detail

} // namespace exgc

#define EXGC_CHECK(cond)                                                       \
  if (cond) {                                                                  \
  } else                                                                       \
    ::exgc::detail::CheckFailure(__FILE__, __LINE__, #cond)

#define EXGC_UNREACHABLE(msg)                                                  \
  ::exgc::detail::CheckFailure(__FILE__, __LINE__, "unreachable") << msg
