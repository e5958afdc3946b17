// The five contact operations of the ipc-toolkit comparison (docs/performance.md), on the same two
// scenes as the peer harness in the shared documents (peers/ipc-toolkit), timed at 1 and 2
// threads. Prints CSV on stdout, one row per measurement:
//   scene,threads,operation,median_ms
// operation: swept_broad_phase (t0 -> t1, no margin), step_size (IpcContact::max_step_fraction:
// the line search's filter, swept broad phase within dhat + additive CCD), proximity_broad_phase
// (candidates within dhat at t0), active_set (candidates closer than dhat, with distances),
// energy_gradient_hessian (kappa sum b, its gradient and PSD-projected Hessian triplets, broad
// phase included). Median of --reps calls after one warm-up.
//   cloth:     the Scalable-CCD cloth-funnel frames 227 -> 228; dhat 1e-3, kappa 1e3.
//   armadillo: the surface of polyfem-data's Armadillo13K.msh, t1 = t0 plus a per-vertex
//              displacement of up to 0.25 mean edge per axis (splitmix64 of 3 v + k, as the
//              harness); dhat 0.35 mean edge, kappa 1e3.
// Needs the shared data ($SOFTSIM_DATA_DIR, default ../shared/data beside the source tree).
// --broad-phase names the method of every broad phase (a scene's contact.broad_phase; default
// auto). --operations keeps only the named operations (profiling one of them).
//   bench_contact_ops [--reps 7] [--scenes cloth,armadillo] [--threads 1,2] [--broad-phase auto]
//                     [--operations swept_broad_phase,...]
#include <tbb/global_control.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "softsim/contact/barrier/ipc_contact.hpp"
#include "softsim/contact/broad_phase/candidates.hpp"
#include "softsim/contact/geometry/collision_mesh.hpp"
#include "softsim/io/read_mesh.hpp"
#include "softsim/mesh/surface.hpp"
#include "softsim/model/model.hpp"

