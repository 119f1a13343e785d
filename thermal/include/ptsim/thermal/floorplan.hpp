#pragma once
// Floorplans: rectangular blocks on a die, in metres, origin bottom-left (HotSpot's convention).
#include <string>
#include <vector>

namespace ptsim::thermal {

struct block {
  std::string name;
  double width_m = 0;
  double height_m = 0;
  double x_m = 0;  ///< left edge
  double y_m = 0;  ///< bottom edge
  double area() const { return width_m * height_m; }
};

/// A shared edge between two blocks (edges coincide within 1e-6 m, overlap > 0).
struct adjacency {
  std::size_t a, b;
  double shared_length_m;
  bool vertical_edge;  ///< true: east/west neighbours (shared edge is vertical)
};

class floorplan {
 public:
  floorplan() = default;
  explicit floorplan(std::vector<block> blocks);

  const std::vector<block>& blocks() const { return blocks_; }
  std::size_t size() const { return blocks_.size(); }
  /// Index of a block by name; throws std::out_of_range naming the block.
  std::size_t index_of(const std::string& name) const;
  double width() const;   ///< bounding-box width (m)
  double height() const;  ///< bounding-box height (m)
  double min_x() const;
  double min_y() const;
  std::vector<adjacency> adjacencies() const;
  /// Problems found: overlapping blocks, gaps (area not covered in the bounding box), zero sizes.
  /// Empty when the floorplan is sound.
  std::vector<std::string> problems() const;

 private:
  std::vector<block> blocks_;
};

}  // namespace ptsim::thermal
