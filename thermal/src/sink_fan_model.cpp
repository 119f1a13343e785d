#include "ptsim/thermal/sink_fan_model.hpp"

#include <cmath>

namespace ptsim::thermal {

namespace {

// Air near room temperature and other constants, as HotSpot's package.h (its pi included,
// so that the results agree with it).
constexpr double air_density = 1.059;         // kg/m^3
constexpr double air_conductivity = 0.028;    // W/(m K)
constexpr double air_dynamic_visc = 2.0e-5;   // Pa s
constexpr double air_kinematic_visc = 1.9e-5; // m^2/s
constexpr double prandtl = 0.73;
constexpr double laminar_reynolds_limit = 3500;
constexpr double expansion_coeff = 3.0e-3;    // 1/K
constexpr double gravity = 9.8;               // m/s^2
constexpr double stefan_boltzmann = 5.67e-8;  // W/(m^2 K^4)
constexpr double emissivity = 0.95;           // typical heat sink
constexpr double pi = 3.1416;
// Fan: drag torque b omega^alpha balances the motor (laminar exponents), rpm to rad/s.
constexpr double fan_alpha = 1, fan_beta = 4, rpm_to_rad = 0.105;

struct sink_surface {
  double n_fin, area_fin, n_pin, area_pin;
};

sink_surface surface(const sink_fan_config& c, double s) {
  sink_surface out;
  out.n_fin = std::ceil((s - c.fin_width) / (c.fin_width + c.channel_width) - 0.5);
  out.area_fin = s * (s + 2.0 * out.n_fin * c.fin_height);
  const double per_side = (s - c.pin_diam) / (c.pin_diam + c.pin_dist);
  out.n_pin = std::ceil(per_side * per_side - 0.5);
  out.area_pin = s * s + pi * c.pin_diam * c.pin_height * out.n_pin;
  return out;
}

}  // namespace

double forced_convection_r(const sink_fan_config& c, double s, double k_sink) {
  const sink_surface a = surface(c, s);
  // Air volume per second from the fan (Zhang, Gurumurthi and Stan, DAC'07: blade drag
  // balances the motor's torque), with the blades' mean radius and area.
  const double dr = std::sqrt(c.fan_radius * c.fan_radius - c.motor_radius * c.motor_radius);
  const double r_mean = c.motor_radius + dr;
  const double blade_area = pi * dr * dr;
  const double volume_rate =
      blade_area * std::sqrt(0.25 * pi * std::pow(r_mean, fan_beta - 1) * std::pow(c.rpm * rpm_to_rad, fan_alpha) / blade_area);
  // Air speed through the sink and the hydraulic diameter of its channels (or the nozzle).
  double speed, dh;
  if (!c.impinging_flow) {
    dh = 2.0 * c.channel_width * s / (c.channel_width + s);
    speed = c.pin_fins ? volume_rate / ((std::sqrt(a.n_pin) - 1) * c.pin_dist * c.pin_height)
                       : volume_rate / ((a.n_fin - 1) * c.channel_width * c.fin_height);
  } else {
    dh = 2.0 * s / std::sqrt(pi);
    speed = volume_rate / (s * s - a.n_pin * pi * (c.pin_diam * 0.5) * (c.pin_diam * 0.5));
  }
  const double reynolds = air_density * speed * dh / air_dynamic_visc;
  if (c.impinging_flow) {
    const double area = c.pin_fins ? a.area_pin : a.area_fin;
    const double nusselt = 1.92 * std::pow(reynolds, 0.716) * std::pow(prandtl, 0.4) * std::pow(area / (s * s), -0.698);
    return 1.0 / (nusselt * air_conductivity / dh * area);
  }
  if (c.pin_fins) {
    const double rows = std::sqrt(a.n_pin) - 1;
    const double c1 = 0.6;
    const double c2 = 0.8 + 0.8333 * std::sqrt(rows) / std::pow(1 + 0.03 * rows * rows, 0.25);
    const double nusselt = 0.4 + 0.9 * (1.25 * c2 * c1 * std::sqrt(reynolds) + 0.001 * reynolds) * std::pow(prandtl, 0.33);
    return 1.0 / (nusselt * air_conductivity / c.pin_diam * a.area_pin);
  }
  // Fin channels: laminar (developing flow between plates) or turbulent (Petukhov friction).
  double h;
  if (reynolds <= laminar_reynolds_limit) {
    const double re_star = air_density * speed * c.channel_width * c.channel_width / (air_dynamic_visc * s);
    const double t1 = std::pow(re_star * prandtl * 0.5, -3);
    const double t2 = std::pow(0.664 * std::sqrt(re_star) * std::pow(prandtl, 0.33) * std::sqrt(1 + 3.65 / std::sqrt(re_star)), -3);
    h = std::pow(t1 + t2, -0.33) * air_conductivity / c.channel_width;
  } else {
    const double f = 1.0 / std::pow(0.79 * std::log(reynolds) - 1.64, 2.0);
    h = 0.125 * f * reynolds * std::pow(prandtl, 0.33) * air_conductivity / dh;
  }
  const double m = std::sqrt(2 * h / (k_sink * c.fin_width));  // fin parameter
  const double efficiency = std::tanh(m * s) / (m * s);
  return 1.0 / (h * (c.channel_width + 2 * efficiency * s) * a.n_fin * s);
}

double natural_convection_r(const sink_fan_config& c, double s, double sink_K, double ambient_K) {
  // Vertical fin channels (Cengel, Heat and Mass Transfer, 2007); HotSpot uses the same
  // correlation, with the pin spacing, for pin fins.
  const sink_surface a = surface(c, s);
  const double area = c.pin_fins ? a.area_pin : a.area_fin;
  const double w = c.pin_fins ? c.pin_dist : c.channel_width;
  const double rayleigh =
      gravity * expansion_coeff * (sink_K - ambient_K) * std::pow(w, 3.0) * prandtl / (air_kinematic_visc * air_kinematic_visc);
  const double x = rayleigh * w / s;
  const double nusselt = std::pow(576 / (x * x) + 2.873 / std::sqrt(x), -0.5);
  const double r_conv = 1.0 / (nusselt * air_conductivity / w * area);
  const double r_rad =
      (sink_K - ambient_K) / (emissivity * stefan_boltzmann * (std::pow(sink_K, 4.0) - std::pow(ambient_K, 4.0)) * area);
  return r_conv * r_rad / (r_conv + r_rad);
}

}  // namespace ptsim::thermal
