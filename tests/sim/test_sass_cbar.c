/* test_sass_cbar.c — the SASS model's convergence-barrier rules on real ptxas output
 * (tests/sim/cu/cbar.cu): lanes split at a divergent branch and join at BSYNC, a loop left
 * by `break` joins after the loop (BREAK), lanes that exit no longer hold a barrier back,
 * __syncwarp over half a warp waits only for that half, __reduce_add_sync over
 * __match_any_sync groups runs once per group (WARPSYNC.EXCLUSIVE), and lanes that passed a
 * BSYNC out of a YIELD loop no longer hold its barrier (nested CAS loops), and a YIELD the
 * whole warp runs keeps its barriers (a converged CAS loop), and a CTA's warps contend at
 * a shared-memory CAS loop (a float atomicAdd on shared memory), and a shuffle and a
 * ballot over per-tile masks take the slow path, one tile at a time (WARPSYNC.COLLECTIVE). Counts are read per
 * source line of cbar.cu; outputs are checked against values computed here. Skipped
 * without nvdisasm. */
#include "tests/sim/sim_test.h"

static ws_module *ptx;
static ws_sass_module *sass;

/* Per-line totals of the SASS rows whose text starts with `prefix` (NULL: all). */
typedef struct line_sum { uint64_t issued, active; int rows; } line_sum;

static line_sum sum_line(const ws_result *r, int line, const char *prefix)
{
    line_sum s = {0, 0, 0};
    for (int i = 0; i < r->ninsts; i++) {
        const ws_inst_stat *in = &r->insts[i];
        if (in->line != line || in->issued == 0)
            continue;
        if (prefix && strncmp(in->text, prefix, strlen(prefix)))
            continue;
        s.issued += in->issued;
        s.active += in->active_threads;
        s.rows++;
    }
    return s;
}

/* Every executed row of the line ran with exactly `lanes` lanes per issue. */
static int line_lanes(const ws_result *r, int line, uint64_t lanes)
{
    int seen = 0;
    for (int i = 0; i < r->ninsts; i++) {
        const ws_inst_stat *in = &r->insts[i];
        if (in->line != line || in->issued == 0)
            continue;
        seen = 1;
        if (in->active_threads != lanes * in->issued) {
            fprintf(stderr, "  line %d %s: %llu lanes over %llu issues, want %llu each\n", line,
                    in->text, (unsigned long long)in->active_threads,
                    (unsigned long long)in->issued, (unsigned long long)lanes);
            return 0;
        }
    }
    return seen;
}

/* Every executed row of the line was passed by exactly `lanes` lanes in all (each lane
 * once, in however many groups they came). The BSYNC that joins both sides of a branch
 * may carry either side's line: it is left out. */
static int line_total(const ws_result *r, int line, uint64_t lanes)
{
    int seen = 0;
    for (int i = 0; i < r->ninsts; i++) {
        const ws_inst_stat *in = &r->insts[i];
        if (in->line != line || in->issued == 0 || !strncmp(in->text, "BSYNC", 5))
            continue;
        seen = 1;
        if (in->active_threads != lanes) {
            fprintf(stderr, "  line %d %s: %llu lanes in all, want %llu\n", line, in->text,
                    (unsigned long long)in->active_threads, (unsigned long long)lanes);
            return 0;
        }
    }
    return seen;
}

static int run(st_run *r, const char *spec, const char *variant)
{
    return st_exec_on(r, ptx, sass, spec, variant, NULL);
}

static int work(const int *in, int n)
{
    int acc = 0;
    for (int i = 0; i < n; i++)
        acc = (int)((unsigned)acc * 3u + (unsigned)in[i]);
    return acc;
}

static const char spec[] =
    "workload cbar\nsource cbar.cu\n"
    "buffer in i32 64 uniform_int -20 1100\nbuffer neg i32 64 uniform_int -3 20\n"
    "buffer out i32 64 zero\n"
    "variant ifelse\n  kernel ifelse\n  grid 1\n  block 32\n  args in out\n"
    "variant loop_break\n  kernel loop_break\n  grid 1\n  block 32\n  args neg out\n"
    "variant early_exit\n  kernel early_exit\n  grid 1\n  block 32\n  args in out\n"
    "variant half_syncwarp\n  kernel half_syncwarp\n  grid 1\n  block 64\n  args in out\n"
    "variant reduce_groups\n  kernel reduce_groups\n  grid 1\n  block 32\n  args in out\n"
    "buffer cas i32 33 zero\n"
    "variant nested_cas\n  kernel nested_cas\n  grid 1\n  block 32\n  args in cas\n"
    "buffer pin u32 96 random_bits\nbuffer pout u32 192 zero\n"
    "variant pred_break\n  kernel pred_break\n  grid 6\n  block 32\n  args pin pout\n"
    "variant yield_converged\n  kernel yield_converged\n  grid 1\n  block 32\n  args in out\n"
    "variant shared_fadd\n  kernel shared_fadd\n  grid 1\n  block 128\n  args in out\n"
    "variant tile_vote\n  kernel tile_vote\n  grid 1\n  block 32\n  args in out\n";

