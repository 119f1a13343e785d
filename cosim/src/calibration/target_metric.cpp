#include "target_metric.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "ptsim/postproc/metric_catalogue.hpp"
#include "ptsim/postproc/result_file.hpp"
#include "study.hpp"

namespace ptsim::cosim::calibration {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// The mean over the run of a timeseries' value: each sample covers its record period, ending
// at its time (the first from 0), so each is weighed by that period's length.
template <class Value>
double period_weighted_mean(const std::vector<double>& t, Value value_at) {
  double integral = 0, span = 0, prev = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    integral += value_at(i) * (t[i] - prev);
    span += t[i] - prev;
    prev = t[i];
  }
  return span > 0 ? integral / span : nan;
}

// "ttft_p50_s" with prefix "ttft_p" and suffix "_s": the percentile, if the middle is one.
bool percentile_name(const std::string& t, const std::string& prefix, const std::string& suffix, double& q) {
  if (t.size() <= prefix.size() + suffix.size() || t.compare(0, prefix.size(), prefix) != 0 ||
      t.compare(t.size() - suffix.size(), suffix.size(), suffix) != 0)
    return false;
  const std::string mid = t.substr(prefix.size(), t.size() - prefix.size() - suffix.size());
  if (mid.empty() || mid.find_first_not_of("0123456789.") != std::string::npos) return false;
  char* end = nullptr;
  q = std::strtod(mid.c_str(), &end);
  return *end == '\0' && q >= 0 && q <= 100;
}

std::string accepted() {
  std::string names;
  for (const auto& m : postproc::summary_metrics()) names += (names.empty() ? "" : ", ") + std::string(m.name);
  return "a summary metric (" + names +
         "), power:COMPONENT+COMPONENT..., job_energy:COMPONENT+COMPONENT..., freq:DOMAIN, ttft_pQ_s, itl_pQ_s, "
         "decode_rate_pQ or job_time_mean_s";
}

// "A+B+gpu[0-3]" after "power:" or "job_energy:": the component names, ranges expanded.
std::vector<std::string> component_sum(const std::string& text, const std::string& list) {
  std::vector<std::string> out;
  std::size_t from = 0;
  while (from <= list.size()) {
    const std::size_t plus = list.find('+', from);
    const std::string term = list.substr(from, plus == std::string::npos ? std::string::npos : plus - from);
    if (term.empty()) throw std::invalid_argument("'" + text + "': an empty component name in A+B+...");
    for (auto& c : expand_ranges(term)) out.push_back(std::move(c));
    if (plus == std::string::npos) break;
    from = plus + 1;
  }
  return out;
}

// The columns of `names` the components are, in their order; `what` names the table in the error.
std::vector<std::size_t> columns_of(const std::vector<std::string>& components, const std::vector<std::string>& names,
                                    const std::filesystem::path& result, const char* what) {
  std::vector<std::size_t> cols;
  for (const auto& c : components) {
    std::size_t k = 0;
    while (k < names.size() && names[k] != c) ++k;
    if (k == names.size()) throw std::runtime_error(result.string() + ": no component '" + c + "' in " + what);
    cols.push_back(k);
  }
  return cols;
}

}  // namespace

std::string metric_expr::units() const {
  switch (what) {
    case kind::power: return "W";
    case kind::job_energy: return "J";
    case kind::freq: return "MHz";
    case kind::ttft:
    case kind::itl:
    case kind::job_time_mean: return "s";
    case kind::decode_rate: return "tokens/s";
    case kind::summary: break;
  }
  // The catalogue's throughput units depend on the workload ("tokens/s"): said generically.
  const auto* m = postproc::find_summary_metric(summary_name);
  return m ? postproc::units_for(*m, "work/s") : "";
}

metric_expr parse_metric(const std::string& text) {
  metric_expr m;
  m.text = text;
  if (text.rfind("power:", 0) == 0) {
    m.what = metric_expr::kind::power;
    m.components = component_sum(text, text.substr(6));
    return m;
  }
  if (text.rfind("job_energy:", 0) == 0) {
    m.what = metric_expr::kind::job_energy;
    m.components = component_sum(text, text.substr(11));
    return m;
  }
  if (text.rfind("freq:", 0) == 0) {
    m.what = metric_expr::kind::freq;
    m.domain = text.substr(5);
    if (m.domain.empty()) throw std::invalid_argument("'" + text + "': expected freq:DOMAIN (a DVFS domain's name)");
    return m;
  }
  if (postproc::find_summary_metric(text)) {
    m.summary_name = text;
    return m;
  }
  if (text == "job_time_mean_s") {
    m.what = metric_expr::kind::job_time_mean;
    return m;
  }
  if (percentile_name(text, "ttft_p", "_s", m.q)) m.what = metric_expr::kind::ttft;
  else if (percentile_name(text, "itl_p", "_s", m.q)) m.what = metric_expr::kind::itl;
  else if (percentile_name(text, "decode_rate_p", "", m.q)) m.what = metric_expr::kind::decode_rate;
  else throw std::invalid_argument("unknown metric '" + text + "': expected " + accepted());
  return m;
}

