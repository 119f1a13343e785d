// Scenario keys of the power models: device-tree OPPs and dynamic-power-coefficient, idle
// states (and their one-state shorthand), DRAM presets with self-refresh, VR/PSU curves.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "helpers.hpp"

namespace ps = ptsim::scenarios;
using namespace scen_test;

namespace {
// Unique lines of the default's big and mid clusters, to add keys after.
const std::string big_ops = "      ops_per_cycle: { fp32: 32, fp16: 64, int8: 128 }\n";
const std::string mid_ops = "      ops_per_cycle: { fp32: 16, fp16: 32, int8: 64 }\n";
const std::string big_opps_plain =
    "        - { freq: \"500 MHz\",  volt: \"500 mV\" }\n"
    "        - { freq: \"851 MHz\",  volt: \"556.25 mV\" }\n"
    "        - { freq: \"984 MHz\",  volt: \"575 mV\" }\n";
const std::string big_opps_dt =
    "        - { opp-hz: 500000000, opp-microvolt: 500000 }\n"
    "        - { opp-hz: 851000000, opp-microvolt: 556250 }\n"
    "        - { opp-hz: 984000000, opp-microvolt: [ 575000, 575000, 1100000 ] }\n";  // <target min max>

}  // namespace

TEST_CASE("device-tree OPPs give the same table as freq/volt; the coefficient gives c_eff") {
  const auto plain = ps::load_scenario_text(default_text(), "test.yaml");
  const std::string text = replace_once(default_text(), big_opps_plain, big_opps_dt);
  const auto dt = ps::load_scenario_text(text, "test.yaml");
  REQUIRE(dt.domains.size() == plain.domains.size());
  for (std::size_t d = 0; d < dt.domains.size(); ++d) {
    const auto &a = plain.domains[d].opps, &b = dt.domains[d].opps;
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      CHECK(a.frequency_hz(i) == b.frequency_hz(i));
      CHECK(b.voltage_v(i) == ptsim_test::Approx(a.voltage_v(i)).epsilon(1e-15));
    }
  }
  // The default's clusters have no c_eff: their domains' coefficients (fitted per core to
  // freqbench, uW/MHz/V^2) give cores x coefficient pF.
  CHECK(ptsim::units::value_si(power_of(dt, "cpu_big").compute.c_eff) == ptsim_test::Approx(2 * 264 * 1e-12));
  CHECK(ptsim::units::value_si(power_of(dt, "cpu_mid").compute.c_eff) == ptsim_test::Approx(2 * 166e-12));
  CHECK(ptsim::units::value_si(power_of(dt, "cpu_little").compute.c_eff) == ptsim_test::Approx(4 * 49 * 1e-12));
  // A unit's own c_eff wins over its domain's coefficient.
  const auto own = ps::load_scenario_text(
      replace_once(default_text(), big_ops, big_ops + "      c_eff: \"1300 pF\"\n"), "test.yaml");
  CHECK(ptsim::units::value_si(power_of(own, "cpu_big").compute.c_eff) == ptsim_test::Approx(1300e-12));
}