static void test_ifelse(void)
{
    st_run r;
    if (run(&r, spec, "ifelse") == 0) {
        const int *in = st_buf(&r, "in")->data, *out = st_buf(&r, "out")->data;
        int ok = 1;
        for (int l = 0; l < 32; l++)
            ok &= out[l] == ((l < 8 ? work(in, l + 1) + 1 : work(in + 8, l) - 1) ^ l);
        CHECK(ok, "if/else outputs");
        const char *cu = "cbar.cu";
        /* the callee's last loop has no BSYNC after it: lanes return from it in groups and
         * meet again only at the if/else's BSYNC */
        CHECK(line_total(&r.res, st_cu_line(cu, "// THEN"), 8), "the then-side runs its 8 lanes");
        CHECK(line_total(&r.res, st_cu_line(cu, "// ELSE"), 24), "the else-side runs its 24 lanes");
        CHECK(line_lanes(&r.res, st_cu_line(cu, "// JOIN"), 32), "lanes join at BSYNC: 32 lanes after");
        CHECK(st_metric(&r, "sim__divergent_branches") >= 1, "the branch diverged");
    }
    st_free(&r);
}

static void test_loop_break(void)
{
    st_run r;
    if (run(&r, spec, "loop_break") == 0) {
        const int *neg = st_buf(&r, "neg")->data, *out = st_buf(&r, "out")->data;
        int ok = 1;
        for (int l = 0; l < 32; l++) {
            int acc = 0;
            for (int i = 0; i < 64; i++) {
                int v = neg[(l + i) & 63];
                if (v < 0 && i > l)
                    break;
                acc += v;
            }
            ok &= out[l] == acc;
        }
        CHECK(ok, "loop with break: outputs");
        const char *cu = "cbar.cu";
        line_sum body = sum_line(&r.res, st_cu_line(cu, "// BODY"), NULL);
        CHECK(body.issued > 0 && body.active < 32 * body.issued, "lanes leave the loop at different trips");
        CHECK(line_lanes(&r.res, st_cu_line(cu, "// AFTER_LOOP"), 32), "all lanes join after the loop");
    }
    st_free(&r);
}

static void test_early_exit(void)
{
    st_run r;
    if (run(&r, spec, "early_exit") == 0) {
        const int *in = st_buf(&r, "in")->data, *out = st_buf(&r, "out")->data;
        int stay = 0, ok = 1;
        for (int l = 0; l < 32; l++) {
            if (in[l] > 1000)
                ok &= out[l] == 0;
            else
                ok &= out[l] == work(in, l & 7) + l, stay++;
        }
        CHECK(ok, "early exit: outputs");
        CHECK(stay > 0 && stay < 32, "the input makes some lanes exit (%d stay)", stay);
        CHECK(line_total(&r.res, st_cu_line("cbar.cu", "// AFTER_EXIT"), (uint64_t)stay),
              "exited lanes hold nothing back: %d lanes after", stay);
    }
    st_free(&r);
}

static void test_half_syncwarp(void)
{
    st_run r;
    if (run(&r, spec, "half_syncwarp") == 0) {
        const int *in = st_buf(&r, "in")->data, *out = st_buf(&r, "out")->data;
        int s[64], ok = 1;
        for (int t = 0; t < 64; t++)
            s[t] = in[t] + ((t & 31) < 16 ? work(in, t & 3) : 0);
        for (int t = 0; t < 64; t++) {
            int lane = t & 31;
            ok &= out[t] == (lane < 16 ? s[(t & ~15) | ((lane + 1) & 15)] : -lane);
        }
        CHECK(ok, "__syncwarp(0xffff): outputs");
        CHECK(line_lanes(&r.res, st_cu_line("cbar.cu", "// AFTER_SYNC"), 16),
              "__syncwarp(0xffff) waits for the 16 lanes it names only");
    }
    st_free(&r);
}

