#pragma once
// Names and shapes of the result file, shared by writer and reader so that they cannot drift.
#include <hdf5.h>

#include <cstddef>

namespace ptsim::postproc::layout {

// Root attributes.
inline constexpr const char* attr_ptsim_version = "ptsim_version";
inline constexpr const char* attr_schema_version = "schema_version";
inline constexpr const char* attr_schema_major = "schema_version_major";
inline constexpr const char* attr_schema_minor = "schema_version_minor";
inline constexpr const char* attr_scenario = "scenario";
inline constexpr const char* attr_scenario_name = "scenario_name";
inline constexpr const char* attr_seed = "seed";
inline constexpr const char* attr_host = "host";
inline constexpr const char* attr_start_time = "start_time";
inline constexpr const char* attr_wall_s = "wall_s";

inline constexpr const char* group_timeseries = "timeseries";
inline constexpr const char* group_jobs = "jobs";
inline constexpr const char* group_events = "events";
inline constexpr const char* group_floorplan = "floorplan";
inline constexpr const char* group_summary = "summary";
inline constexpr const char* group_ops = "ops";
inline constexpr const char* group_unit_summary = "unit_summary";
inline constexpr const char* group_domain_summary = "domain_summary";
inline constexpr const char* group_tasks = "tasks";
inline constexpr const char* group_task_residency = "task_residency";
inline constexpr const char* group_task_runs = "task_runs";
inline constexpr const char* group_job_energy = "job_energy";
/// job_energy's dataset over (job, component): its job coordinate holds the jobs' ids.
inline constexpr const char* job_energy_name = "energy_J";
inline constexpr const char* component_dim = "component";

// Row dimensions of the tables: each column has one of these attached as an HDF5 dimension
// scale, so that xarray (h5netcdf) opens every group as a Dataset with no glue code. job,
// event and op are bare dimensions (no stored values); block, unit and domain hold labels.
inline constexpr const char* jobs_dim = "job";
inline constexpr const char* events_dim = "event";
inline constexpr const char* ops_dim = "op";
inline constexpr const char* floorplan_dim = "block";
inline constexpr const char* unit_dim = "unit";
inline constexpr const char* domain_dim = "domain";
inline constexpr const char* tasks_dim = "task";
inline constexpr const char* task_residency_dim = "residency";
inline constexpr const char* task_runs_dim = "run";

// ops group attributes.
inline constexpr const char* attr_ops_limit = "limit";
inline constexpr const char* attr_ops_dropped = "dropped";
/// xarray decodes fixed-length byte strings to str when this attribute says how.
inline constexpr const char* attr_encoding = "_Encoding";

inline constexpr const char* time_name = "time";
inline constexpr const char* attr_units = "units";
inline constexpr const char* attr_long_name = "long_name";
/// "higher" or "lower": which way a metric or per-unit column is better (metric_catalogue.hpp).
inline constexpr const char* attr_better = "better";
inline constexpr const char* attr_throughput_units = "throughput_units";
/// On a summary peak: the window (s) the power or temperature is averaged or sampled over.
inline constexpr const char* attr_window_s = "window_s";
inline constexpr const char* attr_record_period_s = "record_period_s";
inline constexpr const char* throughput_metric = "throughput";
/// Every time coordinate and duration: seconds spelled "s" (xarray turns "seconds" into
/// timedeltas).
inline constexpr const char* seconds = "s";

// Rows buffered in memory and written as one chunk: one HDF5 write per chunk, not per sample.
// Bigger chunks amortise the compressor's per-chunk set-up (its Huffman tables) and HDF5's
// per-chunk bookkeeping: 4096 rows took a third less time than 1024 (32 KiB a column).
inline constexpr hsize_t timeseries_chunk_rows = 4096;
/// A run expected to record fewer samples gets chunks of the next power of two from this.
inline constexpr hsize_t timeseries_min_chunk_rows = 64;
inline constexpr hsize_t table_chunk_rows = 4096;
/// Full timeseries chunks waiting for the background writer before append_sample waits.
inline constexpr std::size_t timeseries_chunks_in_flight = 4;
/// Deflate level: for the timeseries and operator times, ISA-L's (chunk_codec.hpp; level 1
/// runs 7x zlib's level 1 on timeseries chunks for chunks 0.7 % larger); for the other tables,
/// zlib's through HDF5's filter (1 compresses them within a few percent of level 4 at two
/// thirds of the time). bench/RESULTS.md, "Recording cost".
inline constexpr int deflate_level = 1;

}  // namespace ptsim::postproc::layout
