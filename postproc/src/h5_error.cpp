#include "h5_error.hpp"

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

}  // namespace

std::string error_stack_text() {
  std::string text;
  // Walk from the API call inwards: the innermost message usually says what really failed.
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, collect, &text);
  return text.empty() ? "no HDF5 error message" : text;
}

void context::fail(const std::string& what) const {
  const std::string detail = error_stack_text();
  H5Eclear2(H5E_DEFAULT);
  throw std::runtime_error(path + ": " + what + " (HDF5: " + detail + ")");
}

void context::fail_plain(const std::string& what) const {
  throw std::runtime_error(path + ": " + what);
}

}  // namespace ptsim::postproc::h5
