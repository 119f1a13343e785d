// The metric catalogue: summary values computed by hand from known totals, units and
// directions as the contract says, and the catalogue's own consistency.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <cmath>
#include <set>

#include "ptsim/postproc/metric_catalogue.hpp"

namespace pp = ptsim::postproc;

namespace {

pp::run_totals known_totals() {
  pp::run_totals t;
  t.duration_s = 10;
  t.energy_J = 100;  // 10 W on average
  t.wall_energy_J = 125;
  t.peak_power_W = 17;
  t.peak_temperature_K = 300;
  t.throttled_s = 2.5;
  t.throttled_thermal_s = 1.5;
  t.throttled_power_s = 1;
  t.power_cap_violation_s = 0.25;
  t.latencies_s = {4, 1, 3, 2};
  t.completed = 4;
  t.work_done = 50;  // e.g. output tokens
  t.throughput_units = "tokens/s";
  return t;
}

}  // namespace

TEST_CASE("summarize computes every metric from the totals, as worked by hand") {
  const pp::run_summary s = pp::summarize(known_totals());
  auto v = [&](const char* n) { return s.metrics.at(n).value; };
  auto u = [&](const char* n) { return s.metrics.at(n).units; };
  CHECK(v("energy_J") == 100);
  CHECK(v("avg_power_W") == 10);
  CHECK(v("peak_power_W") == 17);
  CHECK(v("wall_energy_J") == 125);
  CHECK(v("avg_wall_power_W") == 12.5);
  CHECK(v("throughput") == 5);  // 50 tokens over 10 s
  CHECK(u("throughput") == "tokens/s");
  CHECK(v("perf_per_watt") == 0.5);  // 5 tokens/s at 10 W
  CHECK(u("perf_per_watt") == "tokens/J");
  // Latencies 1, 2, 3, 4: the median between 2 and 3; p99 at rank 0.99 x 3 = 2.97.
  CHECK(v("latency_p50_s") == 2.5);
  CHECK(v("latency_p99_s") == ptsim_test::Approx(3.97).epsilon(1e-12));
  CHECK(v("peak_temperature_C") == ptsim_test::Approx(26.85).epsilon(1e-12));
  CHECK(u("peak_temperature_C") == "degC");
  CHECK(v("throttled_fraction") == 0.25);
  CHECK(v("throttled_fraction_thermal") == 0.15);
  CHECK(v("throttled_fraction_power") == 0.1);
  CHECK(v("power_cap_violation_s") == 0.25);
  CHECK(v("completed") == 4);
  CHECK(s.throughput_units == "tokens/s");
}

TEST_CASE("a run of no duration gives zero rates, not infinities; no latency gives NaN") {
  pp::run_totals t;
  t.energy_J = 5;
  const pp::run_summary s = pp::summarize(t);
  CHECK(s.metrics.at("avg_power_W").value == 0);
  CHECK(s.metrics.at("throughput").value == 0);
  CHECK(s.metrics.at("perf_per_watt").value == 0);
  CHECK(std::isnan(s.metrics.at("latency_p50_s").value));
}

TEST_CASE("summarize gives exactly the catalogue's metrics") {
  const pp::run_summary s = pp::summarize(known_totals());
  std::set<std::string> names;
  for (const auto& m : pp::summary_metrics()) {
    INFO(std::string(m.name));
    CHECK(names.insert(std::string(m.name)).second);  // no name twice
    CHECK(!m.description.empty());
    CHECK(std::string(m.name).find_first_of("/[] ") == std::string::npos);  // HDF5 names, --best forms
    // Every metric, but those a run has only sometimes (a power cap's window peak).
    CHECK(s.metrics.count(std::string(m.name)) == (m.present && !m.present(known_totals()) ? 0u : 1u));
  }
  CHECK(s.metrics.size() == names.size() - 1);  // no cap: no peak_power_cap_window_W
  CHECK(s.metrics.count("peak_power_cap_window_W") == 0);
}

