#pragma once
// CCD benchmark query files (/work/shared/data/README.md, ccd/ sections): 8 rows per query,
// each row the rationals x, y, z as numerator,denominator pairs (xn,xd,yn,yd,zn,zd), plus a 7th
// ground-truth column (0/1) in the Wang et al. 2021 set. Row order vertex-face:
// p, t0, t1, t2 at t = 0 then at t = 1; edge-edge: ea0, ea1, eb0, eb1 at t = 0 then t = 1.
// Numerators/denominators are exact doubles, so strtod(n)/strtod(d) is the exact coordinate.
// The scalable-ccd set (6 columns) keeps its truth in mma_bool/<stem>_mma_bool.json beside the
// queries/ folder, and its times of impact in toi/<stem>_toi.csv.
#include <Eigen/Core>

#include <array>
#include <filesystem>
#include <optional>
#include <vector>

#include "softsim/contact/ccd/additive_ccd.hpp"

namespace softsim {

enum class CcdQueryKind { vertex_face, edge_edge };

struct CcdQuery {
  std::array<Eigen::Vector3d, 8> v{Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero(),
                                   Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero(),
                                   Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};  // the 8 rows
  int truth = -1;                    // 1 collides, 0 not, -1 unknown
};

// From a "vertex-face"/"edge-edge" folder in the path, or a file name ending in vf.csv/ee.csv.
std::optional<CcdQueryKind> infer_ccd_query_kind(const std::filesystem::path& file);

// Reads the queries; throws InputError naming the file and line on malformed input. Fills truth
// from the 7th column, or else from the mma_bool JSON when one is found beside the file.
std::vector<CcdQuery> read_ccd_queries(const std::filesystem::path& file);

// The mma_bool JSON for a scalable-ccd query file, if present.
std::optional<std::filesystem::path> ccd_truth_file(const std::filesystem::path& file);
// The toi CSV (query_index,toi,num_roots) for a scalable-ccd query file, if present; returns
// (index, toi) pairs.
std::vector<std::pair<int, double>> read_ccd_toi(const std::filesystem::path& queries_file);

// Evaluates one query with additive CCD.
CcdResult evaluate_ccd_query(const CcdQuery& q, CcdQueryKind kind, const AccdOptions& options = {});

}  // namespace softsim
