#include "softsim/contact/stencil/contact_stencil.hpp"

#include <limits>
#include <stdexcept>

#include "softsim/contact/distance/classification.hpp"
#include "softsim/contact/distance/edge_edge.hpp"
#include "softsim/contact/distance/point_edge.hpp"
#include "softsim/contact/distance/point_point.hpp"
#include "softsim/contact/distance/point_triangle.hpp"
#include "softsim/contact/distance/separation_bound.hpp"
#include "softsim/core/parallel.hpp"

namespace softsim {

namespace {

// Derivatives over fewer coordinates, zero-padded to the largest stencil's 12.
template <int N>
DistanceDerivatives<12> padded(const DistanceDerivatives<N>& d) {
  if constexpr (N == 12) {
    return d;
  } else {
    DistanceDerivatives<12> r;
    r.value = d.value;
    r.grad.template head<N>() = d.grad;
    r.hess.template topLeftCorner<N, N>() = d.hess;
    return r;
  }
}

[[noreturn]] void unsupported(const char* what) {
  throw std::logic_error(std::string("contact stencil: no ") + what + " for this kind of stencil");
}

}  // namespace

std::vector<ContactStencil> candidate_stencils(const CollisionMesh& mesh, const Candidates& c) {
  std::vector<ContactStencil> stencils;
  candidate_stencils(mesh, c, stencils);
  return stencils;
}

void candidate_stencils(const CollisionMesh& mesh, const Candidates& c, std::vector<ContactStencil>& stencils) {
  // Vertex-face, then edge-edge, then vertex-edge, each in candidate order (filled in parallel).
  const std::size_t nf = c.vertex_face.size(), ne = c.edge_edge.size();
  stencils.resize(c.size());
  parallel_for(stencils.size(), [&](std::size_t i) {
    if (i < nf) stencils[i] = candidate_stencil(mesh, PairKind::vertex_face, c.vertex_face[i][0], c.vertex_face[i][1]);
    else if (i < nf + ne) stencils[i] = candidate_stencil(mesh, PairKind::edge_edge, c.edge_edge[i - nf][0], c.edge_edge[i - nf][1]);
    else stencils[i] = candidate_stencil(mesh, PairKind::vertex_edge, c.vertex_edge[i - nf - ne][0], c.vertex_edge[i - nf - ne][1]);
  });
}

ContactStencil candidate_stencil(const CollisionMesh& mesh, PairKind kind, int i, int j) {
  switch (kind) {
    case PairKind::vertex_face:
      return ContactStencil::point_triangle(mesh.vertices[static_cast<std::size_t>(i)], mesh.faces(j, 0), mesh.faces(j, 1), mesh.faces(j, 2));
    case PairKind::edge_edge:
      return ContactStencil::edge_edge(mesh.edges(i, 0), mesh.edges(i, 1), mesh.edges(j, 0), mesh.edges(j, 1));
    case PairKind::vertex_edge: break;
  }
  return ContactStencil::point_edge(mesh.vertices[static_cast<std::size_t>(i)], mesh.edges(j, 0), mesh.edges(j, 1));
}

ContactStencil closest_features(const ContactStencil& s, const VertexRows& V) {
  using C = ContactStencil;
  const auto& i = s.ids;
  switch (s.kind) {
    case StencilKind::point_edge: {
      const PointEdgeDistanceType t =
          V.cols() == 3 ? point_edge_distance_type(stencil_vertex<3>(s, V, 0), stencil_vertex<3>(s, V, 1), stencil_vertex<3>(s, V, 2))
                        : point_edge_distance_type(stencil_vertex<2>(s, V, 0), stencil_vertex<2>(s, V, 1), stencil_vertex<2>(s, V, 2));
      switch (t) {
        case PointEdgeDistanceType::P_E0: return C::point_point(i[0], i[1]);
        case PointEdgeDistanceType::P_E1: return C::point_point(i[0], i[2]);
        default: return s;
      }
    }
    case StencilKind::point_triangle:
      switch (point_triangle_distance_type(stencil_vertex<3>(s, V, 0), stencil_vertex<3>(s, V, 1),
                                           stencil_vertex<3>(s, V, 2), stencil_vertex<3>(s, V, 3))) {
        case PointTriangleDistanceType::P_T0: return C::point_point(i[0], i[1]);
        case PointTriangleDistanceType::P_T1: return C::point_point(i[0], i[2]);
        case PointTriangleDistanceType::P_T2: return C::point_point(i[0], i[3]);
        case PointTriangleDistanceType::P_E0: return C::point_edge(i[0], i[1], i[2]);
        case PointTriangleDistanceType::P_E1: return C::point_edge(i[0], i[2], i[3]);
        case PointTriangleDistanceType::P_E2: return C::point_edge(i[0], i[3], i[1]);
        default: return s;
      }
    case StencilKind::edge_edge:
      switch (edge_edge_distance_type(stencil_vertex<3>(s, V, 0), stencil_vertex<3>(s, V, 1), stencil_vertex<3>(s, V, 2),
                                      stencil_vertex<3>(s, V, 3))) {
        case EdgeEdgeDistanceType::EA0_EB0: return C::point_point(i[0], i[2]);
        case EdgeEdgeDistanceType::EA0_EB1: return C::point_point(i[0], i[3]);
        case EdgeEdgeDistanceType::EA1_EB0: return C::point_point(i[1], i[2]);
        case EdgeEdgeDistanceType::EA1_EB1: return C::point_point(i[1], i[3]);
        case EdgeEdgeDistanceType::EA_EB0: return C::point_edge(i[2], i[0], i[1]);
        case EdgeEdgeDistanceType::EA_EB1: return C::point_edge(i[3], i[0], i[1]);
        case EdgeEdgeDistanceType::EA0_EB: return C::point_edge(i[0], i[2], i[3]);
        case EdgeEdgeDistanceType::EA1_EB: return C::point_edge(i[1], i[2], i[3]);
        default: return s;
      }
    default: return s;
  }
}

double distance_squared(const ContactStencil& s, const VertexRows& V) {
  auto v3 = [&](int a) { return stencil_vertex<3>(s, V, a); };
  auto v2 = [&](int a) { return stencil_vertex<2>(s, V, a); };
  const bool three = V.cols() == 3;
  switch (s.kind) {
    case StencilKind::point_triangle: return point_triangle_distance_squared(v3(0), v3(1), v3(2), v3(3));
    case StencilKind::edge_edge: return edge_edge_distance_squared(v3(0), v3(1), v3(2), v3(3));
    case StencilKind::point_edge:
      return three ? point_edge_distance_squared(v3(0), v3(1), v3(2)) : point_edge_distance_squared(v2(0), v2(1), v2(2));
    case StencilKind::point_point:
      return three ? point_point_distance_squared<3>(v3(0), v3(1)) : point_point_distance_squared<2>(v2(0), v2(1));
    case StencilKind::point_obstacle: break;
  }
  unsupported("distance");
}

double distance_squared_if_below(const ContactStencil& s, const VertexRows& V, double below, bool bound_applies) {
  if (bound_applies && V.cols() == 3) {
    auto v3 = [&](int a) { return stencil_vertex<3>(s, V, a); };
    const bool apart = s.kind == StencilKind::point_triangle ? point_triangle_farther_than(v3(0), v3(1), v3(2), v3(3), below)
                       : s.kind == StencilKind::edge_edge    ? edge_edge_farther_than(v3(0), v3(1), v3(2), v3(3), below)
                                                             : false;
    if (apart) return std::numeric_limits<double>::infinity();
  }
  return distance_squared(s, V);
}

DistanceDerivatives<12> distance_squared_derivatives(const ContactStencil& s, const VertexRows& V) {
  auto v3 = [&](int a) { return stencil_vertex<3>(s, V, a); };
  auto v2 = [&](int a) { return stencil_vertex<2>(s, V, a); };
  const bool three = V.cols() == 3;
  switch (s.kind) {
    case StencilKind::point_triangle: return point_triangle_distance(v3(0), v3(1), v3(2), v3(3));
    case StencilKind::edge_edge: return edge_edge_distance(v3(0), v3(1), v3(2), v3(3));
    case StencilKind::point_edge:
      return three ? padded(point_edge_distance(v3(0), v3(1), v3(2))) : padded(point_edge_distance(v2(0), v2(1), v2(2)));
    case StencilKind::point_point:
      return three ? padded(point_point_distance_derivatives<3>(v3(0), v3(1)))
                   : padded(point_point_distance_derivatives<2>(v2(0), v2(1)));
    case StencilKind::point_obstacle: break;
  }
  unsupported("distance");
}

CcdResult time_of_impact(const ContactStencil& s, const VertexRows& V0, const VertexRows& V1,
                         const AccdOptions& options) {
  auto a3 = [&](int a) { return stencil_vertex<3>(s, V0, a); };
  auto b3 = [&](int a) { return stencil_vertex<3>(s, V1, a); };
  auto a2 = [&](int a) { return stencil_vertex<2>(s, V0, a); };
  auto b2 = [&](int a) { return stencil_vertex<2>(s, V1, a); };
  switch (s.kind) {
    case StencilKind::point_triangle:
      return additive_ccd_point_triangle(a3(0), a3(1), a3(2), a3(3), b3(0), b3(1), b3(2), b3(3), options);
    case StencilKind::edge_edge:
      return additive_ccd_edge_edge(a3(0), a3(1), a3(2), a3(3), b3(0), b3(1), b3(2), b3(3), options);
    case StencilKind::point_edge:
      if (V0.cols() == 2) return additive_ccd_point_edge(a2(0), a2(1), a2(2), b2(0), b2(1), b2(2), options);
      break;
    default: break;
  }
  unsupported("CCD");
}

}  // namespace softsim
