// Strings with units: parsed to SI, dimension checked, and bad input named in the message.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <cmath>
#include <string>

#include "helpers.hpp"
#include "ptsim/scenarios/unit_parser.hpp"

namespace ps = ptsim::scenarios;
namespace dims = ptsim::scenarios::dims;
using scen_test::contains;

namespace {
// The message of the unit_error that parse_si throws (fails the test when it does not).
std::string error_of(const std::string& text, const ps::dimension& d, bool absolute = true) {
  try {
    double v = ps::parse_si(text, d, absolute);
    FAIL("'" << text << "' was accepted as " << v);
  } catch (const ps::unit_error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("good quantities parse to SI") {
  using ptsim_test::Approx;
  CHECK(ps::parse_si("2.4 GHz", dims::frequency()) == Approx(2.4e9));
  CHECK(ps::parse_si("300 MHz", dims::frequency()) == Approx(3.0e8));
  CHECK(ps::parse_si("537.5 mV", dims::voltage()) == Approx(0.5375));
  CHECK(ps::parse_si("35 degC", dims::temperature()) == Approx(308.15));
  CHECK(ps::parse_si("308.15 K", dims::temperature()) == Approx(308.15));
  CHECK(ps::parse_si("5 K", dims::temperature(), /*absolute=*/false) == Approx(5.0));
  CHECK(ps::parse_si("51.2 GB/s", dims::bandwidth()) == Approx(51.2e9));
  CHECK(ps::parse_si("256 KiB", dims::bytes()) == 262144.0);
  CHECK(ps::parse_si("12 GiB", dims::bytes()) == 12.0 * 1024 * 1024 * 1024);
  CHECK(ps::parse_si("4 pJ/B", dims::energy_per_byte()) == Approx(4e-12));
  CHECK(ps::parse_si("100 W/(m*K)", dims::thermal_conductivity()) == Approx(100.0));
  CHECK(ps::parse_si("1.75e6 J/(m^3*K)", dims::volumetric_heat_capacity()) == Approx(1.75e6));
  CHECK(ps::parse_si("5 K/W", dims::thermal_resistance()) == Approx(5.0));
  CHECK(ps::parse_si("140.4 J/K", dims::heat_capacity()) == Approx(140.4));
  CHECK(ps::parse_si("50 us", dims::time()) == Approx(50e-6));
  CHECK(ps::parse_si("50 \xC2\xB5s", dims::time()) == Approx(50e-6));  // micro sign
  CHECK(ps::parse_si("2 min", dims::time()) == Approx(120.0));
  CHECK(ps::parse_si("1 h", dims::time()) == Approx(3600.0));
  CHECK(ps::parse_si("20 ns", dims::time()) == Approx(20e-9));
  CHECK(ps::parse_si("280 pF", dims::capacitance()) == Approx(280e-12));
  CHECK(ps::parse_si("12 mW", dims::power()) == Approx(0.012));
  CHECK(ps::parse_si("0.15 mm", dims::length()) == Approx(0.15e-3));
  // The prefix binds to the symbol before the exponent: 1 mm^2 = 1e-6 m^2, not 1e-3.
  CHECK(ps::parse_si("4 mm^2", dims::area()) == Approx(4e-6));
  // Surrounding blanks are not part of the value.
  CHECK(ps::parse_si("  2.4 GHz  ", dims::frequency()) == Approx(2.4e9));
  // A dimensionless number needs no unit.
  CHECK(ps::parse_si("0.7", dims::none()) == Approx(0.7));
}

TEST_CASE("parse_quantity reports the dimension it found") {
  auto q = ps::parse_quantity("30 Hz");
  CHECK(q.dim == dims::frequency());
  CHECK(q.value_si == ptsim_test::Approx(30.0));
  CHECK_FALSE(q.celsius);
  auto t = ps::parse_quantity("25 degC");
  CHECK(t.dim == dims::temperature());
  CHECK(t.celsius);
  CHECK(t.value_si == ptsim_test::Approx(298.15));
  // Derived units agree with their base-unit spelling.
  CHECK(ps::parse_quantity("1 W").dim == ps::parse_quantity("1 J/s").dim);
  CHECK(ps::parse_quantity("1 V").dim == ps::parse_quantity("1 W/A").dim);
  CHECK(ps::parse_quantity("1 Hz").dim == ps::parse_quantity("1 1/s").dim);
}

TEST_CASE("dimension names") {
  CHECK(dims::frequency().describe() == "frequency (Hz)");
  CHECK(dims::power().describe() == "power (W)");
  CHECK(ps::unit_hint(dims::bandwidth()) == "B/s");
  CHECK(ps::unit_hint(dims::temperature()) == "degC");
}

TEST_CASE("a wrong unit names what was expected and what was found") {
  const std::string m = error_of("2 W", dims::frequency());
  CHECK(contains(m, "expected frequency"));
  CHECK(contains(m, "'2 W'"));
  CHECK(contains(m, "power"));

  const std::string b = error_of("51.2 GHz", dims::bandwidth());
  CHECK(contains(b, "expected bandwidth"));
  CHECK(contains(b, "frequency"));
}

TEST_CASE("a number without a unit is not guessed") {
  const std::string m = error_of("2.4", dims::frequency());
  CHECK(contains(m, "expected frequency"));
  CHECK(contains(m, "'2.4'"));
  CHECK(contains(m, "without a unit"));
  CHECK_THROWS_AS(ps::parse_si("35", dims::temperature()), ps::unit_error);
}

TEST_CASE("degC is a point, not a difference") {
  const std::string m = error_of("35 degC", dims::temperature(), /*absolute=*/false);
  CHECK(contains(m, "difference"));
  CHECK(contains(m, "'35 degC'"));
  // A difference without a unit is pointed at K, not degC.
  const std::string bare = error_of("3", dims::temperature(), /*absolute=*/false);
  CHECK(contains(bare, "temperature difference"));
  CHECK(contains(bare, "\"1 K\""));
  CHECK_FALSE(contains(bare, "degC"));
  CHECK(ps::unit_hint(dims::temperature(), false) == "K");
  // The same text is fine where a point is expected.
  CHECK(ps::parse_si("35 degC", dims::temperature(), true) == ptsim_test::Approx(308.15));
}

TEST_CASE("malformed numbers and units") {
  CHECK(contains(error_of("abc GHz", dims::frequency()), "'abc GHz'"));
  CHECK(contains(error_of("abc GHz", dims::frequency()), "expected a number"));
  CHECK(contains(error_of("1 GHzz", dims::frequency()), "GHzz"));
  CHECK(contains(error_of("1 Ghz", dims::frequency()), "Ghz"));  // units are case-sensitive
  CHECK(contains(error_of("nan GHz", dims::frequency()), "finite"));
  CHECK(contains(error_of("NaN GHz", dims::frequency()), "finite"));
  CHECK(contains(error_of("inf s", dims::time()), "finite"));
  CHECK(contains(error_of("-infinity s", dims::time()), "finite"));
  CHECK(contains(error_of("", dims::time()), "empty"));
  CHECK(contains(error_of("   ", dims::time()), "empty"));
  CHECK(contains(error_of("1 W/(m*K", dims::thermal_conductivity()), "')'"));
  CHECK(contains(error_of("1 m^x", dims::area()), "exponent"));
  // 'C' alone could be coulombs or Celsius: refused rather than guessed.
  CHECK(contains(error_of("25 C", dims::temperature()), "degC"));
}

TEST_CASE("temperatures below absolute zero") {
  const std::string m = error_of("-300 degC", dims::temperature());
  CHECK(contains(m, "absolute zero"));
  CHECK(contains(m, "'-300 degC'"));
  CHECK_THROWS_AS(ps::parse_si("-1 K", dims::temperature(), true), ps::unit_error);
  // Below freezing is fine.
  CHECK(ps::parse_si("-40 degC", dims::temperature()) == ptsim_test::Approx(233.15));
}

TEST_CASE("unit exponents are bounded (found by fuzz_units: 1F^1512045484 overflowed int)") {
  CHECK(contains(error_of("1 F^1512045484", dims::none()), "exponent 1512045484 is out of range (-64 to 64)"));
  CHECK(contains(error_of("1 m^-65", dims::none()), "exponent -65 is out of range"));
  // Nested powers: each within range, their product not.
  CHECK(contains(error_of("1 ((m^8)^8)^2", dims::none()), "a dimension's exponent goes out of range"));
  // In range: as before.
  CHECK(ps::parse_si("2 (m^8)^8/m^64", dims::none()) == ptsim_test::Approx(2));
}

TEST_CASE("a unit parsed again gives the same value; a bad one fails every time") {
  // parse_quantity keeps the units it parsed (a bounded list per thread): the second and
  // later uses of a spelling, and spellings beyond the bound, must read as the first did.
  using ptsim_test::Approx;
  for (int round = 0; round < 3; ++round) {
    CHECK(ps::parse_si("1098 MHz", dims::frequency()) == Approx(1.098e9));
    CHECK(ps::parse_si("712.5 mV", dims::voltage()) == Approx(0.7125));
    CHECK(contains(error_of("3 MHzz", dims::frequency()), "unknown unit 'MHzz'"));
    CHECK(contains(error_of("3 mV", dims::frequency()), "which is voltage"));
  }
  // 120 distinct spellings, more than the list holds: past the bound, the earliest are
  // parsed anew.
  for (int e = 1; e <= 60; ++e) {
    const std::string unit = "m^" + std::to_string(e);
    CHECK(ps::parse_quantity("2 " + unit).dim.exp[0] == e);
    CHECK(ps::parse_quantity("2 k" + unit).value_si == Approx(2.0 * std::pow(1e3, e)).epsilon(1e-12));
  }
  CHECK(ps::parse_si("1098 MHz", dims::frequency()) == Approx(1.098e9));
  CHECK(contains(error_of("3 MHzz", dims::frequency()), "unknown unit 'MHzz'"));
}
