// softsim runs OpenBLAS on one thread (solve/blas_threads.hpp) unless the environment says
// otherwise: its busy-waiting threads beside TBB's made CHOLMOD 10x slower on a loaded machine.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "softsim/solve/linear_solver.hpp"

namespace softsim {
namespace {

TEST(BlasThreads, DirectSolversRunOpenBlasOnOneThread) {
  for (const char* variable : {"OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS"})
    if (std::getenv(variable)) GTEST_SKIP() << variable << " is set: the user's thread count is kept";
  using GetThreads = int (*)();
  const auto get = reinterpret_cast<GetThreads>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
  if (!get) GTEST_SKIP() << "the BLAS is not OpenBLAS";
  make_linear_solver("cholmod", 10);
  EXPECT_EQ(get(), 1);
}

}  // namespace
}  // namespace softsim
