#pragma once
// HDF5's process-wide state. Call prepare_hdf5_library() once at program start, before
// any file is opened: it turns off HDF5's exit-time cleanup, which in HDF5 1.10 crashes
// on a file whose close failed (a full disk, a file-size limit) after ptsim has already
// reported the error and removed the partial file.
namespace ptsim::postproc {
void prepare_hdf5_library();
}  // namespace ptsim::postproc
