// ptsim list governors|components|workloads|scenarios|metrics — generated from the code's own
// declarations (governor registry, scenario schema, model zoo, scenario library).
#include <algorithm>
#include <filesystem>
#include <cmath>
#include <iomanip>
#include <iostream>

#include "commands.hpp"
#include "ptsim/postproc/metric_catalogue.hpp"
#include "ptsim/power/governor.hpp"
#include "ptsim/power/thermal_governor.hpp"
#include "ptsim/scenarios/scenario.hpp"
#include "ptsim/scenarios/schema.hpp"
#include "ptsim/tlm_config/model_zoo.hpp"

namespace ptsim::cosim::cli {
namespace fs = std::filesystem;

std::vector<std::string> scenario_dirs() {
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("PTSIM_SCENARIO_DIR")) dirs.push_back(env);
  dirs.push_back("scenarios");
  dirs.push_back(PTSIM_SOURCE_SCENARIO_DIR);
  dirs.push_back(PTSIM_INSTALL_SCENARIO_DIR);
  return dirs;
}

namespace {

std::string describe_value(const scenarios::schema_node& s) {
  using scenarios::node_type;
  switch (s.type) {
    case node_type::quantity: return "[" + scenarios::unit_hint(s.dim, s.absolute_temperature) + "]";
    case node_type::integer: return "[integer]";
    case node_type::number: return "[number]";
    case node_type::boolean: return "[bool]";
    case node_type::enumeration: return "[choice]";
    case node_type::map_of: return "[map]";
    case node_type::list_of: return "[list]";
    case node_type::object: return "[section]";
    default: return "[string]";
  }
}

void list_governor_infos(const std::vector<power::governor_info>& infos) {
  for (const auto& g : infos) {
    std::cout << "  " << g.name << "  " << g.description << "\n";
    for (const auto& t : g.tunables) {
      std::cout << "      " << std::left << std::setw(22) << t.name << " default ";
      // A derived default (NaN) is said in the meaning.
      if (std::isnan(t.default_value)) std::cout << std::setw(8) << "derived";
      else std::cout << std::setw(8) << t.default_value;
      std::cout << " " << t.meaning << "\n";
    }
  }
}

void list_governors() {
  std::cout << "cpufreq and devfreq governors (policy.governor, policy.memory_governor, policy.devfreq_governor, "
               "policy.governors.<domain>):\n";
  list_governor_infos(power::governor_registry::instance().list());
  std::cout << "thermal governors (policy.thermal and policy.thermal_zones.<name>: governor, tunables):\n  none\n";
  list_governor_infos(power::thermal_governor_registry::instance().list());
}

void list_components() {
  const auto root = scenarios::scenario_schema();
  const auto& comps = root->find("platform")->schema->find("components")->schema->element;
  for (const auto& [kind, obj] : comps->variants) {
    std::cout << kind << ": " << obj->doc << "\n";
    for (const auto& f : obj->fields) {
      if (f.key == "kind") continue;
      std::cout << "    " << std::left << std::setw(20) << f.key << " " << std::setw(12) << describe_value(*f.schema)
                << (f.required ? "required " : "") << f.schema->doc;
      if (f.schema->default_value) std::cout << " (default " << *f.schema->default_value << ")";
      std::cout << "\n";
    }
  }
}

void list_workloads() {
  for (const auto& m : tlm_config::model_zoo()) {
    std::cout << m.name << ": " << m.description << "\n";
    for (const auto& p : m.params)
      std::cout << "    " << std::left << std::setw(12) << p.name << " default " << std::setw(8) << p.default_value
                << " " << p.meaning << "\n";
  }
}

// Units as a reader sees them: the workload's throughput units are named, not templated.
std::string shown_units(std::string_view units) {
  if (units == "{throughput}") return "throughput units";
  if (units == "{per_joule}") return "throughput per J";
  return std::string(units);
}

void list_metrics() {
  using postproc::better_name;
  std::cout << "summary metrics (ptsim report, --best, --where; a run has those that apply):\n";
  for (const auto& m : postproc::summary_metrics())
    std::cout << "  " << std::left << std::setw(28) << m.name << std::setw(18) << shown_units(m.units)
              << std::setw(8) << better_name(m.direction) << m.description << "\n";
  std::cout << "per label (NAME[label]; a run with one stream also has the per-stream ones as NAME):\n";
  for (const auto& m : postproc::labelled_metrics()) {
    const char* label = "";
    switch (m.over) {
      case postproc::label_kind::stream: label = "[<stream>]"; break;
      case postproc::label_kind::llm_stream: label = "[<llm stream>]"; break;
      case postproc::label_kind::component: label = "[<component>]"; break;
      case postproc::label_kind::group: label = "[<group>]"; break;
    }
    std::cout << "  " << std::left << std::setw(28) << (std::string(m.name) + label) << std::setw(18)
              << shown_units(m.units) << std::setw(8) << better_name(m.direction) << m.description << "\n";
  }
  std::cout << "columns of the per-unit and per-domain tables rank as NAME[unit] or NAME[domain]\n"
               "(e.g. throttled_fraction[big]); higher/lower: which way --best takes without max:/min:\n";
}

void list_scenarios() {
  for (const auto& d : scenario_dirs()) {
    if (!fs::is_directory(d)) continue;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(d))
      if (e.path().extension() == ".yaml") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    std::cout << "in " << d << ":\n";
    for (const auto& f : files) {
      try {
        const auto sc = scenarios::load_scenario_file(f.string());
        std::cout << "  " << std::left << std::setw(36) << f.filename().string() << sc.name << " ("
                  << sc.duration.value() << " s)\n";
      } catch (const std::exception& e) {
        std::cout << "  " << std::left << std::setw(36) << f.filename().string() << "INVALID: first error: "
                  << std::string(e.what()).substr(0, std::string(e.what()).find('\n')) << "\n";
      }
    }
    return;
  }
  std::cout << "no scenario library found (looked in:";
  for (const auto& d : scenario_dirs()) std::cout << " " << d;
  std::cout << ")\n";
}

}  // namespace

void add_list(CLI::App& app) {
  auto what = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("list", "List governors, components, workloads, scenarios or metrics");
  cmd->add_option("what", *what, "governors, components, workloads, scenarios or metrics")
      ->required()
      ->check(CLI::IsMember({"governors", "components", "workloads", "scenarios", "metrics"}));
  cmd->callback([what] {
    if (*what == "governors") list_governors();
    else if (*what == "components") list_components();
    else if (*what == "workloads") list_workloads();
    else if (*what == "metrics") list_metrics();
    else list_scenarios();
  });
}

void add_schema(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("schema", "Print the scenario format as JSON Schema");
  cmd->callback([] { std::cout << scenarios::to_json_schema(scenarios::scenario_schema()); });
}

}  // namespace ptsim::cosim::cli
