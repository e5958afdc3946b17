// softsim reduce: a reduced body's basis file (scene/reduced_basis_file.hpp) from a scene: the
// lowest modes at t = 0, modes mixed with modal derivatives, or POD of the frames of a run of
// the scene (`softsim run SCENE --out RUN`, then --snapshots RUN). A scene names the file in
// bodies[i].reduction.file (docs/subspace-bodies.md). With --cubature T, a cubature of the body's
// elasticity fitted on the basis is stored with it, and a scene naming the file uses it.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "commands.hpp"
#include "softsim/core/errors.hpp"
#include "softsim/io/vtu.hpp"
#include "softsim/scene/reduced_basis_file.hpp"
#include "softsim/scene/scene.hpp"
#include "softsim/subspace/body_bases.hpp"
#include "softsim/subspace/body_cubature.hpp"

namespace softsim::cli {

namespace {

int body_index(const Scene& scene, const std::string& name) {
  if (name.empty()) {
    if (scene.bodies.size() == 1) return 0;
    throw InputError(fmt::format("{}: the scene has {} bodies: name one with --body", scene.source(), scene.bodies.size()));
  }
  for (std::size_t b = 0; b < scene.bodies.size(); ++b)
    if (scene.bodies[b].name == name) return static_cast<int>(b);
  throw InputError(fmt::format("{}: no body is named \"{}\"", scene.source(), name));
}

// The body's positions in every frame of the run (frames/frame_NNNNN.vtu for a one-body scene,
// frames/<body>_NNNNN.vtu otherwise), one column per frame in frame order.
MatX snapshots_of(const std::filesystem::path& run, const Model& model, int b, std::size_t bodies) {
  namespace fs = std::filesystem;
  const Body& body = model.bodies[b];
  const fs::path frames = run / "frames";
  if (!fs::is_directory(frames))
    throw InputError(fmt::format("{}: no frames/ folder: --snapshots names the output folder of softsim run", run.string()));
  // PREFIX digits .vtu, the prefix taken literally (a body's name is free text).
  const std::string prefix = bodies == 1 ? std::string("frame_") : body.name + "_";
  auto is_frame = [&](const std::string& name) {
    if (name.size() <= prefix.size() + 4 || name.compare(0, prefix.size(), prefix) != 0 ||
        name.compare(name.size() - 4, 4, ".vtu") != 0)
      return false;
    return std::all_of(name.begin() + prefix.size(), name.end() - 4, [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  };
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(frames))
    if (is_frame(entry.path().filename().string())) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  if (files.empty()) throw InputError(fmt::format("{}: no VTU frames of body \"{}\" (the run must write \"vtu\" frames)",
                                                  frames.string(), body.name));
  const int d = model.dim(), n = body.mesh.num_vertices();
  MatX snapshots(n * d, static_cast<Eigen::Index>(files.size()));
  for (std::size_t k = 0; k < files.size(); ++k) {
    const Eigen::MatrixXd points = read_vtu_points(files[k]);
    if (points.rows() != n)
      throw InputError(fmt::format("{}: {} points, but body \"{}\" has {} vertices: a run of another scene?",
                                   files[k].string(), points.rows(), body.name, n));
    for (int i = 0; i < n; ++i) snapshots.col(k).segment(i * d, d) = points.row(i).head(d).transpose();
  }
  return snapshots;
}

}  // namespace

int reduce_command(const ReduceOptions& o) {
  const Scene scene = read_scene(o.scene);
  const Model model = build_model(scene);
  const int b = body_index(scene, o.body);
  const std::optional<ReducedBasisKind> kind = value_named<ReducedBasisKind>(o.basis);
  if (!kind) throw InputError(fmt::format("--basis: expected modes, pod or modes+derivatives, got \"{}\"", o.basis));
  if (scene.bodies[b].kind == BodyKind::affine || scene.bodies[b].reduction)
    throw InputError(fmt::format("{}: {}: reduce a deformable body of the full model (no \"reduction\" key, not affine)",
                                 scene.source(), scene.bodies[b].path));
  if (*kind == ReducedBasisKind::pod && o.snapshots.empty())
    throw InputError("--basis pod: name a run of the scene with --snapshots RUN_OUTPUT");
  ReducedBasis basis;
  std::optional<Cubature> cubature;
  try {
    switch (*kind) {
      case ReducedBasisKind::modes: basis = modal_basis(model, b, o.size); break;
      case ReducedBasisKind::modes_and_derivatives: basis = modal_derivative_basis(model, b, o.size); break;
      case ReducedBasisKind::pod:
        basis = pod_basis(model, b, snapshots_of(o.snapshots, model, b, scene.bodies.size()), o.size);
        break;
    }
    if (o.cubature > 0) {  // fitted on this basis and stored with it (An, Kim & James 2008)
      BodyCubatureOptions options;
      options.fit.max_elements = o.cubature;
      options.fit.tolerance = o.cubature_tolerance;
      cubature = body_cubature(model, b, basis, options);
      if (cubature->elements.empty())
        throw InputError(fmt::format("{}: body \"{}\": --cubature: no element fits the training poses",
                                     scene.source(), scene.bodies[b].name));
    }
  } catch (const InputError&) {
    throw;
  } catch (const RunError&) {
    throw;
  } catch (const std::exception& e) {  // the eigensolver or the fit refused the body
    throw InputError(fmt::format("{}: body \"{}\": {}", scene.source(), scene.bodies[b].name, e.what()));
  }
  write_reduced_basis(o.out, scene.bodies[b].name, basis, cubature);
  fmt::print("wrote {}: {} basis of body \"{}\", {} columns over {} vertices\n", o.out, name_of(basis.kind),
             scene.bodies[b].name, basis.size(), basis.num_vertices());
  if (cubature)
    fmt::print("cubature: {} of {} elements, relative error {:.3g} on the training poses (tolerance {:g})\n",
               cubature->elements.size(), cubature->num_elements, cubature->relative_error, o.cubature_tolerance);
  fmt::print("column,value\n");
  for (int j = 0; j < basis.size(); ++j) fmt::print("{},{:.10g}\n", j + 1, basis.values[j]);
  return 0;
}

}  // namespace softsim::cli