static void test_reduce_groups(void)
{
    st_run r;
    if (run(&r, spec, "reduce_groups") == 0) {
        const int *in = st_buf(&r, "in")->data, *out = st_buf(&r, "out")->data;
        int count[4] = {0, 0, 0, 0}, groups = 0, ok = 1;
        for (int l = 0; l < 32; l++)
            count[in[l] & 3]++;
        for (int k = 0; k < 4; k++)
            groups += count[k] > 0;
        for (int l = 0; l < 32; l++)
            ok &= out[l] == count[in[l] & 3] * 10 + (in[l] & 3);
        CHECK(ok, "__reduce_add_sync per __match_any_sync group: outputs");
        line_sum red = sum_line(&r.res, st_cu_line("cbar.cu", "// REDUCE"), "REDUX");
        CHECK(red.rows >= 1 && red.issued == (uint64_t)groups && red.active == 32,
              "WARPSYNC.EXCLUSIVE: REDUX once per group (%llu issues for %d groups, %llu lanes)",
              (unsigned long long)red.issued, groups, (unsigned long long)red.active);
    }
    st_free(&r);
}

/* Lanes that passed a BSYNC (out of a YIELD loop, the others still spinning) are no longer
 * pending on its barrier: the kernel ends, every lane's CAS counted (0+1+2+3 per quad). */
static void test_nested_cas(void)
{
    st_run r;
    CHECK(run(&r, spec, "nested_cas") == 0, "nested CAS loops finish: %s", r.err.msg);
    if (!r.rc) {
        const int *out = st_buf(&r, "cas")->data;
        int ok = out[32] == 8 * 6;
        for (int l = 0; l < 32; l++)
            ok &= out[l] == l;
        CHECK(ok, "nested CAS loops: total %d (want 48) and every lane's word", out[32]);
    }
    st_free(&r);
}

/* A YIELD that the whole warp runs (a CAS loop every lane leaves at once) keeps the outer
 * if's barrier: the two sides of the split after it join at its BSYNC, and the store after
 * it issues once with 32 lanes, as the H200 runs fz740012. */
static void test_yield_converged(void)
{
    st_run r;
    CHECK(run(&r, spec, "yield_converged") == 0, "yield_converged runs: %s", r.err.msg);
    if (!r.rc) {
        const int *in = st_buf(&r, "in")->data, *out = st_buf(&r, "out")->data;
        int bad = 0;
        for (int l = 0; l < 32; l++) {
            int v = in[l];
            if (in[32] != 12345) {
                if (v & 1)
                    for (int i = 0; i < (v & 7); i++)
                        v = (int)((unsigned)v * 3u + (unsigned)i);
                else
                    v += 7;
            } else {
                v = -v;
            }
            bad += out[l] != v || out[32 + l] != in[l];
        }
        CHECK(bad == 0, "yield_converged: %d of 32 lanes' results differ from the CPU's", bad);
        line_sum join = sum_line(&r.res, st_cu_line("cbar.cu", "// YJOIN"), "STG");
        CHECK(join.issued == 1 && join.active == 32,
              "the lanes join at the outer BSYNC after a converged YIELD: the store issued %llu "
              "times for %llu lanes (want once, 32)", (unsigned long long)join.issued,
              (unsigned long long)join.active);
    }
    st_free(&r);
}

/* A float atomicAdd on one shared word by a CTA of four warps (a CAS loop after ptxas):
 * a shared-memory atomic whose result the warp reads begins the warp's next turn, so every
 * warp reads the word before any swaps it. Each round then one lane of the CTA succeeds
 * (the first warp's first lane still waiting), and the warp that holds it keeps winning
 * until its lanes are done: warp k's loop runs 32 (k + 1) times, 320 in all. Without the
 * rule (turns of 16 instructions, the swap inside a turn) the warps meet far less: 148. */
static void test_shared_fadd(void)
{
    st_run r;
    CHECK(run(&r, spec, "shared_fadd") == 0, "shared_fadd runs: %s", r.err.msg);
    if (!r.rc) {
        const int *in = st_buf(&r, "in")->data, *out = st_buf(&r, "out")->data;
        int want = 0;
        for (int t = 0; t < 128; t++)
            want += 1 + (in[t & 63] & 15);
        CHECK(out[0] == want, "shared_fadd: sum %d, want %d", out[0], want);
        line_sum cas = sum_line(&r.res, st_cu_line("cbar.cu", "// SFADD"), "ATOMS");
        CHECK(cas.issued == 320,
              "the CTA's warps contend at the shared atomic: it issued %llu times for %llu "
              "lanes (want 320 issues)", (unsigned long long)cas.issued,
              (unsigned long long)cas.active);
    }
    st_free(&r);
}

/* `@!P0 BREAK P4, B1`: the loop's results against the CPU in CTAs with and without bit 2
 * of blockIdx.x (which ptxas turns into the two-predicate BREAK/BRA pair). */
