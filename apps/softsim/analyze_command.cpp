// softsim analyze damping: the damping curve d/omega(omega h) of an integrator on
// q'' + omega^2 q = 0 (Ascher et al. 2022, §3.2), computed from the spectral radius of the one-step
// amplification matrix (softsim/integrate/damping_analysis.hpp): d/omega = -2 ln(rho)/(omega h).
#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "commands.hpp"
#include "softsim/integrate/damping_analysis.hpp"

namespace softsim::cli {

namespace {

std::vector<double> parse_points(const std::string& range, const std::string& at, int count) {
  std::vector<double> points;
  if (!at.empty()) {
    std::stringstream ss(at);
    std::string item;
    while (std::getline(ss, item, ',')) points.push_back(std::stod(item));
  } else {
    const auto colon = range.find(':');
    if (colon == std::string::npos) throw std::invalid_argument("--range expects a:b, got '" + range + "'");
    const double a = std::stod(range.substr(0, colon)), b = std::stod(range.substr(colon + 1));
    if (!(a > 0.0) || !(b > a)) throw std::invalid_argument("--range needs 0 < a < b");
    for (int i = 0; i < count; ++i)  // logarithmic spacing
      points.push_back(a * std::pow(b / a, count == 1 ? 0.0 : double(i) / (count - 1)));
  }
  for (double z : points)
    if (!(z > 0.0)) throw std::invalid_argument("omega*h values must be positive");
  return points;
}

// A minimal SVG line plot: log10(omega h) on x, d/omega on y.
void write_svg(const std::string& path, const std::string& title, const std::vector<double>& x,
               const std::vector<double>& y) {
  const double W = 640, H = 420, L = 70, R = 20, T = 40, B = 50;
  double x0 = std::log10(x.front()), x1 = std::log10(x.back());
  if (x1 <= x0) x1 = x0 + 1;
  double y0 = 0.0, y1 = 0.0;
  for (double v : y)
    if (std::isfinite(v)) y0 = std::min(y0, v), y1 = std::max(y1, v);
  if (y1 <= y0) y1 = y0 + 1;
  auto px = [&](double v) { return L + (std::log10(v) - x0) / (x1 - x0) * (W - L - R); };
  auto py = [&](double v) { return H - B - (v - y0) / (y1 - y0) * (H - T - B); };
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\">\n", W, H);
  out << fmt::format("<rect width=\"{}\" height=\"{}\" fill=\"white\"/>\n", W, H);
  out << fmt::format("<text x=\"{}\" y=\"25\" font-size=\"16\">damping curve: {}</text>\n", L, title);
  out << fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"black\"/>\n", L, H - B, W - R);
  out << fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"black\"/>\n", L, T, H - B);
  out << fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"13\">omega h (log scale, {:.3g} .. {:.3g})</text>\n",
                     L + 150, H - 15, x.front(), x.back());
  out << fmt::format("<text x=\"5\" y=\"{}\" font-size=\"13\">{:.3g}</text>\n", py(y1) + 5, y1);
  out << fmt::format("<text x=\"5\" y=\"{}\" font-size=\"13\">{:.3g}</text>\n", py(y0), y0);
  out << fmt::format("<text x=\"5\" y=\"{}\" font-size=\"13\">d/omega</text>\n", (T + H - B) / 2);
  out << "<polyline fill=\"none\" stroke=\"steelblue\" stroke-width=\"2\" points=\"";
  for (std::size_t i = 0; i < x.size(); ++i)
    if (std::isfinite(y[i])) out << fmt::format("{:.2f},{:.2f} ", px(x[i]), py(y[i]));
  out << "\"/>\n</svg>\n";
}

}  // namespace

int analyze_damping_command(const AnalyzeOptions& o) {
  DampingMethod method{*value_named<IntegratorType>(o.method), o.beta, o.gamma, o.rho_inf, o.subspace == "inside",
                       *value_named<SubspaceHistory>(o.history)};
  const std::vector<double> z = parse_points(o.range, o.at, o.points);
  std::vector<double> d;
  fmt::print("omega_h,d_over_omega\n");
  for (double zi : z) {
    d.push_back(damping_ratio(method, zi));
    fmt::print("{:.10g},{:.10g}\n", zi, d.back());
  }
  if (!o.plot.empty()) write_svg(o.plot, o.method, z, d);
  return 0;
}

}  // namespace softsim::cli
