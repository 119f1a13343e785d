#pragma once
// The columns of the jobs, events and floorplan groups: one 1-D dataset per column, in this
// order, so that pandas builds a DataFrame from a group directly.
#include <array>

#include "h5_io.hpp"

namespace ptsim::postproc::layout {

struct column_def {
  const char* name;
  h5::column_type type;
  const char* units;  ///< nullptr: no units attribute (labels, or a value whose unit varies)
  const char* long_name;
};

using h5::column_type;

inline constexpr std::array<column_def, 8> job_columns{{
    {"id", column_type::i64, nullptr, "job id"},
    {"stream", column_type::str, nullptr, "request stream or workload"},
    {"unit", column_type::str, nullptr, "unit that ran (most of) the job"},
    {"arrival_s", column_type::f64, "s", "arrival time"},
    {"start_s", column_type::f64, "s", "start time"},
    {"finish_s", column_type::f64, "s", "finish time"},
    {"latency_s", column_type::f64, "s", "latency from arrival to finish"},
    {"energy_J", column_type::f64, "J", "energy attributed to the job"},
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

}  // namespace ptsim::postproc::layout