TEST_CASE("work per second per watt is work per joule; other units per watt") {
  const pp::metric_def* ppw = pp::find_summary_metric("perf_per_watt");
  REQUIRE(ppw);
  CHECK(pp::units_for(*ppw, "inferences/s") == "inferences/J");
  CHECK(pp::units_for(*ppw, "frames") == "frames/W");
  CHECK(pp::units_for(*pp::find_summary_metric("throughput"), "tokens/s") == "tokens/s");
  CHECK(pp::units_for(*pp::find_summary_metric("energy_J"), "tokens/s") == "J");
}

TEST_CASE("directions: the catalogue's, per-unit forms follow their column, others unknown") {
  using b = pp::better;
  CHECK(pp::direction_of("throughput") == b::higher);
  CHECK(pp::direction_of("perf_per_watt") == b::higher);
  CHECK(pp::direction_of("completed") == b::higher);
  CHECK(pp::direction_of("energy_J") == b::lower);
  CHECK(pp::direction_of("latency_p99_s") == b::lower);
  CHECK(pp::direction_of("throttled_fraction[big]") == b::lower);
  CHECK(pp::direction_of("busy_s[npu]") == b::lower);
  CHECK(pp::direction_of("memory_bound_s[gpu0]") == b::lower);
  CHECK_FALSE(pp::direction_of("idle_s[npu]").has_value());  // idle time is neither
  CHECK_FALSE(pp::direction_of("ops[npu]").has_value());
  CHECK_FALSE(pp::direction_of("no_such_metric").has_value());
  CHECK(pp::direction_of("energy_J[npu]") == b::lower);  // a labelled family: energy by component
  CHECK(pp::direction_of("ttft_p99_s[chat]") == b::lower);
  CHECK(pp::direction_of("ttft_p99_s") == b::lower);  // the one-stream form
  CHECK(pp::direction_of("throughput[chat]") == b::higher);
  CHECK_FALSE(pp::direction_of("energy_group_J").has_value());  // not a per-stream family: no plain form
  CHECK(pp::better_name(b::higher) == "higher");
  CHECK(pp::better_name(b::lower) == "lower");
}

TEST_CASE("order_metrics: the catalogue's order first, then unknown names sorted") {
  CHECK(pp::order_metrics({"zz", "wall_energy_J", "throughput", "energy_J", "aa"}) ==
        std::vector<std::string>{"energy_J", "throughput", "wall_energy_J", "aa", "zz"});
}

namespace {

// A run of 10 s with an LLM stream "chat" and a camera stream, as the loop would fill it.
pp::run_totals two_streams() {
  pp::run_totals t = known_totals();
  pp::stream_totals chat;
  chat.name = "chat";
  chat.llm = true;
  chat.throughput_units = "tokens/s";
  chat.work_done = 40;  // tokens
  chat.latencies_s = {2, 4};
  chat.ttft_s = {0.5, 0.1, 0.3};
  chat.tpot_s = {0.02, 0.04};
  chat.completed = 2;
  chat.unfinished = 1;
  chat.energy_J = 30;
  chat.tokens_out = 12;
  chat.batch_sum = 30;  // over 10 control periods: 3 sequences per instance on average
  chat.queue_sum = 5;
  chat.kv_share_sum = 4;
  chat.periods = 10;
  pp::stream_totals cam;
  cam.name = "camera";
  cam.throughput_units = "inferences/s";
  cam.work_done = 10;
  cam.latencies_s = {1, 3};
  cam.completed = 2;
  cam.dropped = 3;
  cam.energy_J = 8;
  t.streams = {chat, cam};
  t.component_energy_J = {{"npu", 60}, {"lpddr", 40}};
  t.group_energy_J = {{"npu", 60}, {"memory", 40}, {"supply_losses", 25}};
  return t;
}

}  // namespace

