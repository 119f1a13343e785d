#include "machine.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

namespace ptsim::cosim::sweep {

namespace {
int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const long x = std::strtol(v, &end, 10);
  return (*end == '\0' && x >= 0 && x < 1 << 24) ? static_cast<int>(x) : fallback;
}
}  // namespace

std::string host_name() {
  char buf[256] = {0};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

unsigned usable_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return static_cast<unsigned>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
}

unsigned default_jobs(int local_ranks) {
  const unsigned cores = usable_cores();
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  if (local_ranks > 1 && online > 0 && cores >= static_cast<unsigned>(online))
    return std::max(1u, cores / static_cast<unsigned>(local_ranks));
  return cores;
}

int launched_ranks() { return env_int("OMPI_COMM_WORLD_SIZE", 0); }
int launched_rank() { return env_int("OMPI_COMM_WORLD_RANK", 0); }
int launched_local_ranks() { return std::max(1, env_int("OMPI_COMM_WORLD_LOCAL_SIZE", 1)); }

}  // namespace ptsim::cosim::sweep
