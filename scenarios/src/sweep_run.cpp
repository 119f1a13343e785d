// One run of a sweep: its stable id, its overrides, and loading it through the ordinary
// scenario loader with problems pointed back at the sweep file.
#include <algorithm>
#include <cstdio>
#include <set>

#include "ptsim/scenarios/sweep.hpp"

namespace ptsim::scenarios {

namespace {

std::string canonical(const std::vector<sweep_value>& values, std::optional<std::uint64_t> seed) {
  std::vector<std::string> lines;
  for (const auto& v : values) lines.push_back(v.path + "=" + v.text);
  std::sort(lines.begin(), lines.end());
  if (seed) lines.push_back("seed=" + std::to_string(*seed));
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

// Keeps what is safe and readable in a file name on every system.
std::string readable(const std::string& text) {
  std::string out;
  for (char ch : text)
    if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' || ch == '+' ||
        ch == '-')
      out += ch;
  return out;
}

}  // namespace

std::string content_hash(const std::string& bytes) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char b : bytes) {
    h ^= b;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::string canonical_parameters(const sweep_run& run) { return canonical(run.values, run.seed); }

std::string make_run_id(const std::vector<sweep_value>& values, std::optional<std::uint64_t> seed) {
  constexpr std::size_t max_prefix = 40;
  // In path order, like the hash, so that the whole id is independent of key order.
  std::vector<const sweep_value*> sorted;
  for (const auto& v : values) sorted.push_back(&v);
  std::sort(sorted.begin(), sorted.end(), [](const sweep_value* a, const sweep_value* b) { return a->path < b->path; });
  std::string prefix;
  for (const sweep_value* v : sorted) {
    const std::string part = readable(v->text);
    if (part.empty()) continue;
    prefix += (prefix.empty() ? "" : "_") + part;
  }
  if (seed) prefix += (prefix.empty() ? "s" : "_s") + std::to_string(*seed);
  if (prefix.size() > max_prefix) prefix.resize(max_prefix);
  while (!prefix.empty() && (prefix.back() == '_' || prefix.back() == '-' || prefix.back() == '.')) prefix.pop_back();
  if (prefix.empty()) prefix = "run";
  // A name starting with '-' would read as an option to every command-line tool.
  if (prefix.front() == '-' || prefix.front() == '.') prefix = "v" + prefix;
  return prefix + "-" + content_hash(canonical(values, seed)).substr(0, 10);
}

load_options run_load_options(const sweep_spec& sweep, const sweep_run& run) {
  load_options o;
  for (const auto& v : sweep.set) o.overrides.push_back({v.path, v.yaml});
  for (const auto& v : run.values) o.overrides.push_back({v.path, v.yaml});
  o.seed = run.seed;
  return o;
}

scenario load_sweep_run(const sweep_spec& sweep, const sweep_run& run) {
  try {
    return load_scenario_file(sweep.base, run_load_options(sweep, run));
  } catch (const scenario_error& e) {
    // A problem with an overridden value or path: point it at the sweep file instead.
    std::vector<diagnostic> out;
    for (diagnostic d : e.diagnostics()) {
      if (const auto blame = blamed_override(d)) {
        const sweep_value* v = nullptr;
        for (const auto& x : sweep.set)
          if (x.path == blame->path) v = &x;
        for (const auto& x : run.values)
          if (x.path == blame->path) v = &x;
        if (v) {
          const source_pos p = blame->path_at_fault ? v->key_at : v->value_at;
          d.file = sweep.file;
          d.line = p.line;
          d.column = p.column;
        }
      }
      out.push_back(std::move(d));
    }
    throw scenario_error(out);
  }
}

std::vector<diagnostic> check_sweep_runs(const sweep_spec& sweep, std::size_t* invalid_runs) {
  std::vector<diagnostic> out;
  std::set<std::string> seen;  // a bad value shared by many runs is reported once
  std::size_t invalid = 0;
  for (const auto& run : sweep.runs) {
    try {
      load_sweep_run(sweep, run);
    } catch (const scenario_error& e) {
      ++invalid;
      for (const auto& d : e.diagnostics())
        if (seen.insert(d.to_string()).second) out.push_back(d);
    }
  }
  if (invalid_runs) *invalid_runs = invalid;
  return out;
}

}  // namespace ptsim::scenarios
