#include "softsim/solve/blas_threads.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>

namespace softsim {

void limit_blas_threads() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (const char* variable : {"OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS"})
      if (std::getenv(variable)) return;  // the user's choice
    // Looked up at run time: the BLAS behind the libblas.so.3 alternative may not be OpenBLAS.
    using SetThreads = void (*)(int);
    if (auto set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"))) set(1);
  });
}

}  // namespace softsim
