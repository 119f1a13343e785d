#pragma once
// MPI for sweeps started by mpirun. Rank 0 hands out run indices as ranks ask for them (and
// runs its share too); every rank runs its runs as child processes, which never join the
// job; rank 0 writes the summary once every rank has reported its end. Only polling
// (MPI_Iprobe, MPI_Test) between short sleeps: Open MPI's blocking calls spin, and would
// take a core from the runs.
#include <functional>
#include <memory>
#include <vector>

#include "signals.hpp"
#include "work_source.hpp"

namespace ptsim::cosim::sweep {

/// Whether this ptsim was built with MPI (PTSIM_WITH_MPI and MPI found).
bool built_with_mpi();

/// This rank's part in the MPI job: MPI_Init_thread on construction, MPI_Finalize on destruction.
class mpi_job {
 public:
  mpi_job();
  ~mpi_job();
  mpi_job(const mpi_job&) = delete;
  mpi_job& operator=(const mpi_job&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  /// Rank 0's `value`, on every rank (waits by polling).
  int broadcast(int value);

  /// Rank 0: hands `to_run` out to every rank, itself included (through the returned source);
  /// `remote` hears of each run that ended on another rank.
  work_source& dispatch(std::vector<std::size_t> to_run, std::function<void(const run_result&, int rank)> remote);
  /// Rank 0, after its own runs: keeps serving until every other rank has reported its end.
  /// On a stop signal it tells the others to stop; returns false if they do not report within
  /// `patience_s` after that.
  bool wait_for_ranks(const signal_watch& signals, double patience_s);
  /// Rank 0: lets the other ranks go (after the summary is written).
  void release();

  /// Other ranks: asks rank 0 for runs; a stop from rank 0 is raised on `signals`.
  work_source& request(const signal_watch& signals);
  /// Other ranks, after their runs: report the end, then wait until rank 0 lets go.
  void report_end_and_wait();

  /// Ends the whole job now.
  [[noreturn]] void abort(int code);

 private:
  struct impl;
  std::unique_ptr<impl> p_;
  int rank_ = 0, size_ = 1;
};

}  // namespace ptsim::cosim::sweep