TEST_CASE("a device-tree OPP missing its voltage, or mixing the two forms, is reported at the point") {
  SUBCASE("missing opp-microvolt") {
    const std::string text = replace_once(default_text(), "        - { freq: \"851 MHz\",  volt: \"556.25 mV\" }\n",
                                          "        - { opp-hz: 851000000 }\n");
    const position at = position_of(text, "{ opp-hz: 851000000 }");
    const auto d = only_at(load_errors(text), "platform.domains.big.opps[1]");
    CHECK(d.line == at.line);
    CHECK(d.column == at.column);
    CHECK(contains(d.message, "missing required key 'opp-microvolt'"));
  }
  SUBCASE("both forms") {
    const std::string text = replace_once(default_text(), "        - { freq: \"851 MHz\",  volt: \"556.25 mV\" }\n",
                                          "        - { freq: \"851 MHz\",  volt: \"556.25 mV\", opp-hz: 851000000 }\n");
    const position at = position_of(text, "851000000");  // reported at the value
    const auto d = only_at(load_errors(text), "platform.domains.big.opps[1].opp-hz");
    CHECK(d.line == at.line);
    CHECK(d.column == at.column);
    CHECK(contains(d.message, "not both forms"));
  }
  SUBCASE("a <target min max> whose target is outside its range") {
    const std::string text = replace_once(default_text(), "        - { freq: \"851 MHz\",  volt: \"556.25 mV\" }\n",
                                          "        - { opp-hz: 851000000, opp-microvolt: [ 556250, 600000, 700000 ] }\n");
    const auto d = only_at(load_errors(text), "platform.domains.big.opps[1].opp-microvolt");
    CHECK(d.line == position_of(text, "[ 556250, 600000, 700000 ]").line);
    CHECK(contains(d.message, "within [min, max]"));
  }
  SUBCASE("a voltage that is not an integer of microvolts") {
    const std::string text = replace_once(default_text(), "        - { freq: \"851 MHz\",  volt: \"556.25 mV\" }\n",
                                          "        - { opp-hz: 851000000, opp-microvolt: \"556 mV\" }\n");
    const auto d = only_at(load_errors(text), "platform.domains.big.opps[1].opp-microvolt");
    CHECK(d.line == position_of(text, "opp-microvolt: \"556 mV\"").line);
  }
}

TEST_CASE("idle states resolve shallow to deep; the shorthand is one state keeping its leakage") {
  std::string text = replace_once(
      default_text(), big_ops,
      big_ops +
      "      idle_states:\n"
      "        - { name: wfi, leakage_fraction: 1, exit_latency: \"1 us\" }\n"
      "        - { name: cpu_off, leakage_fraction: 0.05, entry_latency: \"235 us\", exit_latency: \"220 us\",\n"
      "            target_residency: \"3.5 ms\" }\n"
      "      idle_latency_limit: \"500 us\"\n");
  text = replace_once(text, mid_ops,
                      mid_ops +
                      "      idle_exit_latency: \"190 us\"\n      idle_residency: \"2.5 ms\"\n");
  const auto sc = ps::load_scenario_text(text, "test.yaml");
  const auto& big = power_of(sc, "cpu_big");
  REQUIRE(big.idle_states.size() == 2);
  CHECK(big.idle_states[1].name == "cpu_off");
  CHECK(big.idle_states[1].leakage_fraction == 0.05);
  CHECK(big.idle_states[1].entry_latency_s == ptsim_test::Approx(235e-6));
  CHECK(big.idle_states[1].target_residency_s == ptsim_test::Approx(3.5e-3));
  CHECK(big.idle_latency_limit_s == ptsim_test::Approx(500e-6));
  const auto& mid = power_of(sc, "cpu_mid");
  REQUIRE(mid.idle_states.size() == 1);
  CHECK(mid.idle_states[0].leakage_fraction == 1.0);
  CHECK(mid.idle_states[0].exit_latency_s == ptsim_test::Approx(190e-6));
  CHECK(mid.idle_states[0].target_residency_s == ptsim_test::Approx(2.5e-3));
  CHECK(std::isinf(mid.idle_latency_limit_s));
  // The TLM side gets the timings.
  for (const auto& u : sc.platform.units)
    if (u.name == "cpu_big") {
      REQUIRE(u.idle_states.size() == 2);
      CHECK(u.idle_states[1].exit_latency_s == ptsim_test::Approx(220e-6));
    }
}

TEST_CASE("bad idle states: deeper but hungrier, both power forms, both list and shorthand") {
  const std::string& anchor = big_ops;
  SUBCASE("deeper draws more") {
    const std::string text = replace_once(default_text(), anchor,
                                          anchor + "      idle_states: [ { name: a, leakage_fraction: 0.5 },\n"
                                                   "                     { name: b, leakage_fraction: 0.8 } ]\n");
    const auto d = only_at(load_errors(text), "platform.components.cpu_big.idle_states");
    CHECK(d.line == position_of(text, "idle_states:").line);
    CHECK(contains(d.message, "'b' draws more than the shallower 'a'"));
  }
  SUBCASE("power and leakage_fraction") {
    const std::string text = replace_once(default_text(), anchor,
                                          anchor + "      idle_states: [ { name: a, power: \"1 mW\", leakage_fraction: 0.5 } ]\n");
    const auto d = only_at(load_errors(text), "platform.components.cpu_big.idle_states[0].leakage_fraction");
    CHECK(contains(d.message, "one of them"));
  }
  SUBCASE("list and shorthand") {
    const std::string text = replace_once(default_text(), anchor,
                                          anchor + "      idle_states: [ { name: a, leakage_fraction: 0.5 } ]\n"
                                                   "      idle_exit_latency: \"100 us\"\n");
    const auto d = only_at(load_errors(text), "platform.components.cpu_big.idle_exit_latency");
    CHECK(contains(d.message, "not both"));
  }
}

