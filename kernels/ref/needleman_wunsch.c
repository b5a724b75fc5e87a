/* needleman_wunsch.c — CPU reference of needleman_wunsch.cu: the (N+1) x (N+1) matrix of
 * Needleman-Wunsch global alignment scores of seqa (rows) against seqb (columns) under the
 * substitution table (24 x 24) and a linear gap PENALTY, filled row by row. */
#include "kernels/ref/ref_util.h"

#define WS_REF_ALPHABET 24

static int32_t ws_ref_max3(int32_t a, int32_t b, int32_t c)
{
    int32_t m = a > b ? a : b;
    return m > c ? m : c;
}

int ws_ref_needleman_wunsch(const ws_spec *s, const ws_variant *v, ws_buffers *expect,
                            ws_error *err)
{
    const char *ref = "needleman_wunsch";
    int64_t n, penalty;
    uint8_t *a, *b;
    int32_t *sub, *score;
    uint64_t na, nb, nsub, nscore;
    (void)v;
    if (ws_ref_const_int(s, ref, "N", &n, err) ||
        ws_ref_const_int(s, ref, "PENALTY", &penalty, err) ||
        ws_ref_buffer(expect, ref, "seqa", WS_T_U8, (void **)&a, &na, err) ||
        ws_ref_buffer(expect, ref, "seqb", WS_T_U8, (void **)&b, &nb, err) ||
        ws_ref_buffer(expect, ref, "substitution", WS_T_I32, (void **)&sub, &nsub, err) ||
        ws_ref_buffer(expect, ref, "score", WS_T_I32, (void **)&score, &nscore, err))
        return err->code;
    if (n < 1 || n > 1 << 15 || penalty < 0 || penalty > 1 << 15)
        return ws_error_set(err, WS_ERR_SPEC, "reference %s: N and PENALTY out of range", ref);
    int64_t cols = n + 1;
    if (ws_ref_need(ref, "seqa", na, (uint64_t)n, err) ||
        ws_ref_need(ref, "seqb", nb, (uint64_t)n, err) ||
        ws_ref_need(ref, "substitution", nsub, WS_REF_ALPHABET * WS_REF_ALPHABET, err) ||
        ws_ref_need(ref, "score", nscore, (uint64_t)(cols * cols), err))
        return err->code;
    for (int64_t i = 0; i < n; i++)
        if (a[i] >= WS_REF_ALPHABET || b[i] >= WS_REF_ALPHABET)
            return ws_error_set(err, WS_ERR_SPEC, "reference %s: residue codes must be below %d",
                                ref, WS_REF_ALPHABET);
    for (int64_t k = 0; k <= n; k++) {
        score[k] = (int32_t)(-k * penalty);
        score[k * cols] = (int32_t)(-k * penalty);
    }
    for (int64_t i = 1; i <= n; i++)
        for (int64_t j = 1; j <= n; j++) {
            int32_t match = score[(i - 1) * cols + j - 1] +
                            sub[a[i - 1] * WS_REF_ALPHABET + b[j - 1]];
            int32_t gap_a = score[i * cols + j - 1] - (int32_t)penalty;
            int32_t gap_b = score[(i - 1) * cols + j] - (int32_t)penalty;
            score[i * cols + j] = ws_ref_max3(match, gap_a, gap_b);
        }
    return WS_OK;
}
