// softsim side of the softsim / ipc-toolkit comparison harness (peers/ipc-toolkit in the shared
// documents), adapted to the current API: each IpcContact gets its ModelData and an EvalContext.
// Built by the harness's build.sh in place of its own softsim_driver.cpp (docs/performance.md).
// Usage: softsim_driver <scene: cloth|armadillo> <threads> <reps> [dump_dir]
// Prints CSV rows "ROW,lib,scene,threads,op,median_s,min_s,reps,info" and "CHECK,..." lines.
// Links the softsim checkout's build/libsoftsim_lib.a (softsim's own Release build, not rebuilt here).
// The harness's row names are kept so that its run.sh tabulates them: the rows it names
// "SpatialHash" time softsim's default broad phase, `auto`, or the method named by the
// environment variable SOFTSIM_BROAD_PHASE (hash, bvh, lbvh, brute_force).
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <cstdarg>
#include <mutex>
#include <set>

#include "softsim/contact/barrier/ipc_contact.hpp"
#include "softsim/contact/broad_phase/candidates.hpp"
#include "softsim/contact/geometry/collision_mesh.hpp"
#include "softsim/model/model.hpp"

#include "scenes.hpp"

namespace {

using namespace softsim;

int observed_threads() {
  std::mutex m;
  std::set<int> ids;
  tbb::parallel_for(0, 64, [&](int) {
    volatile double x = 0;
    for (int k = 0; k < 2000000; ++k) x = x + 1e-9 * k;
    std::lock_guard<std::mutex> l(m);
    ids.insert(tbb::this_task_arena::current_thread_index());
  });
  return static_cast<int>(ids.size());
}

std::string fmt_info(const char* f, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, f);
  std::vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

VecX flat(const Eigen::MatrixXd& V) { return flatten_rows(V); }

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s scene threads reps [dump_dir]\n", argv[0]);
    return 2;
  }
  const std::string scene_name = argv[1];
  const int threads = std::atoi(argv[2]);
  const int reps = std::atoi(argv[3]);
  const std::string dump_dir = argc > 4 ? argv[4] : "";

  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
  BroadPhaseMethod method = BroadPhaseMethod::Auto;
  if (const char* env = std::getenv("SOFTSIM_BROAD_PHASE"); env && *env) {
    const auto named = value_named<BroadPhaseMethod>(env);
    if (!named) {
      std::fprintf(stderr, "softsim_driver: SOFTSIM_BROAD_PHASE=%s is not a broad phase method\n", env);
      return 2;
    }
    method = *named;
  }
  const bench::Scene s = bench::load_scene(scene_name);
  const char* L = "softsim";
  std::printf("INFO,%s,%s,%d,vertices=%ld edges=%ld faces=%ld mean_edge=%.6g dhat=%.6g kappa=%.6g "
              "tbb_limit=%zu observed_threads=%d commit=%s\n",
              L, s.name.c_str(), threads, (long)s.V0.rows(), (long)s.E.rows(), (long)s.F.rows(), s.mean_edge, s.dhat,
              s.kappa, tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism),
              observed_threads(), SOFTSIM_COMMIT);

  const int n = static_cast<int>(s.V0.rows());
  const CollisionMesh cm = build_collision_mesh(3, n, s.E, s.F);
  const VertexRows V0 = s.V0, V1 = s.V1;
  const VecX x0 = flat(s.V0), x1 = flat(s.V1), p = x1 - x0;

  // A model carrying only the rest positions (IpcContact reads them for the edge-edge
  // mollifier threshold; with a fixed kappa nothing else of the model is used).
  Model model(3);
  model.rest_positions = x0;

  // --- 1. swept broad phase t0 -> t1 (margin 0) ----------------------------------------------
  auto swept = [&](const char* op, BroadPhaseMethod m, double margin) {
    Candidates c;
    const bench::Timing t = bench::time_op(reps, [&] { c = ccd_candidates(cm, V0, V1, margin, m); });
    bench::report(L, s, threads, op, t,
                  fmt_info("fv=%zu ee=%zu total=%zu", c.vertex_face.size(), c.edge_edge.size(), c.size()));
  };
  swept("swept_broad_phase[SpatialHash default]", method, 0.0);
  swept("swept_broad_phase[BVH]", BroadPhaseMethod::BVH, 0.0);
  swept("swept_broad_phase_margin_dhat[SpatialHash, as max_step_fraction]", method, s.dhat);

  // --- 2. collision-free step size: IpcContact::max_step_fraction (the Newton line-search
  // filter: swept broad phase with margin dhat + ACCD s = 0.9 per pair) --------------------------
  {
    IpcOptions o;
    o.dhat = s.dhat;
    o.kappa = s.kappa;
    o.broad_phase = method;
    const IpcContact ipc(model, cm, o);
    ModelData data;
    data.add(ipc);
    const Stage stage;
    const EvalContext ctx{stage, data};
    double step = -1;
    bench::Timing t = bench::time_op(reps, [&] { step = ipc.max_step_fraction(ctx, x0, p); });
    bench::report(L, s, threads, "stepsize[max_step_fraction, margin dhat, ACCD s0.9]", t,
                  fmt_info("step=%.17g", step));
    std::printf("CHECK,%s,%s,%d,step_accd_line_search=%.17g\n", L, s.name.c_str(), threads, step);
    // Same call with a negligible dhat: the broad-phase margin becomes ~0 as in ipc-toolkit's
    // compute_collision_free_stepsize (dhat only sets that margin inside max_step_fraction).
    IpcOptions o0 = o;
    o0.dhat = 1e-300;
    const IpcContact ipc0(model, cm, o0);
    ModelData data0;
    data0.add(ipc0);
    const EvalContext ctx0{stage, data0};
    t = bench::time_op(reps, [&] { step = ipc0.max_step_fraction(ctx0, x0, p); });
    bench::report(L, s, threads, "stepsize[max_step_fraction, margin 0, ACCD s0.9]", t, fmt_info("step=%.17g", step));
    std::printf("CHECK,%s,%s,%d,step_accd_margin0=%.17g\n", L, s.name.c_str(), threads, step);
  }

  // --- 3. proximity at t0: active pairs, barrier energy, gradient, Hessian (PSD) ---------------
  {
    IpcOptions o;
    o.dhat = s.dhat;
    o.kappa = s.kappa;  // fixed stiffness; b(s) = -(s - dhat^2)^2 ln(s / dhat^2) on squared distances
    o.broad_phase = method;
    const IpcContact ipc(model, cm, o);  // never given a CCD query: no cached candidates
    ModelData data;
    data.add(ipc);
    const Stage stage;
    const EvalContext ctx{stage, data};
    Candidates c;
    bench::Timing t = bench::time_op(reps, [&] { c = proximity_candidates(cm, V0, s.dhat, method); });
    bench::report(L, s, threads, "proximity_broad_phase[SpatialHash]", t,
                  fmt_info("fv=%zu ee=%zu total=%zu", c.vertex_face.size(), c.edge_edge.size(), c.size()));
    int active = 0;
    t = bench::time_op(reps, [&] { active = ipc.active_pairs(x0); });
    bench::report(L, s, threads, "proximity_active_pairs[broad+distances]", t, fmt_info("active=%d", active));
    double E = 0;
    t = bench::time_op(reps, [&] { E = ipc.evaluate(ctx, x0, AssemblyOutputs{}); });
    bench::report(L, s, threads, "barrier_energy[evaluate value, incl. broad phase]", t, fmt_info("E=%.17g", E));
    VecX g;
    t = bench::time_op(reps, [&] {
      g = VecX::Zero(x0.size());
      E = ipc.evaluate(ctx, x0, AssemblyOutputs{&g, nullptr, 1.0, false, nullptr});
    });
    bench::report(L, s, threads, "barrier_energy+gradient[evaluate, incl. broad phase]", t,
                  fmt_info("gnorm=%.17g", g.norm()));
    std::vector<Triplet> trip;
    t = bench::time_op(reps, [&] {
      g = VecX::Zero(x0.size());
      trip.clear();
      E = ipc.evaluate(ctx, x0, AssemblyOutputs{&g, nullptr, 1.0, true, &trip});
    });
    bench::report(L, s, threads, "barrier_E+g+H_psd[evaluate -> triplets, incl. broad phase]", t,
                  fmt_info("triplets=%zu", trip.size()));
    SparseMat H(x0.size(), x0.size());
    t = bench::time_op(reps, [&] {
      g = VecX::Zero(x0.size());
      trip.clear();
      E = ipc.evaluate(ctx, x0, AssemblyOutputs{&g, nullptr, 1.0, true, &trip});
      H.setFromTriplets(trip.begin(), trip.end());
    });
    bench::report(L, s, threads, "proximity_total[evaluate E+g+H_psd + setFromTriplets]", t,
                  fmt_info("nnz=%ld", (long)H.nonZeros()));
    std::vector<Triplet> tripn;
    VecX gn = VecX::Zero(x0.size());
    ipc.evaluate(ctx, x0, AssemblyOutputs{&gn, nullptr, 1.0, false, &tripn});
    SparseMat Hn(x0.size(), x0.size());
    Hn.setFromTriplets(tripn.begin(), tripn.end());

    const Eigen::VectorXd w = bench::probe(g.size());
    const Eigen::VectorXd Hw = H * w, Hnw = Hn * w;
    std::printf("CHECK,%s,%s,%d,active=%d E=%.17g gnorm=%.17g Hfro=%.17g Hnfro=%.17g Hw_norm=%.17g Hnw_norm=%.17g "
                "min_distance=%.17g\n",
                L, s.name.c_str(), threads, active, E, g.norm(), H.norm(), Hn.norm(), Hw.norm(), Hnw.norm(),
                ipc.min_contact_distance(x0));
    if (!dump_dir.empty() && threads == 1) {
      bench::dump(dump_dir + "/softsim_" + s.name + "_grad.bin", g.data(), g.size());
      bench::dump(dump_dir + "/softsim_" + s.name + "_Hw.bin", Hw.data(), Hw.size());
      bench::dump(dump_dir + "/softsim_" + s.name + "_Hnw.bin", Hnw.data(), Hnw.size());
    }
  }
  return 0;
}
