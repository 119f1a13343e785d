#include "fit_outputs.hpp"

#include <hdf5.h>
#include <hdf5_hl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <stdexcept>

#include "ptsim/scenarios/sweep.hpp"

namespace ptsim::cosim::calibration {

namespace {

namespace fs = std::filesystem;

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string num(double x) { return std::isfinite(x) ? number_text(x) : ""; }

std::string percent(double e) {
  if (!std::isfinite(e)) return "none";
  char b[32];
  std::snprintf(b, sizeof b, "%.3g %%", 100 * e);
  return b;
}

// A nested mapping of dotted paths, for the overlay.
struct tree {
  std::map<std::string, tree> children;
  std::vector<std::string> order;
  std::string value, comment;
  bool leaf = false;
  void put(const std::string& path, const std::string& yaml, const std::string& note) {
    const auto dot = path.find('.');
    const std::string head = path.substr(0, dot);
    if (!children.count(head)) order.push_back(head);
    tree& c = children[head];
    if (dot == std::string::npos) {
      c.leaf = true;
      c.value = yaml;
      c.comment = note;
    } else {
      c.put(path.substr(dot + 1), yaml, note);
    }
  }
  void print(std::ostream& os, int indent) const {
    for (const auto& k : order) {
      const tree& c = children.at(k);
      YAML::Emitter key;
      key << k;
      os << std::string(static_cast<std::size_t>(indent), ' ') << key.c_str() << ":";
      if (c.leaf) {
        os << " " << c.value;
        if (!c.comment.empty()) os << "  # " << c.comment;
        os << "\n";
      } else {
        os << "\n";
        c.print(os, indent + 2);
      }
    }
  }
};

// Rows of the long table: (row outcome, role) in row order.
std::vector<std::pair<const row_outcome*, const char*>> all_rows(const fit_result& r) {
  std::vector<std::pair<const row_outcome*, const char*>> v;
  for (const auto& o : r.fitted) v.emplace_back(&o, "fitted");
  for (const auto& o : r.held_out) v.emplace_back(&o, "held_out");
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first->row < b.first->row; });
  return v;
}

void h5_check(herr_t rc, const std::string& what) {
  if (rc < 0) throw std::runtime_error("cannot write " + what + " to the HDF5 summary");
}

void write_strings(hid_t loc, const char* name, const std::vector<std::string>& v) {
  std::size_t width = 1;
  for (const auto& s : v) width = std::max(width, s.size());
  std::string buf(width * v.size(), '\0');
  for (std::size_t i = 0; i < v.size(); ++i) buf.replace(i * width, v[i].size(), v[i]);
  const hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, width);
  H5Tset_strpad(t, H5T_STR_NULLPAD);
  H5Tset_cset(t, H5T_CSET_UTF8);
  const hsize_t dims[1] = {v.size()};
  const hid_t space = H5Screate_simple(1, dims, nullptr);
  const hid_t ds = H5Dcreate2(loc, name, t, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  const herr_t rc = ds < 0 ? -1 : H5Dwrite(ds, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data());
  if (ds >= 0) H5Dclose(ds);
  H5Sclose(space);
  H5Tclose(t);
  h5_check(rc, name);
}

void write_doubles(hid_t loc, const char* name, const std::vector<double>& v, const std::string& units) {
  const hsize_t dims[1] = {v.size()};
  h5_check(H5LTmake_dataset_double(loc, name, 1, dims, v.data()), name);
  if (!units.empty()) h5_check(H5LTset_attribute_string(loc, name, "units", units.c_str()), name);
}

