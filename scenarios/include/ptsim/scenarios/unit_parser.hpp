#pragma once
// Strings with units at the configuration boundary: "2.4 GHz", "35 degC", "51.2 GB/s",
// "100 W/(m*K)". A value is parsed to SI and its dimension is checked against the
// expected one; a wrong unit is an error, never a silent guess.
#include <array>
#include <stdexcept>
#include <string>

namespace ptsim::scenarios {

/// Exponents of metre, kilogram, second, ampere, kelvin, byte.
struct dimension {
  std::array<int, 6> exp{};
  bool operator==(const dimension& o) const { return exp == o.exp; }
  bool operator!=(const dimension& o) const { return exp != o.exp; }
  /// Human name with its SI unit, e.g. "frequency (Hz)" or "m^2*kg*s^-3 (W)".
  std::string describe() const;
};

namespace dims {
dimension none();
dimension time();
dimension frequency();
dimension power();
dimension energy();
dimension voltage();
dimension capacitance();
dimension temperature();  ///< absolute point ("35 degC" or "308.15 K") and difference ("5 K")
dimension length();
dimension area();
dimension bytes();
dimension bandwidth();             ///< B/s
dimension thermal_conductivity();  ///< W/(m*K)
dimension volumetric_heat_capacity();  ///< J/(m^3*K)
dimension thermal_resistance();    ///< K/W
dimension heat_capacity();         ///< J/K
dimension energy_per_byte();       ///< J/B
dimension heat_transfer_coefficient();  ///< W/(m^2*K)
dimension volume_flow();           ///< m^3/s
}  // namespace dims

struct parsed_quantity {
  double value_si = 0;  ///< SI (kelvin for temperatures, absolute when the unit was degC)
  dimension dim;
  bool celsius = false;  ///< the unit was degC (an absolute temperature)
};

/// Parse error: `what()` says what was expected and what was found.
struct unit_error : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// Parses "<number> <unit>" (or a bare number, dimensionless). Throws unit_error.
parsed_quantity parse_quantity(const std::string& text);

/// Parses and checks the dimension. For temperature, `absolute` selects a point
/// (degC or K accepted; result in kelvin) or a difference (K only).
double parse_si(const std::string& text, const dimension& expected, bool absolute_temperature = true);

/// The preferred unit spelled for a dimension, for messages and the JSON schema
/// (K rather than degC for a temperature difference).
std::string unit_hint(const dimension& d, bool absolute_temperature = true);

}  // namespace ptsim::scenarios
