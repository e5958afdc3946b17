#include "softsim/core/binary_archive.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "softsim/core/hash.hpp"

namespace softsim {
namespace {

TEST(BinaryArchive, RoundTripsEveryKindBitForBit) {
  ArchiveWriter out;
  VecX v(5);
  v << -0.0, std::numeric_limits<double>::denorm_min(), std::nan("0x7ff"), -HUGE_VAL, 0.1;
  MatX m = MatX::Random(3, 4);
  out.tag("record");
  out.flag(true);
  out.integer(-1234567890123);
  out.real(std::nextafter(1.0, 2.0));
  out.text(std::string("with\0nul", 8));
  out.vector(v);
  out.matrix(m);
  out.reals({1.5, -2.5});
  ArchiveReader in(out.bytes());
  in.expect("record");
  EXPECT_TRUE(in.flag());
  EXPECT_EQ(in.integer(), -1234567890123);
  EXPECT_EQ(in.real(), std::nextafter(1.0, 2.0));
  EXPECT_EQ(in.text(), std::string("with\0nul", 8));
  const VecX v2 = in.vector();
  ASSERT_EQ(v2.size(), v.size());
  EXPECT_EQ(std::memcmp(v.data(), v2.data(), sizeof(double) * v.size()), 0);  // -0, NaN payload, denormal
  const MatX m2 = in.matrix();
  EXPECT_EQ(m2.rows(), 3);
  EXPECT_EQ(m2.cols(), 4);
  EXPECT_TRUE(m2 == m);
  EXPECT_EQ(in.reals(), (std::vector<double>{1.5, -2.5}));
  EXPECT_TRUE(in.at_end());
}

// Empty records (an exponential stepper's modes before the first step): found by UBSan, which
// reported memcpy from an empty matrix's null data() in `make test-sanitize`.
TEST(BinaryArchive, EmptyVectorsMatricesAndTextsRoundTrip) {
  ArchiveWriter out;
  out.vector(VecX());
  out.matrix(MatX(0, 3));
  out.reals({});
  out.text("");
  ArchiveReader in(out.bytes());
  EXPECT_EQ(in.vector().size(), 0);
  const MatX m = in.matrix();
  EXPECT_EQ(m.rows(), 0);
  EXPECT_EQ(m.cols(), 3);
  EXPECT_TRUE(in.reals().empty());
  EXPECT_EQ(in.text(), "");
  EXPECT_TRUE(in.at_end());
}

TEST(BinaryArchive, AMismatchedTagNamesBothRecords) {
  ArchiveWriter out;
  out.tag("ipc_contact");
  ArchiveReader in(out.bytes());
  try {
    in.expect("penalty_contact");
    FAIL() << "no error";
  } catch (const ArchiveError& e) {
    EXPECT_STREQ(e.what(), "expected the record \"penalty_contact\", found \"ipc_contact\"");
  }
}

TEST(BinaryArchive, TruncatedDataIsReportedNotRead) {
  ArchiveWriter out;
  out.vector(VecX::Ones(10));
  const std::string cut = out.bytes().substr(0, out.bytes().size() - 1);
  ArchiveReader in(cut);
  EXPECT_THROW(in.vector(), ArchiveError);
  ArchiveReader empty("");
  EXPECT_THROW(empty.real(), ArchiveError);
  EXPECT_THROW(empty.expect("x"), ArchiveError);
}

TEST(BinaryArchive, ACorruptLengthIsRefusedBeforeAnythingIsAllocated) {
  // A length of 2^60 elements (or a negative one) must not reach an allocation.
  for (const std::int64_t n : {std::int64_t(1) << 60, std::int64_t(-5)}) {
    ArchiveWriter out;
    out.integer(n);
    out.integer(n);
    ArchiveReader a(out.bytes()), b(out.bytes()), c(out.bytes());
    EXPECT_THROW(a.vector(), ArchiveError);
    EXPECT_THROW(b.text(), ArchiveError);
    EXPECT_THROW(c.matrix(), ArchiveError);
  }
  ArchiveWriter out;
  out.integer(2);
  ArchiveReader in(out.bytes());
  EXPECT_THROW(in.flag(), ArchiveError);  // a flag is 0 or 1
}

TEST(Fnv1a64, MatchesTheReferenceValues) {
  // Fowler-Noll-Vo reference test vectors.
  EXPECT_EQ(fnv1a_64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv1a_64("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(fnv1a_64("foobar"), 0x85944171f73967e8ull);
}

}  // namespace
}  // namespace softsim