void write_h5(const fs::path& file, const study& s, const fit_result& r) {
  const hid_t f = H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (f < 0) throw std::runtime_error("cannot create " + file.string());
  try {
    h5_check(H5LTset_attribute_string(f, "/", "calibration", s.file.c_str()), "calibration");
    h5_check(H5LTset_attribute_string(f, "/", "data_file", s.table.file.c_str()), "data_file");
    const std::string hash = scenarios::content_hash(s.table.text);
    h5_check(H5LTset_attribute_string(f, "/", "data_hash", hash.c_str()), "data_hash");
    h5_check(H5LTset_attribute_double(f, "/", "fitted_error", &r.fitted_error, 1), "fitted_error");
    h5_check(H5LTset_attribute_double(f, "/", "held_out_error", &r.held_out_error, 1), "held_out_error");
    const double counts[3] = {static_cast<double>(r.evaluations.size()), static_cast<double>(r.runs_total),
                              static_cast<double>(r.runs_simulated)};
    h5_check(H5LTset_attribute_double(f, "/", "evaluations", &counts[0], 1), "evaluations");
    h5_check(H5LTset_attribute_double(f, "/", "runs", &counts[1], 1), "runs");
    h5_check(H5LTset_attribute_double(f, "/", "runs_simulated", &counts[2], 1), "runs_simulated");

    // parameters(parameter): name, unit, value, low, high, start
    const hid_t gp = H5Gcreate2(f, "parameters", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    std::vector<std::string> names, units;
    std::vector<double> value, lo, hi, start;
    for (std::size_t i = 0; i < s.parameters.size(); ++i) {
      const auto& p = s.parameters[i];
      names.push_back(p.path);
      units.push_back(p.unit);
      value.push_back(r.best[i]);
      lo.push_back(p.lo);
      hi.push_back(p.hi);
      start.push_back(p.start);
    }
    write_strings(gp, "name", names);
    write_strings(gp, "unit", units);
    write_doubles(gp, "value", value, "");
    write_doubles(gp, "low", lo, "");
    write_doubles(gp, "high", hi, "");
    write_doubles(gp, "start", start, "");
    H5Gclose(gp);

    // rows(point): one per row and target, as fit.csv
    const hid_t gr = H5Gcreate2(f, "rows", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    std::vector<double> row, measured, simulated, error;
    std::vector<std::string> role, tgt, metric, conditions;
    for (const auto& [o, rl] : all_rows(r))
      for (std::size_t k = 0; k < s.targets.size(); ++k) {
        const auto& m = s.rows[o->row - 1].measured[k];
        if (!m) continue;
        row.push_back(static_cast<double>(o->row));
        role.push_back(rl);
        tgt.push_back(s.targets[k].column);
        metric.push_back(s.targets[k].quantity());
        std::string c;
        for (const auto& v : s.rows[o->row - 1].conditions) c += (c.empty() ? "" : " ") + v.path + "=" + v.text;
        conditions.push_back(c);
        measured.push_back(*m);
        simulated.push_back(o->simulated[k]);
        error.push_back(o->error[k]);
      }
    write_doubles(gr, "row", row, "1");
    write_strings(gr, "role", role);
    write_strings(gr, "conditions", conditions);
    write_strings(gr, "target", tgt);
    write_strings(gr, "metric", metric);
    write_doubles(gr, "measured", measured, "");
    write_doubles(gr, "simulated", simulated, "");
    write_doubles(gr, "error", error, "1");
    H5Gclose(gr);

    // evaluations(evaluation): error and each parameter's value, in the order tried
    const hid_t ge = H5Gcreate2(f, "evaluations", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    std::vector<double> err;
    std::vector<std::string> stage;
    for (const auto& e : r.evaluations) {
      err.push_back(e.error);
      stage.push_back(e.stage);
    }
    write_doubles(ge, "error", err, "1");
    write_strings(ge, "stage", stage);
    for (std::size_t i = 0; i < s.parameters.size(); ++i) {
      std::vector<double> xs;
      for (const auto& e : r.evaluations) xs.push_back(e.x[i]);
      write_doubles(ge, s.parameters[i].path.c_str(), xs, s.parameters[i].unit);
    }
    H5Gclose(ge);
  } catch (...) {
    H5Fclose(f);
    throw;
  }
  if (H5Fclose(f) < 0) throw std::runtime_error("cannot close " + file.string());
}

void run_plot(const fs::path& csv, const fs::path& out) {
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("cannot start the plot (fork)");
  if (pid == 0) {
    execl("/usr/bin/python3", "python3", PTSIM_CALIBRATION_PLOT, csv.c_str(), out.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int st = 0;
  while (waitpid(pid, &st, 0) < 0) {
  }
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
    throw std::runtime_error("the plot (/usr/bin/python3 " PTSIM_CALIBRATION_PLOT ") failed");
}

}  // namespace

fit_outputs claim_fit_outputs(const fs::path& dir, bool force) {
  postproc::output_rules rules;
  rules.force = force;
  rules.make_parents = true;
  fit_outputs o;
  o.overlay = std::make_unique<postproc::output_file>(dir / "calibrated.yaml", rules);
  o.csv = std::make_unique<postproc::output_file>(dir / "fit.csv", rules);
  o.h5 = std::make_unique<postproc::output_file>(dir / "fit.h5", rules);
  o.plot = std::make_unique<postproc::output_file>(dir / "fit.png", rules);
  return o;
}

std::string calibrated_yaml(const study& s, const fit_result& r, const fs::path& dir) {
  std::ostringstream os;
  os << "# Calibrated by `ptsim calibrate " << s.file << "`.\n"
     << "# Data: " << s.table.file << " (content hash " << scenarios::content_hash(s.table.text) << ", "
     << s.rows.size() << " rows)\n";
  for (const auto& c : s.table.comments) os << "#   " << c << "\n";
  os << "# Error (weighted RMS of the targets' errors): fitted rows " << percent(r.fitted_error) << " ("
     << r.fitted_rows.size() << " rows), held-out rows " << percent(r.held_out_error) << " ("
     << r.held_out_rows.size() << " rows)\n"
     << "# " << r.evaluations.size() << " evaluations (DIRECT-L, then " << r.local_algorithm << "), "
     << r.runs_total << " runs (" << r.runs_simulated << " simulated by the last call)\n"
     << "# Each row ran this scenario with the row's conditions as --set (fit.csv).\n";
  std::error_code ec;
  fs::path base = fs::relative(s.scenario, fs::absolute(dir), ec);
  if (ec || base.empty()) base = s.scenario;
  YAML::Emitter ext;
  ext << base.string();
  os << "extends: " << ext.c_str() << "\n";
  tree t;
  for (const auto& v : s.set) t.put(v.path, v.yaml, "shared condition of the measurements");
  for (std::size_t i = 0; i < s.parameters.size(); ++i) {
    const auto& p = s.parameters[i];
    YAML::Emitter v;
    v << p.value_text(r.best[i]);
    const std::string note = "fitted (" + p.path + ") within [" + p.value_text(p.lo) + ", " + p.value_text(p.hi) +
                             "], from " + p.value_text(p.start);
    for (const auto& path : p.paths) t.put(path, v.c_str(), note);
  }
  t.print(os, 0);
  return os.str();
}

std::string fit_csv(const study& s, const fit_result& r) {
  std::ostringstream os;
  os << "row,role";
  for (const auto& c : s.condition_columns) os << "," << csv_field(c);
  os << ",target,metric,units,measured,simulated,error,error_kind,failure\n";
  for (const auto& [o, role] : all_rows(r))
    for (std::size_t k = 0; k < s.targets.size(); ++k) {
      const auto& m = s.rows[o->row - 1].measured[k];
      if (!m) continue;
      const auto& t = s.targets[k];
      os << o->row << "," << role;
      for (const auto& c : s.condition_columns) {
        std::string v;
        for (const auto& x : s.rows[o->row - 1].conditions)
          if (x.path == c) v = x.text;
        os << "," << csv_field(v);
      }
      os << "," << csv_field(t.column) << "," << csv_field(t.quantity()) << "," << csv_field(t.units()) << ","
         << num(*m) << "," << num(o->simulated[k]) << "," << num(o->error[k]) << ","
         << (t.relative ? "relative" : "absolute") << "," << csv_field(o->failure) << "\n";
    }
  return os.str();
}

void write_fit_outputs(fit_outputs& o, const study& s, const fit_result& r, const fs::path& dir) {
  o.overlay->stream() << calibrated_yaml(s, r, dir);
  o.csv->stream() << fit_csv(s, r);
  o.csv->stream().flush();
  write_h5(o.h5->write_path(), s, r);
  run_plot(o.csv->write_path(), o.plot->write_path());
  o.overlay->commit();
  o.csv->commit();
  o.h5->commit();
  o.plot->commit();
}

}  // namespace ptsim::cosim::calibration
