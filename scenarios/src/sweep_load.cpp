// Sweep files: parsing and checking the structure (with line:column), then expansion into
// runs in a fixed order (grid keys in file order, first key outermost; then zip groups;
// replicate seeds innermost).
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

#include "ptsim/text/input_file.hpp"
#include "diagnostic_text.hpp"
#include "ptsim/scenarios/schema.hpp"
#include "ptsim/scenarios/sweep.hpp"
#include "yaml_subset.hpp"

namespace ptsim::scenarios {
namespace fs = std::filesystem;
using detail::found;

namespace {

constexpr std::size_t max_runs = 1000000;

const std::vector<std::string>& top_keys() {
  static const std::vector<std::string> k{"name", "description", "base", "set", "grid",
                                          "zip",  "replicates",  "seeds", "base_seed"};
  return k;
}

source_pos pos_of(const YAML::Mark& m) {
  if (m.is_null()) return {};
  return {m.line + 1, m.column + 1};
}

// Collects every problem, so that one load reports them all.
struct collector {
  std::string file;
  std::vector<diagnostic> diags;
  void report(const YAML::Mark& m, const std::string& path, const std::string& message) {
    diagnostic d;
    d.file = file;
    const source_pos p = pos_of(m);
    d.line = p.line;
    d.column = p.column;
    d.path = path;
    d.message = message;
    diags.push_back(std::move(d));
  }
  void report(const YAML::Node& n, const std::string& path, const std::string& message) {
    report(n.Mark(), path, message);
  }
};

struct entry {
  std::string key;
  YAML::Node key_node, value;
};

// The entries of a mapping; non-scalar and duplicate keys are reported and left out.
std::vector<entry> entries_of(const YAML::Node& map, const std::string& path, collector& c) {
  std::vector<entry> out;
  for (auto it = map.begin(); it != map.end(); ++it) {
    if (!it->first.IsScalar()) {
      c.report(it->first, path, "expected a key, found " + found(it->first));
      continue;
    }
    const std::string key = it->first.Scalar();
    bool dup = false;
    for (const auto& e : out)
      if (e.key == key) {
        c.report(it->first, path.empty() ? key : path + "." + key,
                 "duplicate key '" + key + "' (first given at line " +
                     std::to_string(e.key_node.Mark().line + 1) + ")");
        dup = true;
        break;
      }
    if (!dup) out.push_back({key, it->first, it->second});
  }
  return out;
}

bool valid_dotted_path(const std::string& p) {
  if (p.empty() || p.front() == '.' || p.back() == '.' || p.find("..") != std::string::npos) return false;
  for (char ch : p)
    if (ch == ' ' || ch == '\t' || ch == '=') return false;
  return true;
}

sweep_value make_value(const std::string& path, const YAML::Node& key, const YAML::Node& v) {
  sweep_value sv;
  sv.path = path;
  // null removes what the path names (as --set KEY=null does): a run without a component.
  sv.text = v.IsNull() ? "null" : v.IsScalar() ? v.Scalar() : flow_yaml(v);
  sv.yaml = v.IsNull() ? "null" : flow_yaml(v);
  sv.key_at = pos_of(key.Mark());
  sv.value_at = pos_of(v.Mark());
  return sv;
}

bool parse_count(const YAML::Node& n, std::uint64_t max, std::uint64_t& out) {
  if (!n.IsScalar()) return false;
  const std::string& t = n.Scalar();
  if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos || t.size() > 19) return false;
  out = std::stoull(t);
  return out <= max;
}

// One axis of the product: a grid key (one value per row) or a zip group (several).
struct axis {
  std::vector<std::vector<sweep_value>> rows;
};

// Where a path was first given, to report one path given twice across set, grid and zip.
struct path_registry {
  std::map<std::string, std::pair<std::string, YAML::Mark>> first;  // path -> (section, key position)
  void add(const std::string& path, const std::string& section, const YAML::Node& key, collector& c) {
    auto [it, fresh] = first.emplace(path, std::make_pair(section, key.Mark()));
    if (!fresh)
      c.report(key, section + "." + path,
               "'" + path + "' is already given in " + it->second.first + " (line " +
                   std::to_string(it->second.second.line + 1) + "); a path may appear once across set, grid and zip");
  }
};

void read_set(const YAML::Node& n, sweep_spec& s, path_registry& paths, collector& c) {
  if (n.IsNull()) return;
  if (!n.IsMap()) return c.report(n, "set", "expected a mapping of dotted paths to values, found " + found(n));
  for (const auto& e : entries_of(n, "set", c)) {
    const std::string where = "set." + e.key;
    if (!valid_dotted_path(e.key)) {
      c.report(e.key_node, where, "expected a dotted scenario path such as 'thermal.ambient', found '" + e.key + "'");
      continue;
    }
    paths.add(e.key, "set", e.key_node, c);
    s.set.push_back(make_value(e.key, e.key_node, e.value));
  }
}

// A list of values for one path; nullopt (after reporting) when it is not one.
std::optional<std::vector<sweep_value>> read_list(const entry& e, const std::string& where, collector& c) {
  if (!valid_dotted_path(e.key)) {
    c.report(e.key_node, where, "expected a dotted scenario path such as 'thermal.ambient', found '" + e.key + "'");
    return std::nullopt;
  }
  if (!e.value.IsSequence() || e.value.size() == 0) {
    c.report(e.value, where, "expected a non-empty list of values, found " +
                                 (e.value.IsSequence() ? std::string("an empty list") : found(e.value)));
    return std::nullopt;
  }
  std::vector<sweep_value> out;
  for (std::size_t i = 0; i < e.value.size(); ++i) out.push_back(make_value(e.key, e.key_node, e.value[i]));
  return out;
}

void read_grid(const YAML::Node& n, std::vector<axis>& axes, std::vector<std::string>& params,
               path_registry& paths, collector& c) {
  if (n.IsNull()) return;
  if (!n.IsMap()) return c.report(n, "grid", "expected a mapping of dotted paths to lists of values, found " + found(n));
  for (const auto& e : entries_of(n, "grid", c)) {
    const std::string where = "grid." + e.key;
    auto values = read_list(e, where, c);
    if (!values) continue;
    paths.add(e.key, "grid", e.key_node, c);
    axis a;
    for (std::size_t i = 0; i < values->size(); ++i) {
      const sweep_value& v = (*values)[i];
      bool dup = false;
      for (const auto& row : a.rows)
        if (row[0].text == v.text) {
          diagnostic d{c.file, v.value_at.line, v.value_at.column, where + "[" + std::to_string(i) + "]",
                       "duplicate value '" + v.text + "' (also at line " + std::to_string(row[0].value_at.line) +
                           "): the sweep would run the same point twice"};
          c.diags.push_back(d);
          dup = true;
          break;
        }
      if (!dup) a.rows.push_back({v});
    }
    params.push_back(e.key);
    axes.push_back(std::move(a));
  }
}

void read_zip_group(const YAML::Node& n, const std::string& where, std::vector<axis>& axes,
                    std::vector<std::string>& params, path_registry& paths, collector& c) {
  if (!n.IsMap() || n.size() == 0)
    return c.report(n, where, "expected a mapping of dotted paths to lists of the same length, found " +
                                  (n.IsMap() ? std::string("an empty mapping") : found(n)));
  std::vector<std::vector<sweep_value>> cols;
  std::string first_key;
  bool ok = true;
  for (const auto& e : entries_of(n, where, c)) {
    const std::string at = where + "." + e.key;
    auto values = read_list(e, at, c);
    if (!values) {
      ok = false;
      continue;
    }
    paths.add(e.key, "zip", e.key_node, c);
    if (!cols.empty() && values->size() != cols.front().size()) {
      c.report(e.value, at, "expected " + std::to_string(cols.front().size()) + " values (as many as " + where +
                                "." + first_key + ": lists in zip vary together), found " +
                                std::to_string(values->size()));
      ok = false;
      continue;
    }
    if (cols.empty()) first_key = e.key;
    params.push_back(e.key);
    cols.push_back(std::move(*values));
  }
  if (!ok || cols.empty()) return;
  axis a;
  for (std::size_t r = 0; r < cols.front().size(); ++r) {
    std::vector<sweep_value> row;
    for (const auto& col : cols) row.push_back(col[r]);
    for (const auto& prev : a.rows) {
      bool same = true;
      for (std::size_t k = 0; k < row.size(); ++k) same = same && prev[k].text == row[k].text;
      if (same) {
        diagnostic d{c.file, row[0].value_at.line, row[0].value_at.column,
                     where + "." + first_key + "[" + std::to_string(r) + "]",
                     "duplicate point: row " + std::to_string(r) + " of this zip group repeats the row at line " +
                         std::to_string(prev[0].value_at.line)};
        c.diags.push_back(d);
        row.clear();
        break;
      }
    }
    if (!row.empty()) a.rows.push_back(std::move(row));
  }
  axes.push_back(std::move(a));
}

void read_zip(const YAML::Node& n, std::vector<axis>& axes, std::vector<std::string>& params, path_registry& paths,
              collector& c) {
  if (n.IsNull()) return;
  if (n.IsSequence()) {
    if (n.size() == 0) return c.report(n, "zip", "expected a mapping (or a list of mappings), found an empty list");
    for (std::size_t g = 0; g < n.size(); ++g)
      read_zip_group(n[g], "zip[" + std::to_string(g) + "]", axes, params, paths, c);
    return;
  }
  read_zip_group(n, "zip", axes, params, paths, c);
}

// Seeds from `replicates` (+ `base_seed`) or `seeds`; empty when the sweep is not replicated.
std::vector<std::uint64_t> read_seeds(const std::map<std::string, entry>& top, collector& c) {
  std::vector<std::uint64_t> seeds;
  const auto rep = top.find("replicates"), list = top.find("seeds"), base = top.find("base_seed");
  constexpr std::uint64_t max_seed = std::uint64_t{1} << 53;  // exact in a double, as the schema reads it
  if (rep != top.end() && list != top.end()) {
    c.report(list->second.key_node, "seeds", "give either replicates or seeds, not both (replicates is at line " +
                                                 std::to_string(rep->second.key_node.Mark().line + 1) + ")");
    return seeds;
  }
  if (base != top.end() && rep == top.end()) {
    c.report(base->second.key_node, "base_seed", "base_seed is the first seed of replicates, which is not given");
    return seeds;
  }
  if (rep != top.end()) {
    std::uint64_t n = 0, first = 1;
    if (!parse_count(rep->second.value, max_runs, n) || n == 0) {
      c.report(rep->second.value, "replicates",
               "expected a whole number of replicates from 1 to " + std::to_string(max_runs) + ", found " +
                   found(rep->second.value));
      return seeds;
    }
    if (base != top.end() && !parse_count(base->second.value, max_seed, first)) {
      c.report(base->second.value, "base_seed", "expected a non-negative whole number, found " + found(base->second.value));
      return seeds;
    }
    for (std::uint64_t i = 0; i < n; ++i) seeds.push_back(first + i);
    return seeds;
  }
  if (list != top.end()) {
    const YAML::Node& l = list->second.value;
    if (!l.IsSequence() || l.size() == 0) {
      c.report(l, "seeds", "expected a non-empty list of seeds, found " +
                               (l.IsSequence() ? std::string("an empty list") : found(l)));
      return seeds;
    }
    std::map<std::uint64_t, int> seen;
    for (std::size_t i = 0; i < l.size(); ++i) {
      std::uint64_t v = 0;
      const std::string at = "seeds[" + std::to_string(i) + "]";
      if (!parse_count(l[i], max_seed, v)) {
        c.report(l[i], at, "expected a non-negative whole number, found " + found(l[i]));
        continue;
      }
      auto [it, fresh] = seen.emplace(v, l[i].Mark().line + 1);
      if (!fresh) {
        c.report(l[i], at, "duplicate seed " + std::to_string(v) + " (also at line " + std::to_string(it->second) + ")");
        continue;
      }
      seeds.push_back(v);
    }
  }
  return seeds;
}

std::string read_text(const std::string& path, const char* what, const source_pos& at, const std::string& origin) {
  std::string why;
  auto content = text::read_input_file(path, why);
  if (!content)
    throw scenario_error(
        {diagnostic{origin, at.line, at.column, "", std::string("cannot open the ") + what + " '" + path + "': " + why}});
  return std::move(*content);
}

}  // namespace

