#pragma once
// RAII ownership of one HDF5 identifier, so that early returns and exceptions close it.
#include <hdf5.h>

#include <utility>

namespace ptsim::postproc::h5 {

class handle {
 public:
  using closer = herr_t (*)(hid_t);

  handle() = default;
  handle(hid_t id, closer close) : id_(id), close_(close) {}
  ~handle() { reset(); }
  handle(handle&& o) noexcept : id_(std::exchange(o.id_, H5I_INVALID_HID)), close_(o.close_) {}
  handle& operator=(handle&& o) noexcept {
    if (this != &o) {
      reset();
      id_ = std::exchange(o.id_, H5I_INVALID_HID);
      close_ = o.close_;
    }
    return *this;
  }
  handle(const handle&) = delete;
  handle& operator=(const handle&) = delete;

  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }

  /// Closes now and returns the status, for closes whose failure matters (the file at commit).
  herr_t close() {
    herr_t status = 0;
    if (id_ >= 0 && close_) status = close_(id_);
    id_ = H5I_INVALID_HID;
    return status;
  }
  void reset() { (void)close(); }

 private:
  hid_t id_ = H5I_INVALID_HID;
  closer close_ = nullptr;
};

}  // namespace ptsim::postproc::h5
