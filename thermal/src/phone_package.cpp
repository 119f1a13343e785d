#include "ptsim/thermal/phone_package.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "package_rc.hpp"

namespace ptsim::thermal {

namespace {

void require(double v, const char* name) {
  if (!(v > 0) || !std::isfinite(v))
    throw std::invalid_argument(std::string("phone package: ") + name + " must be positive and finite");
}

// Everything but the SoC: frame, battery, skins and their links.
void add_body(phone_network& p, const phone_config& c) {
  require(c.r_frame_front_K_per_W, "r_frame_front");
  require(c.r_frame_back_K_per_W, "r_frame_back");
  require(c.r_frame_battery_K_per_W, "r_frame_battery");
  require(c.c_frame_J_per_K, "c_frame");
  require(c.c_battery_J_per_K, "c_battery");
  require(c.c_front_J_per_K, "c_front");
  require(c.c_back_J_per_K, "c_back");
  require(c.area_front_m2 * c.h_front_W_per_m2K, "area_front * h_front");
  require(c.area_back_m2 * c.h_back_W_per_m2K, "area_back * h_back");
  rc_network& n = p.net;
  p.frame = n.add_node("frame", c.c_frame_J_per_K);
  p.battery = n.add_node("battery", c.c_battery_J_per_K);
  p.skin_front = n.add_node("skin_front", c.c_front_J_per_K);
  p.skin_back = n.add_node("skin_back", c.c_back_J_per_K);
  n.connect(p.frame, p.skin_front, 1.0 / c.r_frame_front_K_per_W);
  n.connect(p.frame, p.skin_back, 1.0 / c.r_frame_back_K_per_W);
  n.connect(p.frame, p.battery, 1.0 / c.r_frame_battery_K_per_W);
  const double rb = c.r_battery_back_K_per_W;
  if (rb > 0 && std::isfinite(rb)) n.connect(p.battery, p.skin_back, 1.0 / rb);
  n.connect_ambient(p.skin_front, c.h_front_W_per_m2K * c.area_front_m2);
  n.connect_ambient(p.skin_back, c.h_back_W_per_m2K * c.area_back_m2);
}

}  // namespace

phone_network build_phone_network(const phone_config& cfg) {
  require(cfg.r_soc_frame_K_per_W, "r_soc_frame");
  require(cfg.c_soc_J_per_K, "c_soc");
  if (cfg.board) throw std::invalid_argument("phone package: the board path needs the SoC as a floorplan");
  phone_network p;
  p.soc.push_back(p.net.add_node("soc", cfg.c_soc_J_per_K));
  add_body(p, cfg);
  p.net.connect(p.soc[0], p.frame, 1.0 / cfg.r_soc_frame_K_per_W);
  return p;
}

phone_network build_phone_network(const phone_config& cfg, const floorplan& soc, double t_chip_m,
                                  double k_chip_W_per_mK, double p_chip_J_per_m3K) {
  require(cfg.r_soc_frame_K_per_W, "r_soc_frame");
  require(t_chip_m, "t_chip");
  require(k_chip_W_per_mK, "k_chip");
  require(p_chip_J_per_m3K, "p_chip");
  if (soc.size() == 0) throw std::invalid_argument("phone package: the SoC floorplan has no blocks");
  phone_network p;
  for (const block& b : soc.blocks()) p.soc.push_back(p.net.add_node(b.name, detail::slab_c(p_chip_J_per_m3K, t_chip_m, b.area())));
  add_body(p, cfg);
  double die_area = 0;
  for (const block& b : soc.blocks()) die_area += b.area();
  for (std::size_t i = 0; i < soc.size(); ++i) {
    // The die-to-frame resistance, shared by the blocks in proportion to their area.
    p.net.connect(p.soc[i], p.frame, soc.blocks()[i].area() / (cfg.r_soc_frame_K_per_W * die_area));
  }
  for (const adjacency& a : soc.adjacencies()) {
    const block& bi = soc.blocks()[a.a];
    const block& bj = soc.blocks()[a.b];
    const double half_i = (a.vertical_edge ? bi.width_m : bi.height_m) / 2;
    const double half_j = (a.vertical_edge ? bj.width_m : bj.height_m) / 2;
    p.net.connect(p.soc[a.a], p.soc[a.b], k_chip_W_per_mK * t_chip_m * a.shared_length_m / (half_i + half_j));
  }
  if (cfg.board) p.board_first = add_block_secondary_path(p.net, soc, p.soc, *cfg.board, p.frame);
  return p;
}

}  // namespace ptsim::thermal
