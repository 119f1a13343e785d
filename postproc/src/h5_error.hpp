#pragma once
// HDF5 failures as std::runtime_error naming the file, instead of a stack printed to stderr.
#include <hdf5.h>

#include <string>

namespace ptsim::postproc::h5 {

/// While alive, HDF5 does not print its error stack; the previous handler is restored after.
/// Every public entry point of postproc that calls HDF5 holds one.
class quiet_errors {
 public:
  quiet_errors();
  ~quiet_errors();
  quiet_errors(const quiet_errors&) = delete;
  quiet_errors& operator=(const quiet_errors&) = delete;

 private:
  H5E_auto2_t old_func_ = nullptr;
  void* old_data_ = nullptr;
};

/// The messages on the current HDF5 error stack, innermost last, on one line.
std::string error_stack_text();

/// The innermost reason on the current HDF5 error stack, as a user reads it: the operating
/// system's message when a system call failed ("File too large", "No space left on device"),
/// else the innermost HDF5 description. "unknown HDF5 error" when the stack is empty.
std::string error_reason();

/// True when PTSIM_DEBUG is set to anything but "" or "0": errors then carry the whole
/// HDF5 error stack besides the short reason.
bool debug_enabled();

/// Where errors are reported: the file every message names.
struct context {
  std::string path;

  /// Throws std::runtime_error "<path>: <what>: <innermost reason>", and clears the HDF5
  /// error stack. With PTSIM_DEBUG set, " [HDF5 stack: ...]" follows with every message.
  [[noreturn]] void fail(const std::string& what) const;
  /// Throws std::runtime_error "<path>: <what>" without consulting HDF5.
  [[noreturn]] void fail_plain(const std::string& what) const;
  hid_t check(hid_t id, const std::string& what) const {
    if (id < 0) fail(what);
    return id;
  }
  void check_status(herr_t status, const std::string& what) const {
    if (status < 0) fail(what);
  }
};

}  // namespace ptsim::postproc::h5
