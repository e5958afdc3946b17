#include "softsim/mesh/mesh.hpp"

namespace softsim {

std::string to_string(CellType type) {
  switch (type) {
    case CellType::Edge: return "edge";
    case CellType::Triangle: return "triangle";
    case CellType::Tetrahedron: return "tetrahedron";
  }
  return "unknown";
}

}  // namespace softsim
