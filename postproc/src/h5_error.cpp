#include "h5_error.hpp"

#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace ptsim::postproc::h5 {

quiet_errors::quiet_errors() {
  H5Eget_auto2(H5E_DEFAULT, &old_func_, &old_data_);
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

quiet_errors::~quiet_errors() { H5Eset_auto2(H5E_DEFAULT, old_func_, old_data_); }

namespace {

herr_t collect(unsigned /*n*/, const H5E_error2_t* err, void* data) {
  auto* text = static_cast<std::string*>(data);
  if (err->desc && *err->desc) {
    if (!text->empty()) text->append("; ");
    text->append(err->func_name ? err->func_name : "?");
    text->append("(): ");
    text->append(err->desc);
  }
  return 0;
}

// Keeps the innermost (last visited, walking downward) non-empty description.
herr_t innermost(unsigned /*n*/, const H5E_error2_t* err, void* data) {
  if (err->desc && *err->desc) *static_cast<std::string*>(data) = err->desc;
  return 0;
}

}  // namespace

std::string error_reason() {
  std::string desc;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, innermost, &desc);
  if (desc.empty()) return "unknown HDF5 error";
  // The sec2 (POSIX) driver reports a failed system call as "... errno = 27, error message =
  // 'File too large', ...": the operating system's words are what the user needs.
  const std::string key = "error message = '";
  const auto at = desc.find(key);
  if (at != std::string::npos) {
    const auto from = at + key.size();
    const auto to = desc.find('\'', from);
    if (to != std::string::npos && to > from) return desc.substr(from, to - from);
  }
  return desc;
}

bool debug_enabled() {
  const char* v = std::getenv("PTSIM_DEBUG");
  return v && *v && std::strcmp(v, "0") != 0;
}

std::string error_stack_text() {
  std::string text;
  // Walk from the API call inwards: the innermost message usually says what really failed.
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, collect, &text);
  return text.empty() ? "no HDF5 error message" : text;
}

void context::fail(const std::string& what) const {
  std::string message = path + ": " + what + ": " + error_reason();
  if (debug_enabled()) message += " [HDF5 stack: " + error_stack_text() + "]";
  H5Eclear2(H5E_DEFAULT);
  throw std::runtime_error(message);
}

void context::fail_plain(const std::string& what) const {
  throw std::runtime_error(path + ": " + what);
}

}  // namespace ptsim::postproc::h5
