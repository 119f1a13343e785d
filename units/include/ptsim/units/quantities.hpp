#pragma once
// Boost.Units quantities used at ptsim's configuration and API boundaries.
// Models strip units once, at construction, and keep plain SI doubles in loops.
#include <boost/units/absolute.hpp>
#include <boost/units/quantity.hpp>
#include <boost/units/systems/si.hpp>
#include <boost/units/systems/temperature/celsius.hpp>

namespace ptsim::units {

namespace bu = boost::units;
namespace si = boost::units::si;

using seconds_t = bu::quantity<si::time>;
using hertz_t = bu::quantity<si::frequency>;
using volts_t = bu::quantity<si::electric_potential>;
using watts_t = bu::quantity<si::power>;
using joules_t = bu::quantity<si::energy>;
using farads_t = bu::quantity<si::capacitance>;
using meters_t = bu::quantity<si::length>;
using square_meters_t = bu::quantity<si::area>;
/// A temperature difference (K).
using kelvin_t = bu::quantity<si::temperature>;
/// An absolute temperature point (K on the absolute scale).
using abs_kelvin_t = bu::quantity<bu::absolute<si::temperature>>;

inline constexpr double zero_celsius_in_kelvin = 273.15;

inline seconds_t seconds(double v) { return v * si::seconds; }
inline hertz_t hertz(double v) { return v * si::hertz; }
inline volts_t volts(double v) { return v * si::volts; }
inline watts_t watts(double v) { return v * si::watts; }
inline joules_t joules(double v) { return v * si::joules; }
inline farads_t farads(double v) { return v * si::farads; }
inline meters_t meters(double v) { return v * si::meters; }
inline kelvin_t kelvin(double v) { return v * si::kelvin; }
inline abs_kelvin_t abs_kelvin(double v) { return v * bu::absolute<si::temperature>(); }
inline abs_kelvin_t celsius(double c) { return abs_kelvin(c + zero_celsius_in_kelvin); }

/// Strip a quantity to its SI value (the one place units are dropped).
template <class Unit, class Y>
constexpr Y value_si(const bu::quantity<Unit, Y>& q) { return q.value(); }

inline double to_celsius(abs_kelvin_t t) { return t.value() - zero_celsius_in_kelvin; }

}  // namespace ptsim::units
