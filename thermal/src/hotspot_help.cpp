// The text of `ptsim thermal --help`, built from the option catalogue.
#include <sstream>
#include <string>

#include "ptsim/thermal/hotspot_options.hpp"
#include "ptsim/thermal/hotspot_run.hpp"

namespace ptsim::thermal {

std::string hotspot_cli_help() {
  std::ostringstream h;
  h << "Usage: ptsim thermal -f FLP -p PTRACE [-o TTRACE] [-c CONFIG] [-d DUMP] [-name value]...\n"
       "\n"
       "HotSpot 7-compatible thermal simulation: takes hotspot's options and files and writes\n"
       "its outputs (kelvin), so that a HotSpot script works by changing the program name.\n"
       "Options are -name value pairs; the command line overrides the -c file, and in each\n"
       "the first occurrence wins. Every HotSpot 7 option is accepted.\n"
       "\n"
       "  -f FLP               floorplan (name width height left_x bottom_y, metres)\n"
       "  -p PTRACE            power trace: a header of block names, a row of watts per interval\n"
       "  -o TTRACE            transient block temperatures after every row (optional)\n"
       "  -c CONFIG            configuration file of -name value lines\n"
       "  -steady_file F       steady temperatures of every node, from the mean power of all rows\n"
       "  -init_file F         initial temperatures (the -steady_file format); else -init_temp\n"
       "  -model_type block|grid\n"
       "  -grid_rows N -grid_cols N      any sizes (HotSpot's default build: powers of two)\n"
       "  -grid_layer_file F   layer configuration (.lcf): several layers, unequal dies\n"
       "  -grid_steady_file F  steady temperature of every grid cell\n"
       "  -grid_map_mode avg|min|max|center   (HotSpot's default: center)\n"
       "\n"
       "Files named stdout or stderr go there. Temperatures are written with 6 decimals;\n"
       "-precision 2 prints HotSpot's.\n"
       "\n"
       "All options (modelled unless marked):\n";
  for (const option_info& o : option_catalogue()) {
    std::string mark;
    if (o.support == option_support::no_effect) mark = " [accepted; no effect in HotSpot either]";
    if (o.support == option_support::unmodelled) mark = " [accepted, not modelled: reported]";
    if (o.support == option_support::ptsim_only) mark = " [ptsim]";
    std::string name = "  -" + std::string(o.name);
    if (name.size() < 24) name.resize(24, ' ');
    h << name << ' ' << o.help << mark << "\n";
  }
  h << "\n"
       "Transient: each row holds its power for sampling_intvl seconds. -solver auto integrates\n"
       "exactly (matrix exponential) block models of up to 1500 nodes (372 blocks) and grids of\n"
       "up to 400 nodes; larger ones by third-order extrapolated implicit Euler with an error\n"
       "estimate per row kept under -solver_tolerance (K), whose errors can add up to a few\n"
       "tenths of it over many rows (-solver exponential: exact at any size, n^3 set-up).\n"
       "HotSpot's default build (adaptive RK4) agrees with these to about 0.01 K. Its SuperLU\n"
       "build takes a single backward-Euler step per row on grids, a first-order error of up to\n"
       "~1 K on fast traces:\n"
       "-solver superlu reproduces that build's numbers.\n"
       "\n"
       "Exit status: 0 done, 2 bad input, 1 thermal runaway (the message names the block and\n"
       "the time).\n";
  return h.str();
}

}  // namespace ptsim::thermal
