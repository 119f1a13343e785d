// The MPI side of sweeps, for a build without MPI: nothing to start.
#include <cstdlib>
#include <stdexcept>

#include "mpi_job.hpp"

namespace ptsim::cosim::sweep {

bool built_with_mpi() { return false; }

struct mpi_job::impl {};

mpi_job::mpi_job() { throw std::logic_error("this ptsim was built without MPI"); }
mpi_job::~mpi_job() = default;
int mpi_job::broadcast(int value) { return value; }
work_source& mpi_job::dispatch(std::vector<std::size_t>, std::function<void(const run_result&, int)>) {
  throw std::logic_error("this ptsim was built without MPI");
}
bool mpi_job::wait_for_ranks(const signal_watch&, double) { return true; }
void mpi_job::release() {}
work_source& mpi_job::request(const signal_watch&) { throw std::logic_error("this ptsim was built without MPI"); }
void mpi_job::report_end_and_wait() {}
void mpi_job::abort(int code) { std::_Exit(code); }

}  // namespace ptsim::cosim::sweep
