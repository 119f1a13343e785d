#pragma once
// The message of the exception a call throws, for tests of error messages.
#include <exception>
#include <string>
#include <utility>

namespace ptsim_test {

/// The message of the E that f throws, or "" when it throws none. An exception of another
/// type escapes, so the test fails on it.
template <class E = std::exception, class F>
std::string error_of(F&& f) {
  try {
    std::forward<F>(f)();
  } catch (const E& e) {
    return e.what();
  }
  return "";
}

}  // namespace ptsim_test
