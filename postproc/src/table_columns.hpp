#pragma once
// The columns of the jobs, events and floorplan groups: one 1-D dataset per column, in this
// order, so that pandas builds a DataFrame from a group directly.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

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

inline constexpr std::array<column_def, 12> job_columns{{
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
    {"state", column_type::str, nullptr, "finished, unfinished (queued or running at the end) or dropped"},
}};
/// Columns a file before schema 1.5 has (no state: every row finished).
inline constexpr std::size_t job_columns_in_1_4 = 11;

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

// Row tables (jobs, events, floorplan, ops): each column bound to its row member, in the
// columns' order; the writer and the reader walk these (for_each_field), and the binding is
// checked at compile time: as many members as columns, each of its column's type.
inline constexpr auto job_fields =
    std::make_tuple(&job_row::id, &job_row::stream, &job_row::unit, &job_row::arrival_s, &job_row::start_s,
                    &job_row::finish_s, &job_row::latency_s, &job_row::energy_J, &job_row::first_token_s,
                    &job_row::tokens_in, &job_row::tokens_out, &job_row::state);
inline constexpr auto job_fields_1_4 =
    std::make_tuple(&job_row::id, &job_row::stream, &job_row::unit, &job_row::arrival_s, &job_row::start_s,
                    &job_row::finish_s, &job_row::latency_s, &job_row::energy_J, &job_row::first_token_s,
                    &job_row::tokens_in, &job_row::tokens_out);
static_assert(std::tuple_size_v<decltype(job_fields_1_4)> == job_columns_in_1_4);
inline constexpr auto event_fields =
    std::make_tuple(&event_row::time_s, &event_row::kind, &event_row::source, &event_row::message, &event_row::value);
inline constexpr auto floorplan_fields = std::make_tuple(&floorplan_row::name, &floorplan_row::x_m, &floorplan_row::y_m,
                                                         &floorplan_row::width_m, &floorplan_row::height_m);
inline constexpr auto op_fields =
    std::make_tuple(&op_row::unit, &op_row::op, &op_row::start_s, &op_row::end_s, &op_row::bound_by);

inline constexpr std::array<column_def, 7> task_columns{{
    {"name", column_type::str, nullptr, "task: <stream>/<stage index>:<graph>"},
    {"stream", column_type::str, nullptr, "request stream"},
    {"runs", column_type::i64, "1", "jobs the task ran"},
    {"wakeups", column_type::i64, "1", "wake-ups (placements)"},
    {"migrations", column_type::i64, "1", "wake-ups that moved it to another CPU"},
    {"fallbacks", column_type::i64, "1", "placements by spare capacity (system overutilised, or it fitted nowhere)"},
    {"run_s", column_type::f64, "s", "time running, over every CPU"},
}};
inline constexpr auto task_fields =
    std::make_tuple(&task_row::task, &task_row::stream, &task_row::runs, &task_row::wakeups, &task_row::migrations,
                    &task_row::fallbacks, &task_row::run_s);
inline constexpr std::array<column_def, 4> task_residency_columns{{
    {"task", column_type::str, nullptr, "task"},
    {"cpu", column_type::str, nullptr, "CPU (runqueue: a cpu_cluster unit)"},
    {"residency_s", column_type::f64, "s", "time the task ran on the CPU"},
    {"share", column_type::f64, "1", "share of the task's running time"},
}};
inline constexpr auto task_residency_fields = std::make_tuple(&task_residency_row::task, &task_residency_row::cpu,
                                                              &task_residency_row::residency_s, &task_residency_row::share);
inline constexpr std::array<column_def, 4> task_run_columns{{
    {"task", column_type::str, nullptr, "task"},
    {"cpu", column_type::str, nullptr, "CPU it ran on"},
    {"start_s", column_type::f64, "s", "start of the run"},
    {"end_s", column_type::f64, "s", "end of the run"},
}};
inline constexpr auto task_run_fields =
    std::make_tuple(&task_run_row::task, &task_run_row::cpu, &task_run_row::start_s, &task_run_row::end_s);

template <typename T>
constexpr column_type column_type_of() {
  static_assert(std::is_same_v<T, double> || std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::string>,
                "a table column holds double, std::int64_t or std::string");
  if constexpr (std::is_same_v<T, double>) return column_type::f64;
  else if constexpr (std::is_same_v<T, std::int64_t>) return column_type::i64;
  else return column_type::str;
}
template <typename Row, typename M>
constexpr column_type column_type_of(M Row::*) {
  return column_type_of<M>();
}
template <std::size_t N, typename Fields, std::size_t... I>
constexpr bool columns_bound(const std::array<column_def, N>& c, const Fields& f, std::index_sequence<I...>) {
  return ((c[I].type == column_type_of(std::get<I>(f))) && ...);
}
template <std::size_t N, typename Fields>
constexpr bool columns_bound(const std::array<column_def, N>& c, const Fields& f) {
  if constexpr (std::tuple_size_v<Fields> != N) return false;
  else return columns_bound(c, f, std::make_index_sequence<N>{});
}
static_assert(columns_bound(job_columns, job_fields));
static_assert(columns_bound(event_columns, event_fields));
static_assert(columns_bound(floorplan_columns, floorplan_fields));
static_assert(columns_bound(op_columns, op_fields));
static_assert(columns_bound(task_columns, task_fields));
static_assert(columns_bound(task_residency_columns, task_residency_fields));
static_assert(columns_bound(task_run_columns, task_run_fields));

/// fn(k, member) for each field of a row table, k being its column's index.
template <typename Fields, typename Fn>
void for_each_field(const Fields& fields, Fn&& fn) {
  std::apply(
      [&](auto... member) {
        std::size_t k = 0;
        (fn(k++, member), ...);
      },
      fields);
}

/// The ops table is written as it streams (times as chunks, names as label codes), so its
/// writer addresses columns by role; these name them.
enum op_column : std::size_t { op_unit, op_name, op_start, op_end, op_bound };
static_assert(std::string_view(op_columns[op_unit].name) == "unit" &&
              std::string_view(op_columns[op_name].name) == "operator" &&
              std::string_view(op_columns[op_start].name) == "start_s" &&
              std::string_view(op_columns[op_end].name) == "end_s" &&
              std::string_view(op_columns[op_bound].name) == "bound_by");

}  // namespace ptsim::postproc::layout
