/* ref_util.h — private helpers of the CPU references in kernels/ref: reading a spec's
 * constants and finding output buffers by name, plus the per-item functions of the seed
 * kernels (exposed so tests can check the references against them item by item).
 * Not a public header: only the files of kernels/ref and tests/kernels include it. */
#ifndef WS_REF_UTIL_H
#define WS_REF_UTIL_H

#include "kernels/ref/ref.h"

/* Integer value of constant `name`; WS_ERR_SPEC naming the reference when absent. */
int ws_ref_const_int(const ws_spec *s, const char *ref, const char *name, int64_t *out,
                     ws_error *err);
/* Word value of constant `name` ("" when absent or not a word). */
const char *ws_ref_const_word(const ws_spec *s, const char *name);
/* Buffer `name` of `bufs`: its data and element count; checks the element type. */
int ws_ref_buffer(ws_buffers *bufs, const char *ref, const char *name, ws_type type,
                  void **data, uint64_t *count, ws_error *err);
/* Fails with WS_ERR_SPEC when buffer `name` holds fewer than `need` elements. */
int ws_ref_need(const char *ref, const char *name, uint64_t have, uint64_t need, ws_error *err);

/* `loop` iterations of the seed 000 update tmp = 0xffff & (tmp*tmp + tmp + add), with the
 * 32-bit wrap-around of the GPU's int arithmetic (done in unsigned: no C overflow). */
int32_t ws_ref_square_steps(int32_t tmp, int64_t loop, uint32_t add);
/* The paths of divergence_examples.cu (and functionA/B of branch_unification.cu). */
int32_t ws_ref_path_a(int32_t x, int64_t loop);  /* x*x + x */
int32_t ws_ref_path_b(int32_t x, int64_t loop);  /* x*x + x + 1 */
int32_t ws_ref_path_c(int32_t x, int64_t loop);  /* (x*x) ^ x */
int32_t ws_ref_path_d(int32_t x, int64_t loop);  /* x*x + 3x */
/* histogram.cu's bin of a value in [0,1). */
int64_t ws_ref_bin_of(double x, int64_t bins);

/* Himeno: one Jacobi sweep, as himeno.cu, writing wrk2; returns the sum of ss*ss (gosa's
 * increment, accumulated in double). `parallel` 1 is OpenMP (seed 001's pattern (6)),
 * 0 the serial loop of the original (pattern (5)). */
typedef struct ws_ref_himeno {
    int imax, jmax, kmax;
    const float *p, *a[4], *b[3], *c[3], *wrk1, *bnd;
    float *wrk2;
} ws_ref_himeno_grid;
float ws_ref_himeno_sweep(const ws_ref_himeno_grid *h, int parallel);

#endif
