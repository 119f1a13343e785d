#pragma once
// What the sweep needs to know about the machine and the launcher that started it.
#include <string>

namespace ptsim::cosim::sweep {

std::string host_name();

/// Cores this process may use (its CPU affinity: a Slurm or mpirun binding counts).
unsigned usable_cores();

/// Default -j: the usable cores, shared among the ranks on this node when `local_ranks` > 1
/// and the process is not bound to a subset already.
unsigned default_jobs(int local_ranks);

/// From mpirun's environment (Open MPI): ranks in the job, this rank, ranks on this node.
/// 0, 0, 1 when not started by mpirun.
int launched_ranks();
int launched_rank();
int launched_local_ranks();

}  // namespace ptsim::cosim::sweep
