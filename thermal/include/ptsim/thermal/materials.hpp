#pragma once
// HotSpot 7 materials files (-materials_file): records of 4 or 5 non-comment lines:
// name, `solid` or `fluid`, thermal conductivity (W/(m K)), volumetric heat capacity
// (J/(m^3 K)), and for fluids the dynamic viscosity (Pa s). '#' lines and blank lines skipped.
#include <filesystem>
#include <string>
#include <vector>

namespace ptsim::thermal {

struct material {
  std::string name;
  bool fluid = false;
  double conductivity_W_per_mK = 0;
  double heat_capacity_J_per_m3K = 0;  ///< volumetric
  double viscosity_Pa_s = 0;            ///< fluids only
};

class material_list {
 public:
  /// Adds the materials of a file (later definitions of a name replace earlier ones). Throws
  /// std::runtime_error "file:line: ..." for malformed records.
  void add_file(const std::filesystem::path& path);
  void add_text(const std::string& text, const std::string& source);
  void add(material m);
  /// nullptr when unknown.
  const material* find(const std::string& name) const;
  const std::vector<material>& all() const { return list_; }

 private:
  std::vector<material> list_;
};

}  // namespace ptsim::thermal
