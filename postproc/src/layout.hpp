#pragma once
// Names and shapes of the result file, shared by writer and reader so that they cannot drift.
#include <hdf5.h>

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

inline constexpr const char* time_name = "time";
inline constexpr const char* attr_units = "units";
inline constexpr const char* attr_long_name = "long_name";
inline constexpr const char* attr_throughput_units = "throughput_units";
inline constexpr const char* attr_record_period_s = "record_period_s";
inline constexpr const char* throughput_metric = "throughput";
/// Every time coordinate and duration: seconds spelled "s" (xarray turns "seconds" into
/// timedeltas).
inline constexpr const char* seconds = "s";

// Rows buffered in memory and written as one chunk: one HDF5 write per chunk, not per sample.
inline constexpr hsize_t timeseries_chunk_rows = 256;
inline constexpr hsize_t table_chunk_rows = 4096;

}  // namespace ptsim::postproc::layout
