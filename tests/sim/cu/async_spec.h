/* async_spec.h — the spec of async.cu's five working kernels (cp.async copies, cuda::barrier
 * phases, the __mbarrier primitives, parity waits, bulk copies), shared by test_sim_async (against the
 * CPU) and test_sass_diff (the SASS model against the PTX model); tests/gpu/ptx_async.spec
 * runs the same on the GPU. */
#ifndef WS_TESTS_ASYNC_SPEC_H
#define WS_TESTS_ASYNC_SPEC_H
#define WS_ASYNC_SPEC                                                                      \
    "workload async\nsource async.cu\n"                                                    \
    "buffer in i32 1024 uniform_int -1000000 1000000\nbuffer out i32 1024 zero\n"          \
    "buffer info i32 8 zero\n"                                                             \
    "variant copies\n  kernel copies\n  grid 1\n  block 128\n  args in out\n"              \
    "variant phases\n  kernel phases\n  grid 1\n  block 128\n  args in out 5\n"            \
    "variant primitives\n  kernel primitives\n  grid 1\n  block 64\n  args in out info\n"  \
    "variant parity\n  kernel parity\n  grid 1\n  block 64\n  args in out info 7\n"    \
    "variant bulk\n  kernel bulk\n  grid 1\n  block 256\n  args in out info 4\n"
#endif
