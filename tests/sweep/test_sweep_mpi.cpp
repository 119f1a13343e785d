// `mpirun -np 2 ptsim sweep`: the ranks share the runs (rank 0 hands them out and runs its
// share), and the summary equals the local sweep's, number for number.
#include <algorithm>
#include <set>

#include "sweep_helpers.hpp"

using namespace sweep_test;

namespace {
const std::string mpirun =
    "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 "
    "mpirun --oversubscribe --allow-run-as-root -np 2 '" + ptsim_exe + "' ";
}  // namespace

TEST_CASE("two MPI ranks share a sweep; the table equals the local one") {
#if !PTSIM_HAVE_MPI
  MESSAGE("skipped: this ptsim was built without MPI (PTSIM_WITH_MPI=OFF, or MPI not found)");
  return;
#else
  if (std::system("command -v mpirun >/dev/null 2>&1") != 0) {
    MESSAGE("skipped: mpirun is not installed (apt-get install openmpi-bin)");
    return;
  }
  scratch s("mpi");
  s.write("six.yaml", "base: " + default_scenario +
                          "\n"
                          "set: { duration: \"2 s\" }\n"
                          "grid:\n"
                          "  policy.governor: [performance, powersave, schedutil]\n"
                          "  thermal.ambient: [\"25 degC\", \"35 degC\"]\n");
  REQUIRE(run_ptsim(s.dir, "sweep six.yaml -o local -j2").exit_code == 0);

  const result r = run_in(s.dir, mpirun + "sweep six.yaml -o mpi");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.err, "on each of 2 MPI ranks"));
  CHECK(r.out == "mpi/summary.csv\n");  // rank 0 alone writes it and says so
  const auto local = summary(s.dir / "local"), mpi = summary(s.dir / "mpi");
  check_same_results(local, mpi);
  check_same_series(s.dir / "local", s.dir / "mpi", local);  // bit for bit across ranks
  std::set<std::int64_t> ranks;
  for (const auto& row : mpi.rows) ranks.insert(row.wall_rank);
  CHECK(ranks == std::set<std::int64_t>{0, 1});  // rank 0 ran its share too
  CHECK(files_ending(s.dir / "mpi" / "runs", ".h5").size() == 6);
  CHECK(files_ending(s.dir / "mpi" / "runs", ".part").empty());

  // Resumed under mpirun with nothing left: nothing runs, the same table.
  const result again = run_in(s.dir, mpirun + "sweep six.yaml -o mpi --resume");
  INFO(again.err);
  CHECK(again.exit_code == 0);
  CHECK(contains(again.err, "0 of 6 runs"));
  check_same_results(local, summary(s.dir / "mpi"));
  // A refused folder stops every rank (no hang).
  CHECK(run_in(s.dir, mpirun + "sweep six.yaml -o mpi").exit_code != 0);
#endif
}