static void test_pred_break(void)
{
    st_run r;
    CHECK(run(&r, spec, "pred_break") == 0, "BREAK P, B runs: %s", r.err.msg);
    if (!r.rc) {
        const uint32_t *in = st_buf(&r, "pin")->data, *out = st_buf(&r, "pout")->data;
        int bad = 0;
        for (uint32_t bx = 0; bx < 6; bx++)
            for (uint32_t tid = 0; tid < 32; tid++) {
                uint32_t b = in[tid], rr = 0, t = 0, n = in[tid + 32] & 7u;
                while (n-- > 0u) {
                    if (bx & 4u)
                        rr = b;
                    if (b <= in[tid + 64])
                        t += 0x7fffffffu;
                }
                bad += out[bx * 32 + tid] != rr + t;
            }
        CHECK(bad == 0, "BREAK P, B: %d of 192 results differ from the CPU's", bad);
    }
    st_free(&r);
}

/* A sum, a shuffle and votes in cooperative groups' 8-lane tiles, whose masks differ from
 * tile to tile: the guarded BRA.DIV sends the whole warp to the slow path, and
 * WARPSYNC.COLLECTIVE runs each vote once per tile with that tile's lanes alone (the H200's
 * counts and outputs, unseen17 cg_tiles): each lane sees its own tile's votes. */
/* The outputs every lane of tile_vote must hold: its tile's sum, and its tile's votes. */
static int tile_vote_bad(const int *in, const int *out)
{
    int bad = 0;
    for (int l = 0; l < 32; l++) {
        int base = l & ~7, b = 0, sum = 0, any = 0, all = 1;
        for (int k = 0; k < 8; k++) {
            int x = in[base + k];
            b |= (x & 1) << k;
            sum += x;
            any |= x > 900;
            all &= x > 100;
        }
        bad += out[l] != sum * 16 + (any | all << 1 | b << 2); /* ballot shifted to the tile */
    }
    return bad;
}

static void test_tile_vote(void)
{
    st_run r;
    CHECK(run(&r, spec, "tile_vote") == 0, "tile_vote runs: %s", r.err.msg);
    if (!r.rc) {
        int bad = tile_vote_bad(st_buf(&r, "in")->data, st_buf(&r, "out")->data);
        CHECK(bad == 0, "tile sum, shuffle and votes: %d of 32 lanes differ", bad);
        line_sum v = sum_line(&r.res, st_cu_line("cbar.cu", "// TILE_VOTE"), "VOTE");
        CHECK(v.rows >= 3 && v.issued == 4 * (uint64_t)v.rows && v.active == 32 * (uint64_t)v.rows,
              "WARPSYNC.COLLECTIVE: each VOTE once per tile (%d rows, %llu issues, %llu lanes)",
              v.rows, (unsigned long long)v.issued, (unsigned long long)v.active);
    }
    st_free(&r);
    /* the PTX model: vote.sync over each lane's own member mask */
    CHECK(st_exec(&r, ptx, spec, "tile_vote", NULL) == 0, "tile_vote runs on PTX: %s", r.err.msg);
    if (!r.rc) {
        int bad = tile_vote_bad(st_buf(&r, "in")->data, st_buf(&r, "out")->data);
        CHECK(bad == 0, "PTX model: tile sum, shuffle and votes: %d of 32 lanes differ", bad);
    }
    st_free(&r);
}

int main(void)
{
    char ptx_path[512], cubin[1024], sass_path[1024], probe[1024];
    snprintf(ptx_path, sizeof ptx_path, "%s/cbar.ptx", WS_SIM_PTX_DIR);
    if (!ws_nvdisasm_find(probe, sizeof probe)) {
        printf("test_sass_cbar: skipped: no nvdisasm (%s)\n", probe);
        return 0;
    }
    ws_error err;
    ws_error_clear(&err);
    ptx = st_load("cbar");
    CHECK(ptx != NULL, "cbar.ptx loads");
    int rc = ptx ? ws_sass_build_ptx(ptx_path, NULL, NULL, cubin, sass_path, sizeof cubin, &err) : 1;
    if (!rc)
        rc = ws_sass_load(sass_path, cubin, &sass, &err);
    if (rc) {
        char buf[800];
        ws_error_format(&err, buf, sizeof buf);
        fprintf(stderr, "cannot build the SASS of cbar: %s\n", buf);
    }
    CHECK(rc == 0, "cbar's SASS builds and loads");
    if (!rc) {
        test_ifelse();
        test_loop_break();
        test_early_exit();
        test_half_syncwarp();
        test_reduce_groups();
        test_nested_cas();
        test_pred_break();
        test_shared_fadd();
        test_yield_converged();
        test_tile_vote();
    }
    if (sass)
        ws_sass_module_free(sass);
    if (ptx)
        ws_module_free(ptx);
    return ws_test_finish("test_sass_cbar");
}