bool is_sweep_text(const std::string& text) {
  // A top-level `base` key must spell "base" in the text, but for an escape (a backslash)
  // or a UTF-16/32 encoding (NUL bytes). Without any of them the answer is no, without
  // parsing: validate asks this of every file, and yaml-cpp parses ~4 MB/s.
  if (text.find("base") == std::string::npos && text.find('\\') == std::string::npos &&
      text.find('\0') == std::string::npos)
    return false;
  try {
    const YAML::Node root = detail::load_yaml(text);
    return root.IsMap() && root["base"].IsDefined();
  } catch (const YAML::Exception&) {
    return false;
  }
}

bool is_sweep_file(const std::string& path) {
  std::string why;
  const auto content = text::read_input_file(path, why);
  return content && is_sweep_text(*content);
}

sweep_spec load_sweep_text(const std::string& text, const std::string& file) {
  collector c{file, {}};
  YAML::Node root;
  try {
    root = detail::load_yaml(text);
  } catch (const YAML::ParserException& e) {
    throw scenario_error({diagnostic{file, e.mark.line + 1, e.mark.column + 1, "", "YAML syntax error: " + e.msg}});
  }
  if (!root.IsMap()) {
    c.report(root, "", "expected a sweep (a mapping with base, and grid, zip, replicates or seeds), found " +
                           std::string(root.IsNull() ? "an empty document" : root.IsSequence() ? "a list" : "a plain value"));
    throw scenario_error(c.diags);
  }
  std::map<std::string, entry> top;
  for (auto& e : entries_of(root, "", c)) {
    bool known = false;
    for (const auto& k : top_keys()) known = known || k == e.key;
    if (!known) {
      c.report(e.key_node, e.key, detail::unknown_key(e.key, top_keys()));
      continue;
    }
    top.emplace(e.key, e);
  }

  sweep_spec s;
  s.file = file;
  s.text = text;
  s.name = fs::path(file).stem().string();
  if (auto it = top.find("name"); it != top.end()) {
    if (!it->second.value.IsScalar() || it->second.value.Scalar().empty())
      c.report(it->second.value, "name", "expected a non-empty string, found " + found(it->second.value));
    else if (auto why = file_name_problem(it->second.value.Scalar()))  // it names results/<name>
      c.report(it->second.value, "name", *why);
    else
      s.name = it->second.value.Scalar();
  }
  if (auto it = top.find("description"); it != top.end() && !it->second.value.IsScalar())
    c.report(it->second.value, "description", "expected a string, found " + found(it->second.value));
  if (auto it = top.find("base"); it == top.end()) {
    c.report(root, "base", "missing required key 'base' (the scenario file the runs start from)");
  } else if (!it->second.value.IsScalar() || it->second.value.Scalar().empty()) {
    c.report(it->second.value, "base", "expected the path of a scenario file, found " + found(it->second.value));
  } else {
    fs::path b = it->second.value.Scalar();
    if (b.is_relative()) b = fs::path(file).parent_path() / b;
    s.base = b.lexically_normal().string();
    s.base_at = pos_of(it->second.value.Mark());
  }

  path_registry paths;
  std::vector<axis> axes;
  if (auto it = top.find("set"); it != top.end()) read_set(it->second.value, s, paths, c);
  if (auto it = top.find("grid"); it != top.end()) read_grid(it->second.value, axes, s.parameters, paths, c);
  if (auto it = top.find("zip"); it != top.end()) read_zip(it->second.value, axes, s.parameters, paths, c);
  const std::vector<std::uint64_t> seeds = read_seeds(top, c);
  s.replicated = !seeds.empty();
  if (s.replicated) {
    if (auto it = paths.first.find("seed"); it != paths.first.end())
      c.report(it->second.second, it->second.first + ".seed",
               "'seed' is varied by replicates/seeds; it cannot also be given in " + it->second.first);
  }
  if (!c.diags.empty()) throw scenario_error(c.diags);

  // Expansion: an odometer over the axes, the last one fastest; seeds innermost.
  std::size_t total = s.replicated ? seeds.size() : 1;
  for (const auto& a : axes) {
    if (total > max_runs / a.rows.size()) {
      c.report(root, "", "the sweep expands to more than " + std::to_string(max_runs) + " runs");
      throw scenario_error(c.diags);
    }
    total *= a.rows.size();
  }
  s.runs.reserve(total);
  std::vector<std::size_t> at(axes.size(), 0);
  std::map<std::string, std::size_t> ids;
  for (std::size_t n = 0; n < total; n += s.replicated ? seeds.size() : 1) {
    std::vector<sweep_value> values;
    for (std::size_t k = 0; k < axes.size(); ++k)
      for (const auto& v : axes[k].rows[at[k]]) values.push_back(v);
    const std::size_t reps = s.replicated ? seeds.size() : 1;
    for (std::size_t r = 0; r < reps; ++r) {
      sweep_run run;
      run.index = s.runs.size();
      run.values = values;
      if (s.replicated) run.seed = seeds[r];
      run.id = make_run_id(run.values, run.seed);
      auto [it, fresh] = ids.emplace(run.id, run.index);
      if (!fresh)  // per-axis duplicates are caught above; this would be a hash collision
        throw scenario_error({diagnostic{file, 0, 0, "", "runs " + std::to_string(it->second) + " and " +
                                                             std::to_string(run.index) + " have the same id '" +
                                                             run.id + "'"}});
      s.runs.push_back(std::move(run));
    }
    for (std::size_t k = axes.size(); k-- > 0;) {
      if (++at[k] < axes[k].rows.size()) break;
      at[k] = 0;
    }
  }
  return s;
}

sweep_spec load_sweep_file(const std::string& path) {
  const std::string text = read_text(path, "sweep file", {}, path);
  sweep_spec s = load_sweep_text(text, path);
  std::error_code ec;
  if (!fs::is_regular_file(s.base, ec))
    throw scenario_error({diagnostic{path, s.base_at.line, s.base_at.column, "base",
                                     "base scenario not found: expected a scenario file at '" + s.base + "'"}});
  return s;
}

std::string sweep_identity(const sweep_spec& s) {
  const std::string base = read_text(s.base, "base scenario", s.base_at, s.file);
  return content_hash(s.text + std::string(1, '\0') + base);
}

std::string flow_yaml(const YAML::Node& n) {
  YAML::Emitter em;
  em.SetMapFormat(YAML::Flow);
  em.SetSeqFormat(YAML::Flow);
  em << n;
  return em.c_str();
}

}  // namespace ptsim::scenarios
