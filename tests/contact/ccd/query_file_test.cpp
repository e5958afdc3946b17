// Additive CCD on the shared CCD benchmark queries (/work/shared/data/ccd, both sets, vf and ee):
// zero false negatives (asserted), false-positive rate and throughput printed; on the
// scalable-ccd sample, toi_computed <= toi_true for every query with a ground-truth toi
// (conservative), tightness = median toi_computed / toi_true printed.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>

#include "softsim/contact/ccd/query_file.hpp"
#include "support/data_dir.hpp"

namespace softsim {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> query_files(const fs::path& root) {
  std::vector<fs::path> files;
  if (!fs::exists(root)) return files;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file() && e.path().extension() == ".csv" && infer_ccd_query_kind(e.path()) &&
        e.path().parent_path().filename() != "toi")
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

struct Tally {
  long n = 0, truth_pos = 0, fn = 0, fp = 0, truth_neg = 0;
  double seconds = 0;
};

void run_set(const std::string& name, const std::vector<fs::path>& files, CcdQueryKind kind,
             std::vector<double>* ratios = nullptr) {
  Tally t;
  for (const auto& f : files) {
    if (*infer_ccd_query_kind(f) != kind) continue;
    const auto queries = read_ccd_queries(f);
    std::vector<CcdResult> res(queries.size());
    const auto start = std::chrono::steady_clock::now();
    for (size_t i = 0; i < queries.size(); ++i) res[i] = evaluate_ccd_query(queries[i], kind);
    t.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (size_t i = 0; i < queries.size(); ++i) {
      ASSERT_NE(queries[i].truth, -1) << f << " query " << i << " has no ground truth";
      ++t.n;
      if (queries[i].truth == 1) {
        ++t.truth_pos;
        EXPECT_TRUE(res[i].collides) << "false negative: " << f << " query " << i;
        t.fn += !res[i].collides;
      } else {
        ++t.truth_neg;
        t.fp += res[i].collides;
      }
    }
    if (ratios) {
      for (const auto& [index, toi_true] : read_ccd_toi(f)) {
        ASSERT_LT(size_t(index), res.size()) << f;
        ASSERT_TRUE(res[index].collides) << f << " query " << index;
        EXPECT_LE(res[index].toi, toi_true) << "not conservative: " << f << " query " << index;
        if (toi_true > 0) ratios->push_back(res[index].toi / toi_true);
      }
    }
  }
  EXPECT_EQ(t.fn, 0);
  std::cout << "[ccd] " << name << (kind == CcdQueryKind::vertex_face ? " vf" : " ee") << ": queries=" << t.n
            << " truth_positives=" << t.truth_pos << " false_negatives=" << t.fn << " false_positives=" << t.fp
            << " fp_rate=" << (t.truth_neg ? double(t.fp) / t.truth_neg : 0.0)
            << " queries_per_s=" << (t.seconds > 0 ? t.n / t.seconds : 0.0) << "\n";
}

TEST(CcdDataset, Wang2021NoFalseNegatives) {
  SOFTSIM_REQUIRE_SHARED_DATA();
  const auto files = query_files(test::shared_data_dir() / "ccd" / "wang2021-sample-queries");
  if (files.empty()) GTEST_SKIP() << "no wang2021 query files";
  run_set("wang2021", files, CcdQueryKind::vertex_face);
  run_set("wang2021", files, CcdQueryKind::edge_edge);
}

TEST(CcdDataset, ScalableCcdNoFalseNegativesAndConservativeToi) {
  SOFTSIM_REQUIRE_SHARED_DATA();
  const auto files = query_files(test::shared_data_dir() / "ccd" / "scalable-ccd-sample");
  if (files.empty()) GTEST_SKIP() << "no scalable-ccd query files";
  std::vector<double> ratios;
  run_set("scalable-ccd", files, CcdQueryKind::vertex_face, &ratios);
  run_set("scalable-ccd", files, CcdQueryKind::edge_edge, &ratios);
  ASSERT_FALSE(ratios.empty());
  std::sort(ratios.begin(), ratios.end());
  std::cout << "[ccd] scalable-ccd toi tightness (toi/toi_true): median=" << ratios[ratios.size() / 2]
            << " min=" << ratios.front() << " max=" << ratios.back() << " over " << ratios.size() << " queries\n";
  EXPECT_LE(ratios.back(), 1.0);
}

}  // namespace
}  // namespace softsim
