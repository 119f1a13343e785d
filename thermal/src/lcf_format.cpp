#include "ptsim/thermal/lcf_format.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "ptsim/text/input_file.hpp"
#include "text_parse.hpp"

namespace ptsim::thermal {

namespace {

enum field { number, lateral, power, capacity, resistivity, thickness, floorplan_file };

}  // namespace

std::vector<lcf_layer> parse_lcf(const std::string& text, const std::string& source,
                                 const material_list& materials) {
  std::vector<lcf_layer> layers;
  std::istringstream in(text);
  std::vector<std::string> words;
  std::size_t line_no = 0;
  field next = number;
  lcf_layer cur;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    detail::split_words(line, words);
    if (words.empty() || words.front().front() == '#') continue;
    const std::string& w = words.front();
    const std::string where = source + ":" + std::to_string(line_no) + ": ";
    auto yes_no = [&](const char* what) {
      const char c = w.front();
      if (c == 'Y' || c == 'y') return true;
      if (c == 'N' || c == 'n') return false;
      throw std::runtime_error(where + "expected Y or N (" + what + ") for layer " +
                               std::to_string(cur.number) + ", found '" + w + "'");
    };
    auto positive = [&](const char* what) {
      double v = 0;
      if (!detail::parse_double(w, v) || !(v > 0))
        throw std::runtime_error(where + "expected a positive " + std::string(what) + " for layer " +
                                 std::to_string(cur.number) + ", found '" + w + "'");
      return v;
    };
    switch (next) {
      case number:
        cur = lcf_layer{};
        if (!detail::parse_int(w, cur.number) || cur.number < 0)
          throw std::runtime_error(where + "expected a layer number (0, 1, ...), found '" + w + "'");
        cur.source = source + ":" + std::to_string(line_no);
        next = lateral;
        break;
      case lateral:
        cur.lateral = yes_no("lateral heat flow");
        next = power;
        break;
      case power:
        cur.power = yes_no("power dissipation");
        next = capacity;
        break;
      case capacity: {
        double v = 0;
        if (detail::parse_double(w, v)) {
          if (!(v > 0))
            throw std::runtime_error(where + "expected a positive volumetric heat capacity for layer " +
                                     std::to_string(cur.number) + ", found '" + w + "'");
          cur.heat_capacity_J_per_m3K = v;
          next = resistivity;
        } else {
          const material* m = materials.find(w);
          if (m == nullptr)
            throw std::runtime_error(where + "expected a volumetric heat capacity in J/(m^3 K) or a "
                                     "material name for layer " + std::to_string(cur.number) +
                                     ", found '" + w + "', which no -materials_file defines");
          cur.heat_capacity_J_per_m3K = m->heat_capacity_J_per_m3K;
          cur.conductivity_W_per_mK = m->conductivity_W_per_mK;
          next = thickness;
        }
        break;
      }
      case resistivity:
        cur.conductivity_W_per_mK = 1.0 / positive("resistivity in m K/W");
        next = thickness;
        break;
      case thickness:
        cur.thickness_m = positive("thickness in m");
        next = floorplan_file;
        break;
      case floorplan_file:
        cur.floorplan_file = w;
        layers.push_back(cur);
        next = number;
        break;
    }
  }
  if (next != number)
    throw std::runtime_error(source + ":" + std::to_string(line_no) + ": layer " +
                             std::to_string(cur.number) + " (" + cur.source +
                             ") is incomplete: expected 7 entries per layer (number, Y/N, Y/N, "
                             "heat capacity, resistivity, thickness, floorplan file)");
  if (layers.empty()) throw std::runtime_error(source + ": expected at least one layer, found none");
  std::stable_sort(layers.begin(), layers.end(),
                   [](const lcf_layer& a, const lcf_layer& b) { return a.number < b.number; });
  for (std::size_t i = 0; i < layers.size(); ++i) {
    if (layers[i].number != static_cast<int>(i)) {
      const bool repeated = i > 0 && layers[i].number == layers[i - 1].number;
      throw std::runtime_error(layers[i].source + ": layer number " + std::to_string(layers[i].number) +
                               (repeated ? " appears twice" : " leaves a gap") + "; the " +
                               std::to_string(layers.size()) + " layers must be numbered 0.." +
                               std::to_string(layers.size() - 1));
    }
  }
  return layers;
}

std::vector<lcf_layer> read_lcf(const std::filesystem::path& path, const material_list& materials) {
  return parse_lcf(text::read_input_file_or_throw(path, "layer configuration file"), path.string(), materials);
}

}  // namespace ptsim::thermal