TEST_CASE("per-stream metrics, as worked by hand; the plain name only for a run of one stream") {
  const pp::run_summary s = pp::summarize(two_streams());
  auto v = [&](const std::string& n) {
    INFO(n);
    REQUIRE(s.metrics.count(n) == 1);
    return s.metrics.at(n).value;
  };
  CHECK(v("throughput[chat]") == 4);  // 40 tokens over 10 s
  CHECK(s.metrics.at("throughput[chat]").units == "tokens/s");
  CHECK(v("throughput[camera]") == 1);
  CHECK(s.metrics.at("throughput[camera]").units == "inferences/s");
  CHECK(v("latency_p50_s[chat]") == 3);
  CHECK(v("latency_p90_s[camera]") == ptsim_test::Approx(2.8).epsilon(1e-12));  // 1 + 0.9 x 2
  CHECK(v("ttft_p50_s[chat]") == ptsim_test::Approx(0.3).epsilon(1e-12));      // sorted 0.1 0.3 0.5
  CHECK(v("ttft_p99_s[chat]") == ptsim_test::Approx(0.496).epsilon(1e-12));    // 0.3 + 0.98 x 0.2
  CHECK(v("tpot_p50_s[chat]") == ptsim_test::Approx(0.03).epsilon(1e-12));
  CHECK(v("tpot_p99_s[chat]") == ptsim_test::Approx(0.0398).epsilon(1e-12));   // 0.02 + 0.99 x 0.02
  CHECK(v("energy_per_output_token_J[chat]") == 2.5);                      // 30 J / 12 tokens
  CHECK(v("energy_per_request_J[chat]") == 15);                            // 30 J / 2 requests
  CHECK(v("unfinished[chat]") == 1);
  CHECK(v("batch_mean[chat]") == 3);
  CHECK(v("queue_length_mean[chat]") == 0.5);
  CHECK(v("kv_occupancy_mean[chat]") == 0.4);
  CHECK(s.metrics.count("batch_mean[camera]") == 0);
  CHECK(v("dropped[camera]") == 3);
  CHECK(s.metrics.count("ttft_p99_s[camera]") == 0);  // not an LLM stream
  CHECK(s.metrics.count("ttft_p99_s") == 0);          // two streams: no plain form
  CHECK(v("energy_J[npu]") == 60);
  CHECK(v("energy_group_J[supply_losses]") == 25);

  pp::run_totals one = two_streams();
  one.streams.resize(1);
  const pp::run_summary o = pp::summarize(one);
  CHECK(o.metrics.at("ttft_p99_s").value == o.metrics.at("ttft_p99_s[chat]").value);
  CHECK(o.metrics.at("energy_per_output_token_J").value == 2.5);
  // The catalogue's own throughput stays the run's (work_done 50 over 10 s), not replaced.
  CHECK(o.metrics.at("throughput").value == 5);
}

TEST_CASE("peaks carry the window they are over; the cap's window peak only with a cap") {
  pp::run_totals t = known_totals();
  t.peak_window_s = 0.01;
  const pp::run_summary s = pp::summarize(t);
  CHECK(s.metrics.at("peak_power_W").window_s == 0.01);
  CHECK(s.metrics.at("peak_temperature_C").window_s == 0.01);
  CHECK(std::isnan(s.metrics.at("energy_J").window_s));
  t.cap_window_s = 0.1;
  t.peak_power_cap_window_W = 12;
  const pp::run_summary c = pp::summarize(t);
  CHECK(c.metrics.at("peak_power_cap_window_W").value == 12);
  CHECK(c.metrics.at("peak_power_cap_window_W").window_s == 0.1);
}

TEST_CASE("order_metrics: labelled families after the catalogue, in the families' order") {
  CHECK(pp::order_metrics({"energy_J[b]", "ttft_p99_s[x]", "energy_J", "ttft_p99_s", "energy_J[a]", "zz"}) ==
        std::vector<std::string>{"energy_J", "ttft_p99_s", "ttft_p99_s[x]", "energy_J[a]", "energy_J[b]", "zz"});
}
