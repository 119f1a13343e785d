#pragma once
#include <cmath>

#include "ptsim/scenarios/scenario.hpp"
#include "yaml_tree.hpp"

namespace ptsim::scenarios::detail {
/// Fills `sc` from a validated document; problems go to the view's origin.
void resolve(const view& root, scenario& sc);
}  // namespace ptsim::scenarios::detail