namespace {

using namespace softsim;
namespace fs = std::filesystem;

struct ContactScene {
  std::string name;
  MatX V0, V1;
  Eigen::MatrixXi faces;
  double dhat = 0.0, kappa = 1e3;
};

fs::path data_dir() {
  if (const char* env = std::getenv("SOFTSIM_DATA_DIR"); env && *env) return env;
  return fs::path(SOFTSIM_SOURCE_DIR) / ".." / "shared" / "data";
}

// Uniform in [-1, 1) from splitmix64: the harness's displacement rule.
double hash_uniform(std::uint64_t i) {
  std::uint64_t z = i + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z = z ^ (z >> 31);
  return static_cast<double>(z >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

double mean_edge_length(const MatX& V, const Eigen::MatrixXi& edges) {
  double sum = 0.0;
  for (Eigen::Index i = 0; i < edges.rows(); ++i) sum += (V.row(edges(i, 0)) - V.row(edges(i, 1))).norm();
  return sum / static_cast<double>(edges.rows());
}

ContactScene load(const std::string& name) {
  ContactScene s;
  s.name = name;
  const fs::path d = data_dir();
  if (name == "cloth") {
    const fs::path frames = d / "ccd" / "scalable-ccd-sample" / "cloth-funnel" / "frames";
    const Mesh m0 = read_mesh(frames / "227.ply"), m1 = read_mesh(frames / "228.ply");
    if (m0.cells != m1.cells) throw std::runtime_error("cloth frames 227 and 228 have different faces");
    s.V0 = m0.vertices;
    s.V1 = m1.vertices;
    s.faces = m0.cells;
    s.dhat = 1e-3;
  } else if (name == "armadillo") {
    const Mesh tets =
        read_mesh(d / "meshes" / "polyfem-data" / "contact" / "meshes" / "3D" / "creatures" / "armadillo" / "Armadillo13K.msh");
    const Surface surface = extract_surface(tets);
    // Compacted to the surface vertices, in their order.
    std::vector<int> local(tets.vertices.rows(), -1);
    for (std::size_t i = 0; i < surface.vertices.size(); ++i) local[surface.vertices[i]] = static_cast<int>(i);
    s.V0.resize(static_cast<Eigen::Index>(surface.vertices.size()), 3);
    for (std::size_t i = 0; i < surface.vertices.size(); ++i) s.V0.row(i) = tets.vertices.row(surface.vertices[i]);
    s.faces = surface.faces.unaryExpr([&](int v) { return local[v]; });
    const double a = 0.25 * mean_edge_length(s.V0, unique_edges(s.faces));
    s.V1 = s.V0;
    for (Eigen::Index v = 0; v < s.V1.rows(); ++v)
      for (int k = 0; k < 3; ++k) s.V1(v, k) += a * hash_uniform(3 * static_cast<std::uint64_t>(v) + k);
    s.dhat = 0.35 * mean_edge_length(s.V0, unique_edges(s.faces));
  } else {
    throw std::runtime_error("unknown scene " + name + " (cloth, armadillo)");
  }
  return s;
}

double median_ms(int reps, const std::function<void()>& f) {
  f();  // warm-up
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
}

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream ss(list);
  for (std::string item; std::getline(ss, item, ',');) out.push_back(item);
  return out;
}

void run(const ContactScene& s, int threads, int reps, BroadPhaseMethod method,
         const std::vector<std::string>& operations) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
  const int n = static_cast<int>(s.V0.rows());
  const CollisionMesh mesh = build_collision_mesh(3, n, Eigen::MatrixXi(), s.faces);
  const VecX x0 = flatten_rows(s.V0), x1 = flatten_rows(s.V1), p = x1 - x0;
  const VertexRows V0 = mesh.positions(x0), V1 = mesh.positions(x1);
  Model model(3);  // only the rest positions are read (the edge-edge mollifier's threshold)
  model.rest_positions = x0;
  IpcOptions options;
  options.dhat = s.dhat;
  options.kappa = s.kappa;
  options.broad_phase = method;
  const IpcContact ipc(model, mesh, options);
  ModelData data;
  data.add(ipc);
  const Stage stage;
  const EvalContext ctx{stage, data};
  auto row = [&](const char* op, const std::function<void()>& call) {
    if (std::find(operations.begin(), operations.end(), op) == operations.end()) return;
    std::printf("%s,%d,%s,%.4f\n", s.name.c_str(), threads, op, median_ms(reps, call));
  };

  row("swept_broad_phase", [&] { (void)ccd_candidates(mesh, V0, V1, 0.0, method); });
  row("step_size", [&] { (void)ipc.max_step_fraction(ctx, x0, p); });
  row("proximity_broad_phase", [&] { (void)proximity_candidates(mesh, V0, s.dhat, method); });
  // From here on nothing is cached: every call starts from the broad phase, as the harness's.
  data = ModelData();
  data.add(ipc);
  row("active_set", [&] { (void)ipc.active_pairs(x0); });
  VecX g(x0.size());
  std::vector<Triplet> triplets;
  row("energy_gradient_hessian", [&] {
    g.setZero();
    triplets.clear();
    (void)ipc.evaluate(ctx, x0, AssemblyOutputs{&g, nullptr, 1.0, true, &triplets});
  });
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 7;
  std::vector<std::string> scenes{"cloth", "armadillo"};
  std::vector<int> threads{1, 2};
  BroadPhaseMethod method = BroadPhaseMethod::Auto;
  std::vector<std::string> operations{"swept_broad_phase", "step_size", "proximity_broad_phase", "active_set",
                                      "energy_gradient_hessian"};
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--reps")) reps = std::max(1, std::atoi(argv[i + 1]));
    else if (!std::strcmp(argv[i], "--scenes")) scenes = split(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--threads")) {
      threads.clear();
      for (const std::string& t : split(argv[i + 1])) threads.push_back(std::max(1, std::atoi(t.c_str())));
    } else if (!std::strcmp(argv[i], "--broad-phase") && value_named<BroadPhaseMethod>(argv[i + 1])) {
      method = *value_named<BroadPhaseMethod>(argv[i + 1]);
    } else if (!std::strcmp(argv[i], "--operations")) {
      operations = split(argv[i + 1]);
    } else {
      std::fprintf(stderr,
                   "usage: bench_contact_ops [--reps 7] [--scenes cloth,armadillo] [--threads 1,2] "
                   "[--broad-phase auto|hash|bvh|lbvh|brute_force] [--operations swept_broad_phase,...]\n");
      return 2;
    }
  }
  try {
    std::printf("scene,threads,operation,median_ms\n");
    for (const std::string& name : scenes) {
      const ContactScene s = load(name);
      for (int t : threads) run(s, t, reps, method, operations);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_contact_ops: %s\n", e.what());
    return 1;
  }
  return 0;
}
