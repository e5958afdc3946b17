// softsim analyze modes: the s lowest modes of K x = lambda M x of a scene at its rest state (the
// modal subspace of the additive exponential integrators, softsim/integrate/exponential/), as CSV
// (eigenvalue, angular frequency, frequency in Hz), mode shapes as VTU files for ParaView, and an
// SVG plot of the spectrum like Ascher et al. 2022, Fig. 5.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "commands.hpp"
#include "softsim/core/bounding_box.hpp"
#include "softsim/core/errors.hpp"
#include "softsim/solve/modal_subspace.hpp"
#include "softsim/integrate/exponential/second_order_system.hpp"
#include "softsim/io/atomic_file.hpp"
#include "softsim/io/vtu.hpp"
#include "softsim/scene/scene.hpp"

namespace softsim::cli {

namespace {

// Eigenvalue against mode number, linear axes.
std::string spectrum_svg(const std::string& title, const VecX& lambda) {
  const double W = 640, H = 420, L = 80, R = 20, T = 40, B = 50;
  const int n = static_cast<int>(lambda.size());
  const double y0 = std::min(0.0, lambda.minCoeff()), y1 = std::max(lambda.maxCoeff(), y0 + 1e-300);
  auto px = [&](int i) { return L + (n > 1 ? double(i) / (n - 1) : 0.5) * (W - L - R); };
  auto py = [&](double v) { return H - B - (v - y0) / (y1 - y0) * (H - T - B); };
  std::string out = fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\">\n", W, H);
  out += fmt::format("<rect width=\"{}\" height=\"{}\" fill=\"white\"/>\n", W, H);
  out += fmt::format("<text x=\"{}\" y=\"25\" font-size=\"16\">lowest {} eigenvalues: {}</text>\n", L, n, title);
  out += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"black\"/>\n", L, H - B, W - R);
  out += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"black\"/>\n", L, T, H - B);
  out += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"13\">mode number (1 .. {})</text>\n", L + 200, H - 15, n);
  out += fmt::format("<text x=\"5\" y=\"{}\" font-size=\"13\">{:.3g}</text>\n", py(y1) + 5, y1);
  out += fmt::format("<text x=\"5\" y=\"{}\" font-size=\"13\">{:.3g}</text>\n", py(y0), y0);
  out += fmt::format("<text x=\"5\" y=\"{}\" font-size=\"13\">lambda (1/s^2)</text>\n", (T + H - B) / 2);
  for (int i = 0; i < n; ++i)
    out += fmt::format("<circle cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"2\" fill=\"steelblue\"/>\n", px(i), py(lambda[i]));
  return out + "</svg>\n";
}

}  // namespace

int analyze_modes_command(const ModesOptions& o) {
  const Scene scene = read_scene(o.scene);
  const Model model = build_model(scene);
  const SecondOrderSystem system(model, scene.integrator.newton.project_psd);
  const ModelData data(model);
  const Stage stage;
  const SparseMat K = system.stiffness(EvalContext{stage, data}, model.rest_positions);
  ModalOptions options;
  options.count = o.count;
  const ModalSubspace modes = lowest_modes(K, model.mass_matrix(), model.boundary.fixed_dofs(), options);
  const VecX hz = modes.frequencies_hz();
  std::string csv = "mode,eigenvalue,omega,frequency_hz\n";
  for (int j = 0; j < modes.count(); ++j)
    csv += fmt::format("{},{:.10g},{:.10g},{:.10g}\n", j + 1, modes.eigenvalues[j],
                       std::sqrt(std::max(modes.eigenvalues[j], 0.0)), hz[j]);
  fmt::print("{}", csv);
  if (!o.out.empty()) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(o.out, ec);
    if (ec) throw RunError(fmt::format("{}: cannot create the output directory: {}", o.out, ec.message()));
    const int dim = model.dim();
    // Each shape is drawn on the rest mesh displaced by the mode scaled to 10% of the model's size.
    const MatX rest = Eigen::Map<const MatX>(model.rest_positions.data(), dim, model.num_vertices()).transpose();
    const double size = bounding_box_diagonal(rest);
    for (int j = 0; j < modes.count(); ++j) {
      const MatX shape = Eigen::Map<const MatX>(modes.modes.col(j).data(), dim, model.num_vertices()).transpose();
      const double largest = shape.rowwise().norm().maxCoeff();
      const MatX displaced = rest + (largest > 0.0 ? 0.1 * size / largest : 0.0) * shape;
      for (const Body& body : model.bodies) {
        const int n = body.mesh.num_vertices();
        write_vtu(fs::path(o.out) / fmt::format("mode_{:03}_{}.vtu", j + 1, body.name), body.mesh,
                  displaced.middleRows(body.first_vertex, n), VtuFields{{"mode", shape.middleRows(body.first_vertex, n)}});
      }
    }
    write_file_atomically(fs::path(o.out) / "modes.csv", [&](std::ostream& out) { out << csv; });
  }
  if (!o.plot.empty())
    write_file_atomically(o.plot, [&](std::ostream& out) { out << spectrum_svg(o.scene, modes.eigenvalues); });
  return 0;
}

}  // namespace softsim::cli
