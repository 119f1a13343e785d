#pragma once
// The columns of the jobs, events and floorplan groups: one 1-D dataset per column, in this
// order, so that pandas builds a DataFrame from a group directly.
#include <array>

#include "h5_io.hpp"
#include "ptsim/postproc/result_file.hpp"

namespace ptsim::postproc::layout {

struct column_def {
  const char* name;
  h5::column_type type;
  const char* units;  ///< nullptr: no units attribute (labels, or a value whose unit varies)
  const char* long_name;
};

using h5::column_type;

inline constexpr std::array<column_def, 11> job_columns{{
    {"id", column_type::i64, "1", "job id"},
    {"stream", column_type::str, nullptr, "request stream or workload"},
    {"unit", column_type::str, nullptr, "unit that ran (most of) the job"},
    {"arrival_s", column_type::f64, "s", "arrival time"},
    {"start_s", column_type::f64, "s", "start time"},
    {"finish_s", column_type::f64, "s", "finish time"},
    {"latency_s", column_type::f64, "s", "latency from arrival to finish"},
    {"energy_J", column_type::f64, "J", "energy attributed to the job"},
    {"first_token_s", column_type::f64, "s", "time of the first output token (LLM; else the finish time)"},
    {"tokens_in", column_type::i64, "1", "prompt tokens (LLM; else 0)"},
    {"tokens_out", column_type::i64, "1", "generated tokens (LLM; else 0)"},
}};

inline constexpr std::array<column_def, 5> event_columns{{
    {"time_s", column_type::f64, "s", "event time"},
    {"kind", column_type::str, nullptr, "event kind"},
    {"source", column_type::str, nullptr, "domain, zone or component"},
    {"message", column_type::str, nullptr, "description"},
    {"value", column_type::f64, nullptr, "value; its unit depends on kind (Hz for dvfs)"},
}};

inline constexpr std::array<column_def, 5> floorplan_columns{{
    {"name", column_type::str, nullptr, "block name"},
    {"x", column_type::f64, "m", "left edge"},
    {"y", column_type::f64, "m", "bottom edge"},
    {"width", column_type::f64, "m", "block width"},
    {"height", column_type::f64, "m", "block height"},
}};

inline constexpr std::array<column_def, 5> op_columns{{
    {"unit", column_type::str, nullptr, "compute unit"},
    {"operator", column_type::str, nullptr, "operator name"},
    {"start_s", column_type::f64, "s", "start time (launch included)"},
    {"end_s", column_type::f64, "s", "end time"},
    {"bound_by", column_type::str, nullptr, "compute or memory: what set the operator's pace"},
}};

inline constexpr std::array<column_def, 7> unit_summary_columns{{
    {"compute_bound_s", column_type::f64, "s", "time running compute-bound operators"},
    {"memory_bound_s", column_type::f64, "s", "time running memory-bound operators"},
    {"interconnect_bound_s", column_type::f64, "s", "time running operators bound by link transfers"},
    {"dvfs_stall_s", column_type::f64, "s", "time stalled while the clock changed"},
    {"idle_exit_s", column_type::f64, "s", "time waking from idle states"},
    {"idle_s", column_type::f64, "s", "time with no work"},
    {"ops", column_type::i64, "1", "operators finished within the run"},
}};

inline constexpr std::array<column_def, 6> domain_summary_columns{{
    {"throttled_fraction", column_type::f64, "1",
     "share of the run with the domain below its governor's request"},
    {"throttled_thermal_fraction", column_type::f64, "1", "... because of a thermal ceiling"},
    {"throttled_power_fraction", column_type::f64, "1", "... because of a power cap"},
    {"busy_s", column_type::f64, "s", "busy time of the domain's compute units, summed over the units"},
    {"time_lost_thermal_s", column_type::f64, "s",
     "compute-bound time added by running below the request because of a thermal ceiling"},
    {"time_lost_power_s", column_type::f64, "s",
     "compute-bound time added by running below the request because of a power cap"},
}};
/// Columns a file of schema 1.1 may lack (read as 0).
inline constexpr std::size_t domain_summary_columns_in_1_1 = 3;

// The row fields the number columns hold, in the columns' order: the writer and the reader
// both walk these, so a column is bound to its field here and nowhere else.
inline constexpr std::array<double unit_time_row::*, 6> unit_summary_fields{
    &unit_time_row::compute_bound_s, &unit_time_row::memory_bound_s, &unit_time_row::interconnect_bound_s,
    &unit_time_row::dvfs_stall_s,    &unit_time_row::idle_exit_s,    &unit_time_row::idle_s};
/// unit_summary's last column: the operator count.
inline constexpr std::size_t unit_summary_ops_column = unit_summary_fields.size();
static_assert(unit_summary_columns.size() == unit_summary_fields.size() + 1);

inline constexpr std::array<double domain_summary_row::*, 6> domain_summary_fields{
    &domain_summary_row::throttled_fraction, &domain_summary_row::throttled_thermal_fraction,
    &domain_summary_row::throttled_power_fraction, &domain_summary_row::busy_s,
    &domain_summary_row::time_lost_thermal_s, &domain_summary_row::time_lost_power_s};
static_assert(domain_summary_columns.size() == domain_summary_fields.size());

}  // namespace ptsim::postproc::layout