TEST_CASE("a DRAM preset scales by capacity; keys in the file override it") {
  const std::string mem = "      background_power: \"80 mW\"\n"
                          "      energy_per_byte_read: \"30 pJ/B\"\n"
                          "      energy_per_byte_write: \"32 pJ/B\"\n";
  const std::string text = replace_once(default_text(), mem,
                                        "      preset: lpddr5x\n      energy_per_byte_write: \"32 pJ/B\"\n"
                                        "      self_refresh_after: \"2 ms\"\n");
  const auto sc = ps::load_scenario_text(text, "test.yaml");
  const auto& m = power_of(sc, "lpddr").memory;
  const double gb = 12.0 * 1024 * 1024 * 1024 / 1e9;  // 12 GiB
  const auto* pre = ptsim::power::find_memory_preset("lpddr5x");
  CHECK(m.background_W == ptsim_test::Approx(pre->background_W_per_GB * gb));
  CHECK(m.refresh_W == ptsim_test::Approx(pre->refresh_W_per_GB * gb));
  CHECK(m.self_refresh_W == ptsim_test::Approx(pre->self_refresh_W_per_GB * gb));
  CHECK(m.self_refresh_after_s == ptsim_test::Approx(2e-3));
  CHECK(m.energy_per_byte_read_J == ptsim_test::Approx(pre->read_J_per_B));
  CHECK(m.energy_per_byte_write_J == ptsim_test::Approx(32e-12));  // the file's own
  // Without a preset: what the file says, no refresh, no self-refresh (as before).
  const auto plain_scenario = ps::load_scenario_text(default_text(), "test.yaml");
  const auto& plain = power_of(plain_scenario, "lpddr").memory;
  CHECK(plain.refresh_W == 0);
  CHECK(plain.self_refresh_W < 0);
  // An unknown preset is an error at the key.
  const std::string bad = replace_once(default_text(), mem, "      preset: lpddr6\n");
  CHECK(contains(only_at(load_errors(bad), "platform.components.lpddr.preset").message, "lpddr5x"));
}

TEST_CASE("supply stages: default curves, own curves, and a curve that goes back is an error") {
  const std::string anchor = "  quantum: \"50 us\"\n";
  const auto sc = ps::load_scenario_text(
      replace_once(default_text(), anchor,
                   anchor + "  supply:\n    vr: { rated: \"20 W\" }\n"
                            "    psu: { rated: \"30 W\", efficiency: [ { load: 0.1, efficiency: 0.8 },"
                            " { load: 1, efficiency: 0.9 } ] }\n"),
      "test.yaml");
  CHECK(sc.supply.vr_rated_W == 20);
  CHECK(sc.supply.vr.at(0.5) == ptsim_test::Approx(0.92));  // the documented default curve
  CHECK(sc.supply.psu_rated_W == 30);
  CHECK(sc.supply.psu.at(0.55) == ptsim_test::Approx(0.85));
  const std::string bad = replace_once(default_text(), anchor,
                                       anchor + "  supply:\n    psu: { rated: \"30 W\", efficiency: [ { load: 0.5, efficiency: 0.9 },"
                                                " { load: 0.2, efficiency: 0.9 } ] }\n");
  const auto d = only_at(load_errors(bad), "platform.supply.psu.efficiency[1].load");
  CHECK(contains(d.message, "must increase"));
  // No supply section: the wall sees the components' power (ideal stages).
  const auto none = ps::load_scenario_text(default_text(), "test.yaml");
  CHECK(none.supply.vr_rated_W == 0);
  CHECK(none.supply.psu_rated_W == 0);
}

