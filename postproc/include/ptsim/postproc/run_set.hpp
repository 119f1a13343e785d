#pragma once
// Runs for `ptsim report`: result files and sweep folders, the parameters that tell runs
// apart (read from each run's own resolved scenario), and replicates grouped by seed.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "ptsim/postproc/report.hpp"
#include "ptsim/postproc/result_file.hpp"

namespace ptsim::postproc {

/// What the report needs of one result file.
struct loaded_run {
  std::string id;  ///< run id: the file name without .h5
  std::filesystem::path path;
  run_metadata meta;
  run_summary summary;
  std::vector<unit_time_row> units;
  std::vector<domain_summary_row> domains;
  std::vector<std::pair<std::string, std::string>> scenario;  ///< flattened, see below
  std::vector<std::pair<std::string, double>> component_power_W;  ///< mean over the run (W)
  std::vector<op_time_row> op_times;  ///< the ops table per unit and operator, heaviest first
  std::uint64_t ops_dropped = 0;      ///< executions the ops table did not keep
  /// Platform power (W) and hottest block (degC) at each sample time (s); empty if not recorded.
  std::vector<double> time_s, platform_power_W, max_temperature_C;
};

/// Result files named by `inputs`, in order: a file as given; a folder contributes
/// FOLDER/runs/*.h5 when it is a sweep folder (it has runs/), else FOLDER/*.h5, sorted by
/// name (".part" files, runs still being written, are skipped). Throws
/// std::invalid_argument for a path that does not exist or a folder without results.
std::vector<std::filesystem::path> expand_result_inputs(
    const std::vector<std::filesystem::path>& inputs);

/// Runs a sweep folder's summary.csv lists as failed: (run_id, error). Empty when the
/// folder has no summary.csv or it has no status column.
std::vector<std::pair<std::string, std::string>> failed_runs(const std::filesystem::path& dir);

/// A YAML document as (dotted path, scalar text) pairs in document order: maps by key,
/// sequences by index ("workload.streams.camera.stages.0.unit"), the same paths as --set.
/// Throws std::invalid_argument on malformed YAML.
std::vector<std::pair<std::string, std::string>> flatten_yaml(const std::string& yaml);

/// Bounds on reading a result's stored scenario (its root attribute `scenario`), the text a
/// report flattens: beyond them flatten_yaml throws std::invalid_argument naming the bound.
namespace limits {
inline constexpr std::size_t scenario_text_bytes = std::size_t{4} << 20;   ///< 4 MiB of YAML
inline constexpr std::size_t scenario_nodes = 1'000'000;                   ///< nodes visited, aliases followed
inline constexpr std::size_t scenario_flat_bytes = std::size_t{64} << 20;  ///< paths + values flattened
inline constexpr int scenario_depth = 64;                                  ///< nesting levels
}  // namespace limits

/// Reads each file (result_reader: throws for anything that is not a ptsim result).
std::vector<loaded_run> load_runs(const std::vector<std::filesystem::path>& files);

/// Scenario paths whose values differ between the runs, the seed left out, in document
/// order. Empty for fewer than two runs.
std::vector<std::string> swept_parameters(const std::vector<loaded_run>& runs);

/// One report entry per run, labelled by run id, with its swept parameters.
std::vector<labelled_summary> entries_per_run(const std::vector<loaded_run>& runs);

/// One entry per configuration: runs whose scenarios differ only by seed form a group
/// whose metrics are means with 95% confidence intervals (Student t); a configuration run
/// once is its run. Groups come in the order of their first run; a group is labelled by
/// its swept parameters ("governor=powersave, ambient=35 degC").
std::vector<labelled_summary> entries_by_configuration(const std::vector<loaded_run>& runs);

/// True when some configuration was run more than once.
bool has_replicates(const std::vector<loaded_run>& runs);

}  // namespace ptsim::postproc
