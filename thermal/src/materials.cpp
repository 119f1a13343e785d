#include "ptsim/thermal/materials.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "ptsim/text/input_file.hpp"
#include "text_parse.hpp"

namespace ptsim::thermal {

void material_list::add(material m) {
  for (material& old : list_) {
    if (old.name == m.name) {
      old = std::move(m);
      return;
    }
  }
  list_.push_back(std::move(m));
}

const material* material_list::find(const std::string& name) const {
  for (const material& m : list_)
    if (m.name == name) return &m;
  return nullptr;
}

void material_list::add_text(const std::string& text, const std::string& source) {
  std::istringstream in(text);
  std::vector<std::string> words;
  std::size_t line_no = 0, field = 0, record_line = 0;
  material m;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    detail::split_words(line, words);
    if (words.empty() || words.front().front() == '#') continue;
    const std::string where = source + ":" + std::to_string(line_no) + ": ";
    const std::string& w = words.front();
    auto number = [&](const char* what, double& v) {
      if (!detail::parse_double(w, v) || v < 0)
        throw std::runtime_error(where + "expected a non-negative " + std::string(what) +
                                 " for material '" + m.name + "', found '" + w + "'");
    };
    switch (field) {
      case 0:
        m = material{};
        m.name = w;
        record_line = line_no;
        field = 1;
        break;
      case 1:
        if (w != "solid" && w != "fluid")
          throw std::runtime_error(where + "expected 'solid' or 'fluid' for material '" + m.name +
                                   "', found '" + w + "'");
        m.fluid = w == "fluid";
        field = 2;
        break;
      case 2:
        number("thermal conductivity in W/(m K)", m.conductivity_W_per_mK);
        field = 3;
        break;
      case 3:
        number("volumetric heat capacity in J/(m^3 K)", m.heat_capacity_J_per_m3K);
        if (m.fluid) {
          field = 4;
        } else {
          add(m);
          field = 0;
        }
        break;
      default:
        number("dynamic viscosity in Pa s", m.viscosity_Pa_s);
        add(m);
        field = 0;
        break;
    }
  }
  if (field != 0) {
    throw std::runtime_error(source + ":" + std::to_string(record_line) + ": material '" + m.name +
                             "' is incomplete (expected name, solid|fluid, conductivity, heat "
                             "capacity[, viscosity])");
  }
}

void material_list::add_file(const std::filesystem::path& path) {
  add_text(text::read_input_file_or_throw(path, "materials file"), path.string());
}

}  // namespace ptsim::thermal