TEST_CASE("vf_curve: operating points that give only their clock take their voltage from it") {
  // Knots 500 mV at 500 MHz and 560 mV at 900 MHz: 851 MHz is 351/400 of the way (552.65 mV);
  // 984 MHz is past the last knot (flat: 560 mV) unless the point gives its own voltage. The
  // big cluster's first three points give their clock alone; the others keep their voltages.
  const std::string freq_only =
      "        - { freq: \"500 MHz\" }\n"
      "        - { freq: \"851 MHz\" }\n"
      "        - { freq: \"984 MHz\" }\n";
  const std::string coefficient = "      dynamic-power-coefficient: 264";
  const std::string curve =
      "      vf_curve: [ { freq: \"500 MHz\", volt: \"500 mV\" }, { freq: \"900 MHz\", volt: \"560 mV\" } ]\n";
  const auto with = [&](const std::string& points, const std::string& vf) {
    return replace_once(replace_once(default_text(), big_opps_plain, points), coefficient, vf + coefficient);
  };
  const auto big_of = [](const ps::scenario& sc) {
    for (const auto& d : sc.domains)
      if (d.name == "big") return d.opps;
    FAIL("no big domain");
    return sc.domains.front().opps;
  };
  const auto opps = big_of(ps::load_scenario_text(with(freq_only, curve), "test.yaml"));
  const auto was = big_of(ps::load_scenario_text(default_text(), "test.yaml"));
  REQUIRE(opps.size() == was.size());
  CHECK(opps.voltage_v(0) == ptsim_test::Approx(0.500));
  CHECK(opps.voltage_v(1) == ptsim_test::Approx(0.500 + 0.060 * 351.0 / 400.0));
  CHECK(opps.voltage_v(2) == ptsim_test::Approx(0.560));
  CHECK(opps.voltage_v(3) == ptsim_test::Approx(was.voltage_v(3)));
  // A point's own voltage wins over the curve.
  const std::string own = replace_once(freq_only, "{ freq: \"984 MHz\" }", "{ freq: \"984 MHz\", volt: \"575 mV\" }");
  CHECK(big_of(ps::load_scenario_text(with(own, curve), "test.yaml")).voltage_v(2) == ptsim_test::Approx(0.575));

  SUBCASE("clocks that do not increase along the curve") {
    const std::string text = with(freq_only, replace_once(curve, "\"900 MHz\"", "\"400 MHz\""));
    const auto d = only_at(load_errors(text), "platform.domains.big.vf_curve[1].freq");
    CHECK(d.line == position_of(text, "\"400 MHz\", volt: \"560 mV\"").line);
    CHECK(contains(d.message, "must increase"));
  }
  SUBCASE("a clock alone without a curve") {
    const std::string text = with(freq_only, "");
    const position at = position_of(text, "{ freq: \"851 MHz\" }");
    const auto d = only_at(load_errors(text), "platform.domains.big.opps[1]");
    CHECK(d.line == at.line);
    CHECK(contains(d.message, "vf_curve"));
  }
}

TEST_CASE("base power: watts, 0 by default; a component named 'base' beside it is an error") {
  const std::string anchor = "  quantum: \"50 us\"\n";
  CHECK(ps::load_scenario_text(default_text(), "test.yaml").base_power_W == 0);
  const auto sc = ps::load_scenario_text(replace_once(default_text(), anchor, anchor + "  base_power: \"1.5 W\"\n"), "t.yaml");
  CHECK(sc.base_power_W == 1.5);
  CHECK(contains(only_at(load_errors(replace_once(default_text(), anchor, anchor + "  base_power: \"1.5 V\"\n")),
                         "platform.base_power")
                     .message,
                 "W"));
  // The result's "base" row would be two rows of one name.
  const std::string clash = replace_once(default_text(), anchor, anchor + "  base_power: \"1.5 W\"\n");
  const std::string comp = "  components:\n";
  const auto ds = load_errors(replace_once(clash, comp, comp + "    base: { kind: nic, bandwidth: \"1 GB/s\" }\n"));
  CHECK(std::any_of(ds.begin(), ds.end(), [](const auto& d) {
    return d.path == "platform.components.base" && contains(d.message, "the result's 'base' row is the base power");
  }));
}
