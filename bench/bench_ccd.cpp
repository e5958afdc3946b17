// Full-set additive CCD run over the shared CCD benchmark queries (a plain timing main):
//   bench_ccd [DATA_DIR]   (default: ../shared/data beside the source tree, or $SOFTSIM_DATA_DIR)
// Per data set and kind: queries, ground-truth positives, false negatives, false positives,
// queries/s, and for the scalable-ccd sample the toi tightness (median toi/toi_true) and the
// number of non-conservative tois (must be 0).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "softsim/contact/ccd/query_file.hpp"

namespace fs = std::filesystem;
using namespace softsim;

int main(int argc, char** argv) {
  fs::path data = fs::path(SOFTSIM_SOURCE_DIR) / ".." / "shared" / "data";
  if (const char* env = std::getenv("SOFTSIM_DATA_DIR"); env && *env) data = env;
  if (argc > 1) data = argv[1];
  int failures = 0;
  for (const char* set : {"wang2021-sample-queries", "scalable-ccd-sample"}) {
    std::vector<fs::path> files;
    const fs::path root = data / "ccd" / set;
    if (!fs::exists(root)) {
      std::printf("%s: not found under %s\n", set, data.string().c_str());
      continue;
    }
    for (const auto& e : fs::recursive_directory_iterator(root))
      if (e.is_regular_file() && e.path().extension() == ".csv" && infer_ccd_query_kind(e.path()) &&
          e.path().parent_path().filename() != "toi")
        files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (auto kind : {CcdQueryKind::vertex_face, CcdQueryKind::edge_edge}) {
      long n = 0, pos = 0, neg = 0, fn = 0, fp = 0, nonconservative = 0;
      double seconds = 0;
      std::vector<double> ratios;
      for (const auto& f : files) {
        if (*infer_ccd_query_kind(f) != kind) continue;
        const auto q = read_ccd_queries(f);
        std::vector<CcdResult> r(q.size());
        const auto t0 = std::chrono::steady_clock::now();
        for (size_t i = 0; i < q.size(); ++i) r[i] = evaluate_ccd_query(q[i], kind);
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        for (size_t i = 0; i < q.size(); ++i) {
          ++n;
          if (q[i].truth == 1) ++pos, fn += !r[i].collides;
          if (q[i].truth == 0) ++neg, fp += r[i].collides;
        }
        for (const auto& [i, toi] : read_ccd_toi(f)) {
          if (!r[i].collides || r[i].toi > toi) ++nonconservative;
          else if (toi > 0) ratios.push_back(r[i].toi / toi);
        }
      }
      if (n == 0) continue;
      std::sort(ratios.begin(), ratios.end());
      std::printf("%s %s: queries=%ld truth_positives=%ld false_negatives=%ld false_positives=%ld (rate %.4f of %ld "
                  "negatives) queries_per_s=%.0f",
                  set, kind == CcdQueryKind::vertex_face ? "vf" : "ee", n, pos, fn, fp, neg ? double(fp) / neg : 0.0,
                  neg, n / seconds);
      if (!ratios.empty())
        std::printf(" toi_tightness_median=%.4f min=%.4f nonconservative=%ld", ratios[ratios.size() / 2],
                    ratios.front(), nonconservative);
      std::printf("\n");
      failures += fn + nonconservative;
    }
  }
  return failures == 0 ? 0 : 1;
}
