#pragma once
// A phone's thermal stack around its SoC, as an rc_network:
//
//   soc ──r_soc_frame── frame ──r_frame_front── skin_front ──1/(h_front A_front)── ambient
//                         │  └──r_frame_back─── skin_back  ──1/(h_back A_back)──── ambient
//                         └──r_frame_battery── battery ──r_battery_back── skin_back
//
// The SoC (one lumped node, or one node per floorplan block with HotSpot's silicon lateral
// links) spreads through its TIM and shield into the mid-frame (aluminium frame or vapour
// chamber); the frame reaches the display glass (front skin), the back cover (rear skin) and
// the battery, which also touches the back cover. The skins lose heat to ambient by natural
// convection and radiation, linearised as a film coefficient h (W/(m^2 K)) over their
// areas. There is no heat sink: the skins are where the heat goes, and their temperature is
// what users feel (skin-temperature limits of about 43 degC drive phone thermal policy).
//
// With a board (phone_config::board), the SoC also sheds heat downwards, HotSpot's secondary
// path in block form (secondary_path.hpp): metal layers, C4 bumps, package substrate, solder
// balls and the PCB, whose nodes reach the frame (where the board is screwed and padded)
// through their area share of r_board_frame, instead of convecting to ambient as in HotSpot.
//
// Node names: "soc" (lumped) or the block names, "frame", "battery", "skin_front",
// "skin_back" (then, with a board, "metal_<b>" .. "pcb_<b>" and inode_12..27).
#include <cstddef>
#include <optional>
#include <vector>

#include "ptsim/thermal/secondary_path.hpp"

#include "ptsim/thermal/floorplan.hpp"
#include "ptsim/thermal/rc_network.hpp"

namespace ptsim::thermal {

/// Defaults: a 150 mm x 70 mm phone, ~30 g aluminium frame, ~45 g battery (SI units).
struct phone_config {
  double r_soc_frame_K_per_W = 2.5;      ///< junction to frame: die, TIM, shield can
  double r_frame_front_K_per_W = 4.0;    ///< through the display stack
  double r_frame_back_K_per_W = 3.0;     ///< through graphite sheet and rear cover
  double r_frame_battery_K_per_W = 1.5;
  double r_battery_back_K_per_W = 2.0;   ///< 0 or infinity: no such path
  double c_soc_J_per_K = 0.4;            ///< lumped SoC (die, package, shield)
  double c_frame_J_per_K = 27.0;
  double c_battery_J_per_K = 45.0;
  double c_front_J_per_K = 16.0;         ///< display glass and panel
  double c_back_J_per_K = 12.0;
  double area_front_m2 = 0.0105, area_back_m2 = 0.0105;
  double h_front_W_per_m2K = 10.0;       ///< convection + radiation, held in the hand
  double h_back_W_per_m2K = 8.0;
  /// The secondary path through the board (floorplan SoC only). Its r_convec_sec is the whole
  /// board's resistance to the frame (r_board_frame); c_convec_sec adds to the board's nodes.
  std::optional<secondary_path_config> board;
};

struct phone_network {
  rc_network net;
  std::vector<std::size_t> soc;  ///< SoC node(s): one, or one per floorplan block
  std::size_t frame = 0, battery = 0, skin_front = 0, skin_back = 0;
  std::size_t board_first = 0;  ///< first board node (metal_ of the first block); 0 without a board
};

/// Lumped SoC. Throws std::invalid_argument for non-positive resistances, capacitances,
/// areas or film coefficients, or a board (it needs the SoC's floorplan).
phone_network build_phone_network(const phone_config& cfg);

/// SoC as floorplan blocks: block i has silicon capacitance 0.333 p_chip t_chip A_i (HotSpot's
/// lumping), HotSpot's lateral silicon links (k_chip, t_chip), and reaches the frame through
/// r_soc_frame * A_die / A_i (the die's resistance shared by area). cfg.c_soc_J_per_K is
/// then not used.
phone_network build_phone_network(const phone_config& cfg, const floorplan& soc, double t_chip_m = 0.15e-3,
                                  double k_chip_W_per_mK = 100.0, double p_chip_J_per_m3K = 1.75e6);

}  // namespace ptsim::thermal
