// softsim ccd FILE... [--type vf|ee] [--toi OUT.csv]: runs additive CCD
// (softsim/contact/additive_ccd.hpp) on CCD benchmark query files (format: ccd/query_file.hpp)
// and prints one summary line over all files:
//   queries=N positives=P false_negatives=FN false_positives=FP queries_per_s=R
// P counts the queries the CCD reports colliding; FN/FP compare with the ground truth where the
// file has one (7th column, or mma_bool JSON beside it). queries_per_s times the CCD only.
// --toi writes "index,toi" for every query reported colliding; index runs over all files in
// the order given (0-based).
#include <fmt/format.h>

#include <chrono>
#include <fstream>

#include "commands.hpp"
#include "softsim/contact/ccd/query_file.hpp"
#include "softsim/core/errors.hpp"

namespace softsim::cli {

int ccd_command(const std::vector<std::string>& files, const std::string& type, const std::string& toi_out) {
  std::vector<std::pair<std::vector<CcdQuery>, CcdQueryKind>> sets;
  for (const auto& f : files) {
    CcdQueryKind kind;
    if (type == "vf") kind = CcdQueryKind::vertex_face;
    else if (type == "ee") kind = CcdQueryKind::edge_edge;
    else if (const auto k = infer_ccd_query_kind(f)) kind = *k;
    else
      throw InputError(fmt::format("{}: cannot tell vertex-face from edge-edge (no vertex-face/edge-edge folder, "
                                   "name not ending in vf.csv/ee.csv); pass --type vf|ee",
                                   f));
    sets.emplace_back(read_ccd_queries(f), kind);
  }
  std::ofstream toi;
  if (!toi_out.empty()) {
    toi.open(toi_out);
    if (!toi) throw InputError(fmt::format("{}: cannot write the file", toi_out));
    toi << "index,toi\n";
  }
  long n = 0, positives = 0, fn = 0, fp = 0;
  double seconds = 0;
  std::vector<CcdResult> results;
  for (const auto& [queries, kind] : sets) {
    results.resize(queries.size());
    const auto start = std::chrono::steady_clock::now();
    for (size_t i = 0; i < queries.size(); ++i) results[i] = evaluate_ccd_query(queries[i], kind);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (size_t i = 0; i < queries.size(); ++i, ++n) {
      const bool hit = results[i].collides;
      positives += hit;
      if (queries[i].truth == 1 && !hit) ++fn;
      if (queries[i].truth == 0 && hit) ++fp;
      if (hit && toi) toi << n << ',' << fmt::format("{:.17g}", results[i].toi) << '\n';
    }
  }
  fmt::print("queries={} positives={} false_negatives={} false_positives={} queries_per_s={:.0f}\n", n, positives, fn,
             fp, seconds > 0 ? n / seconds : 0.0);
  return 0;
}

}  // namespace softsim::cli
