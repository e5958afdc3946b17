#pragma once
// The BLAS under CHOLMOD's supernodal factorization and UMFPACK is, on Debian, usually OpenBLAS
// built with its own pthreads. Its threads busy-wait for work, beside softsim's TBB workers, so
// whenever the cores are not all idle they fight over them: a 7.7K-DOF CHOLMOD factorization took
// 630 ms with OpenBLAS's default threads and 59 ms with one, on 2 cores with two other processes
// running (bench_beam, docs/solvers.md). softsim therefore runs the BLAS on one thread unless the
// user asked otherwise (OPENBLAS_NUM_THREADS, GOTO_NUM_THREADS or OMP_NUM_THREADS set).
namespace softsim {

// Idempotent and cheap after the first call; a no-op when the BLAS is not OpenBLAS.
void limit_blas_threads();

}  // namespace softsim
