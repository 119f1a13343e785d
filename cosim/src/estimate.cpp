#include "ptsim/cosim/estimate.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <system_error>

namespace ptsim::cosim {
namespace fs = std::filesystem;

namespace {

// Measured (bench/RESULTS.md, "Recording cost"): a sample of 36 values takes ~69 bytes
// compressed; 2 bytes a value rounds that up. Rows of the other tables, compressed.
constexpr double bytes_per_value = 2.0;
constexpr double bytes_per_op_row = 24.0;
constexpr double bytes_per_job_row = 80.0;
// What stays in memory per finished request until the jobs table is written: measured
// ~250 B for a request on one unit (bench/RESULTS.md, "Session 32"); each further unit it ran
// on adds an entry of its busy seconds (a name and a double, ~56 B with the allocator's share:
// counted, not measured). Rounded up for requests on a few units.
constexpr double memory_per_request = 320.0;

std::string fmt(double v) {
  char b[32];
  if (v < 1e7 && v == std::floor(v)) std::snprintf(b, sizeof b, "%.0f", v);
  else std::snprintf(b, sizeof b, "%.3g", v);
  return b;
}

}  // namespace

std::string format_bytes(double bytes) {
  const char* unit[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
  int i = 0;
  while (bytes >= 1000 && i < 6) bytes /= 1000, ++i;
  char b[32];
  std::snprintf(b, sizeof b, "%.3g %s", bytes, unit[i]);
  return b;
}

run_estimate estimate_run(const scenarios::scenario& sc, std::uint64_t ops_limit) {
  run_estimate e;
  const double dur = sc.duration.value();
  e.ticks = std::ceil(dur / sc.control_period.value());
  e.samples = std::ceil(dur / sc.record_period.value());
  const double blocks = static_cast<double>(sc.thermal.fp.size());
  const double comps = static_cast<double>(sc.power.size());
  const double doms = static_cast<double>(sc.domains.size());
  // temperature(block); power and low_power_residency(component); frequency, voltage,
  // utilization, throttled(domain); wall_power; time.
  e.variables = blocks + 2 * comps + 4 * doms + 2;
  for (const auto& st : sc.workload.streams) {
    const double active = std::max(0.0, dur - st.start.value());
    switch (st.arrival) {
      case tlm_config::arrival_kind::fixed_rate:
      case tlm_config::arrival_kind::poisson: e.arrivals += st.rate.value() * active; break;
      case tlm_config::arrival_kind::closed_loop:
        if (st.think_time.value() > 0) e.arrivals += st.users * (active / st.think_time.value() + 1);
        else e.arrivals += st.users, e.arrivals_open = true;
        break;
      case tlm_config::arrival_kind::trace:
        for (const auto& t : st.trace) e.arrivals += t.arrival_s < dur ? 1 : 0;
        break;
    }
  }
  e.ops_kept = static_cast<double>(ops_limit);
  e.file_bytes_raw = e.samples * e.variables * 8.0 + e.ops_kept * 40.0 + e.arrivals * 96.0;
  e.file_bytes = e.samples * e.variables * bytes_per_value + e.ops_kept * bytes_per_op_row + e.arrivals * bytes_per_job_row;
  e.memory_bytes = e.arrivals * memory_per_request;
  return e;
}

std::string describe(const run_estimate& e) {
  return "estimate: " + fmt(e.ticks) + " control ticks, " + fmt(e.samples) + " samples x " + fmt(e.variables) +
         " values, " + fmt(e.arrivals) + (e.arrivals_open ? "+ (closed loop: bounded by service time)" : "") +
         " arrivals, up to " + fmt(e.ops_kept) + " operators kept -> result file ~" + format_bytes(e.file_bytes) +
         " (" + format_bytes(e.file_bytes_raw) + " uncompressed), memory for requests ~" +
         format_bytes(e.memory_bytes);
}

std::vector<std::string> exceeded_limits(const run_estimate& e, const scenarios::scenario& sc, const fs::path& output) {
  std::vector<std::string> out;
  const auto& lim = sc.limits;
  if (e.arrivals > lim.max_arrivals)
    out.push_back("the run would generate ~" + fmt(e.arrivals) + " requests, more than limits.max_arrivals = " +
                  fmt(lim.max_arrivals) + "; shorten duration or lower the rate, or lift the bound with --set " +
                  "limits.max_arrivals=" + fmt(std::ceil(e.arrivals * 1.1)));
  double max_file = 0;
  std::string what;
  if (lim.max_file_bytes) {
    max_file = *lim.max_file_bytes;
    what = "limits.max_file_size = " + format_bytes(max_file);
  } else {
    std::error_code ec;
    fs::path dir = output.has_parent_path() ? output.parent_path() : fs::path(".");
    const auto sp = fs::space(dir, ec);
    if (!ec) {
      max_file = static_cast<double>(sp.available);
      what = "the free space on " + dir.string() + " (" + format_bytes(max_file) + ")";
    }
  }
  if (!what.empty() && e.file_bytes > max_file)
    out.push_back("the result file would take ~" + format_bytes(e.file_bytes) + " (timeseries ~" +
                  format_bytes(e.samples * e.variables * bytes_per_value) + ", operators ~" +
                  format_bytes(e.ops_kept * bytes_per_op_row) + ", jobs ~" +
                  format_bytes(e.arrivals * bytes_per_job_row) + "), more than " + what +
                  "; raise record_period, shorten duration or lower --ops-limit, or lift the bound with --set "
                  "\"limits.max_file_size=" + format_bytes(std::ceil(e.file_bytes * 1.1)) + "\"");
  double max_mem = 0;
  if (lim.max_memory_bytes) {
    max_mem = *lim.max_memory_bytes;
    what = "limits.max_memory = " + format_bytes(max_mem);
  } else {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    max_mem = pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0;
    what = "the physical memory (" + format_bytes(max_mem) + ")";
  }
  if (max_mem > 0 && e.memory_bytes > max_mem)
    out.push_back("the run would keep ~" + format_bytes(e.memory_bytes) + " of finished requests in memory, more than " +
                  what + "; shorten duration or lower the rate, or lift the bound with --set \"limits.max_memory=" +
                  format_bytes(std::ceil(e.memory_bytes * 1.1)) + "\"");
  return out;
}

}  // namespace ptsim::cosim
