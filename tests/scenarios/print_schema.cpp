// Prints the scenario JSON schema, for the ctest check that it parses as JSON.
#include <iostream>

#include "ptsim/scenarios/schema.hpp"

int main() {
  std::cout << ptsim::scenarios::to_json_schema(ptsim::scenarios::scenario_schema());
  return 0;
}
