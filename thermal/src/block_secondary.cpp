// The secondary heat path in block form: HotSpot's block-model rules (package.cpp) applied to
// the secondary layers of its grid model (grid_model.cpp, secondary_rc.cpp).
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

#include "package_rc.hpp"
#include "ptsim/thermal/secondary_path.hpp"
#include "secondary_rc.hpp"

namespace ptsim::thermal {

std::size_t add_block_secondary_path(rc_network& net, const floorplan& fp, const std::vector<std::size_t>& silicon,
                                     const secondary_path_config& s, std::size_t board_sink) {
  using detail::slab_c;
  using detail::slab_r;
  const auto& blocks = fp.blocks();
  const std::size_t n = blocks.size();
  if (n == 0 || silicon.size() != n)
    throw std::invalid_argument("secondary path: one silicon node per floorplan block is needed");
  const double W = fp.width(), H = fp.height();
  detail::check_secondary(s, W, H);

  struct layer {
    const char* prefix;
    secondary_material m;
    double t;
  };
  // Top (next to the silicon) to bottom (the board).
  const std::array<layer, 5> layers{{{"metal_", metal_layers, s.t_metal},
                                      {"c4_", c4_underfill, s.t_c4},
                                      {"sub_", substrate, s.t_sub},
                                      {"solder_", solder_balls, s.t_solder},
                                      {"pcb_", pcb, s.t_pcb}}};
  const double pcb_area = s.s_pcb * s.s_pcb;
  const std::size_t first = net.size();
  for (std::size_t l = 0; l < layers.size(); ++l)
    for (const block& b : blocks) {
      double c = slab_c(layers[l].m.p, layers[l].t, b.area());
      if (l + 1 == layers.size()) c += detail::c_factor * s.c_convec_sec * b.area() / pcb_area;
      net.add_node(layers[l].prefix + b.name, c);
    }
  auto node = [&](std::size_t l, std::size_t i) { return first + l * n + i; };

  // Vertical, as the grid model's secondary stack (whose node order runs from the PCB up):
  // each link spans the layer farther from the silicon (silicon-metal the metal, metal-C4 the
  // C4 layer, ..., solder-PCB the PCB).
  for (std::size_t i = 0; i < n; ++i) {
    const double a = blocks[i].area();
    for (std::size_t l = 0; l < layers.size(); ++l) {
      const std::size_t upper = l == 0 ? silicon[i] : node(l - 1, i);
      net.connect(upper, node(l, i), 1.0 / slab_r(layers[l].m.k, layers[l].t, a));
    }
  }

  // Lateral, between adjacent blocks, in every layer.
  for (const adjacency& adj : fp.adjacencies()) {
    const block& bi = blocks[adj.a];
    const block& bj = blocks[adj.b];
    const double half = ((adj.vertical_edge ? bi.width_m : bi.height_m) + (adj.vertical_edge ? bj.width_m : bj.height_m)) / 2.0;
    for (std::size_t l = 0; l < layers.size(); ++l)
      net.connect(node(l, adj.a), node(l, adj.b), layers[l].m.k * layers[l].t * adj.shared_length_m / half);
  }

  const detail::secondary_rings rings = detail::add_secondary_rings(net, s, W, H, board_sink);
  // The PCB under the blocks reaches the board sink by its area share, as the rings do.
  for (std::size_t i = 0; i < n; ++i) {
    const double g = blocks[i].area() / (s.r_convec_sec * pcb_area);
    if (board_sink == detail::to_ambient) net.connect_ambient(node(4, i), g);
    else net.connect(node(4, i), board_sink, g);
  }

  // Edge blocks of the substrate, solder and PCB layers to their side's ring node.
  auto on_side = [&](const block& b, int d) { return detail::on_border(fp, b, d); };
  struct ring {
    std::size_t layer, node;
    double side;
  };
  const ring edge_rings[] = {{2, rings.sub, s.s_sub}, {3, rings.solder, s.s_solder}, {4, rings.pcb_in, s.s_solder}};
  for (const ring& r : edge_rings) {
    const layer& ly = layers[r.layer];
    auto half_g = [&](const block& b, int d) {
      return detail::is_x(d) ? ly.m.k * b.height_m * ly.t / (b.width_m / 2.0) : ly.m.k * b.width_m * ly.t / (b.height_m / 2.0);
    };
    for (int d = 0; d < 4; ++d) {
      double g_edge = 0;
      for (const block& b : blocks)
        if (on_side(b, d)) g_edge += half_g(b, d);
      const double r1 = detail::secondary_r1(ly.m.k, r.side, ly.t, d, W, H);
      for (std::size_t i = 0; i < n; ++i)
        if (on_side(blocks[i], d)) {
          const double g = half_g(blocks[i], d);
          net.connect(node(r.layer, i), r.node + static_cast<std::size_t>(d), g / (1.0 + r1 * g_edge));
        }
    }
  }
  return first;
}

}  // namespace ptsim::thermal