std::vector<double> evaluate_metrics(const std::vector<const metric_expr*>& ms, const std::filesystem::path& result) {
  postproc::result_reader r(result);
  std::vector<double> out;
  bool have_jobs = false;
  std::vector<postproc::job_row> jobs;
  auto finished_jobs = [&]() -> const std::vector<postproc::job_row>& {
    if (!have_jobs) {
      for (auto& j : r.jobs())
        if (std::isfinite(j.finish_s) && j.finish_s >= j.arrival_s) jobs.push_back(std::move(j));
      have_jobs = true;
    }
    return jobs;
  };
  for (const metric_expr* m : ms) {
    switch (m->what) {
      case metric_expr::kind::summary: {
        const auto& s = r.summary().metrics;
        const auto it = s.find(m->summary_name);
        out.push_back(it == s.end() ? nan : it->second.value);
        break;
      }
      case metric_expr::kind::power: {
        std::size_t n_cols = 0;
        const std::vector<double> p = r.variable("power", &n_cols);
        const std::vector<std::string> names = r.coord("component");
        const std::vector<double> t = r.time();
        const std::vector<std::size_t> cols = columns_of(m->components, names, result, "power(time, component)");
        out.push_back(period_weighted_mean(t, [&](std::size_t i) {
          double sum = 0;
          for (const std::size_t k : cols) sum += p[i * n_cols + k];
          return sum;
        }));
        break;
      }
      case metric_expr::kind::job_energy: {
        // The finished requests' mean energy in those components (the job_energy table holds
        // only finished requests): energy per unit of work, as papers give it per clock.
        const postproc::job_energy_table e = r.job_energy();
        if (e.ids.empty()) {
          out.push_back(nan);
          break;
        }
        const std::vector<std::size_t> cols = columns_of(m->components, e.components, result, "job_energy");
        const std::size_t n_cols = e.components.size();
        double sum = 0;
        for (std::size_t row = 0; row < e.ids.size(); ++row)
          for (const std::size_t k : cols) sum += e.joules[row * n_cols + k];
        out.push_back(sum / static_cast<double>(e.ids.size()));
        break;
      }
      case metric_expr::kind::freq: {
        std::size_t n_cols = 0;
        const std::vector<double> f = r.variable("frequency", &n_cols);
        const std::vector<std::string> names = r.coord("domain");
        const std::vector<double> t = r.time();
        std::size_t k = 0;
        while (k < names.size() && names[k] != m->domain) ++k;
        if (k == names.size()) throw std::runtime_error(result.string() + ": no domain '" + m->domain + "' in frequency(time, domain)");
        out.push_back(period_weighted_mean(t, [&](std::size_t i) { return f[i * n_cols + k]; }) / 1e6);
        break;
      }
      case metric_expr::kind::ttft: {
        std::vector<double> v;
        for (const auto& j : finished_jobs()) v.push_back(j.first_token_s - j.arrival_s);
        out.push_back(postproc::percentile(v, m->q));
        break;
      }
      case metric_expr::kind::itl:
      case metric_expr::kind::decode_rate: {
        std::vector<double> v;
        for (const auto& j : finished_jobs()) {
          if (j.tokens_out < 2 || !(j.finish_s > j.first_token_s)) continue;
          const double itl = (j.finish_s - j.first_token_s) / static_cast<double>(j.tokens_out - 1);
          v.push_back(m->what == metric_expr::kind::itl ? itl : 1.0 / itl);
        }
        out.push_back(postproc::percentile(v, m->q));
        break;
      }
      case metric_expr::kind::job_time_mean: {
        double sum = 0;
        std::size_t n = 0;
        for (const auto& j : finished_jobs()) {
          sum += j.finish_s - j.start_s;
          ++n;
        }
        out.push_back(n ? sum / static_cast<double>(n) : nan);
        break;
      }
    }
  }
  return out;
}

}  // namespace ptsim::cosim::calibration
