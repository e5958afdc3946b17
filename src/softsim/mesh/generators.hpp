#pragma once
// Structured meshes centred at the origin: tetrahedral boxes, triangulated rectangles and
// mass-spring grids (the layouts of Li & Jiang 2025, Implementations 4.1.1 and 15.1.2).
#include "softsim/mesh/mesh.hpp"

namespace softsim {

// size.x() x size.y() x size.z() box, cells_per_axis cubes per axis, each cube split into 5
// tets; the split alternates with the parity of (i + j + k) so that neighbouring cubes' face
// diagonals match (the mesh is conforming). Every tet is positively oriented.
// Vertex (i, j, k) has index (i * (ny + 1) + j) * (nz + 1) + k.
Mesh generate_box(const Vec3& size, const Eigen::Vector3i& cells_per_axis);

// A closed box with a box-shaped cavity: generate_box's lattice without the cells that are at
// least `wall` cells away from every side (wall >= 1 and cells_per_axis > 2 wall on every axis).
// Its boundary is two closed surfaces, the outer one facing out and the cavity's facing in. Used
// vertices are numbered in lattice order.
Mesh generate_hollow_box(const Vec3& size, const Eigen::Vector3i& cells_per_axis, int wall);

// 2D triangulated rectangle, counter-clockwise triangles, diagonal direction alternating with
// (i % 2) ^ (j % 2). Vertex (i, j) has index i * (ny + 1) + j.
Mesh generate_rectangle(const Vec2& size, const Eigen::Vector2i& cells);

// 2D mass-spring grid: nodes x[i * (ny + 1) + j] = (-Lx/2 + i dx, -Ly/2 + j dy); edge cells
// in the order of Li & Jiang 2025, Implementation 4.1.1: horizontal (along x), vertical (along
// y), then both diagonals per cell.
Mesh generate_spring_grid(const Vec2& size, const Eigen::Vector2i& cells);

// 3D mass-spring lattice: nodes as in generate_box; springs along x, y, z, both diagonals of
// every axis-aligned lattice face, and the 4 body diagonals of every cube.
Mesh generate_spring_box(const Vec3& size, const Eigen::Vector3i& cells_per_axis);

}  // namespace softsim
