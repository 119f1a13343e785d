#include "ptsim/postproc/hdf5_library.hpp"

#include <hdf5.h>

namespace ptsim::postproc {
void prepare_hdf5_library() { H5dont_atexit(); }
}  // namespace ptsim::postproc
