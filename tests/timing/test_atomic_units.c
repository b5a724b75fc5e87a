/* test_atomic_units.c — the timing model's L2 atomic units on real PTX runs of bench/calib's
 * atomic kernels, with the tests' preset (mech.gpu) given the H100's measured layout (256-byte
 * chunks, a 1 KB block's chunks alternating over two units) and fixed costs:
 *   which unit serves an address (ws_atomic_unit);
 *   a request costs its busiest unit part_cycles plus one pass per sector, a sector as many
 *     passes as the most lanes on one of its words, or a pass and its busiest word's chain of
 *     further float adds where that is longer (docs/results/atomic-probe-h100.txt);
 *   shared atomics take a wavefront per distinct word of the busiest bank, and one per
 *     further lane on a word;
 *   a word's lanes chain across requests (float adds wait for the word's last result);
 *   a register a RED reads is rewritten only once the memory pipe has read it;
 *   a CAS success costs the contended cycles at its contender count, between the measured
 *     counts by the logarithm, and the GPU serves so many swaps a cycle;
 *   a spin lock's acquisition costs a hand-off plus a share per spinning thread, words of one
 *     sector at once, sectors of one unit in turn, by the keys of a critical section with a
 *     fence or without one. */
#include <stdio.h>
#include <stdlib.h>
#include "sim/timing_internal.h"
#include "tests/check.h"
#include "tests/timing/timing_run.h"

#define CALIB WS_SOURCE_DIR "/bench/calib/calib.spec"

static double metric(const char *preset, const char *variant, const char *const *defs,
                     const char *name)
{
    ws_result r;
    ws_error err;
    ws_error_clear(&err);
    if (ws_tr_run_on(CALIB, defs, variant, preset, &r, &err)) {
        fprintf(stderr, "%s: %s\n", variant, err.msg);
        ws_result_free(&r);
        return NAN;
    }
    double v = ws_tr_metric(&r, name);
    ws_result_free(&r);
    return v;
}

int main(void)
{
    static const char *const layout[] = {
        "atom.l2_unit_bytes", "256", "atom.l2_unit_ways", "2", "atom.l2_unit_block_bytes", "1024",
        "atom.l2_part_cycles", "0.5", "atom.l2_same_cycles", "2", "atom.l2_same_fp_cycles", "5",
        "atom.cas_contended_cycles", "2000", "atom.cas_contended_256", "1000",
        "atom.cas_contended_1024", "500", "atom.cas_contended_4096", "250",
        "atom.cas_attempt_cycles", "0.001", "atom.cas_successes_per_cycle", "1", NULL };
    char path[WS_PATH_MAX];
    const char *preset = ws_tr_preset_edit(layout, "atomic-units", path, sizeof path);
    CHECK(preset != NULL, "writing the edited preset");
    if (!preset) return ws_test_finish("timing/atomic_units");

    ws_gpu_preset p;
    ws_error err;
    ws_error_clear(&err);
    CHECK(ws_gpu_preset_load(preset, &p, &err) == 0, "the edited preset loads (%s)", err.msg);
    CHECK(ws_atomic_unit(&p, 0) == ws_atomic_unit(&p, 255), "one chunk, one unit");
    CHECK(ws_atomic_unit(&p, 0) != ws_atomic_unit(&p, 256), "a block's next chunk: the other unit");
    CHECK(ws_atomic_unit(&p, 0) == ws_atomic_unit(&p, 512), "chunks 0 and 2 of a block share one");
    CHECK(ws_atomic_unit(&p, 256) == ws_atomic_unit(&p, 768), "chunks 1 and 3 share the other");
    CHECK(ws_atomic_unit(&p, 0) != ws_atomic_unit(&p, 1024) &&
          ws_atomic_unit(&p, 256) != ws_atomic_unit(&p, 1024 + 256), "the next block: units of its own");

    /* One warp, 16 requests of 32 lanes each: the busiest unit's service over the launch. */
    /* (word: the most lanes on one word; a float word's chain, 5 cycles a lane across the
     * requests, outlasts its unit from 4 lanes a word on) */
    static const struct { const char *what, *defs[8]; double passes; const char *variant; int word; } cases[] = {
        { "32 lanes on one word", { "SPREAD=0", "LANES=32", NULL }, 32, NULL, 32 },
        /* floats: a word's lanes chain at 5 cycles, while passes over other sectors go on */
        { "float: 32 lanes on one word (a pass, 31 chained at 5)", { "SPREAD=0", "LANES=32", NULL }, 78.5, "atomic_float", 32 },
        { "float: 4 words of one sector, 8 lanes each", { "SPREAD=5", "GROUPS=4", "STRIDE=1", NULL }, 18.5, "atomic_float", 8 },
        { "float: 8 words of one sector, 4 lanes each", { "SPREAD=5", "GROUPS=8", "STRIDE=1", NULL }, 8.5, "atomic_float", 4 },
        { "float: 16 words in 2 sectors, 2 lanes each", { "SPREAD=5", "GROUPS=16", "STRIDE=1", NULL }, 4, "atomic_float", 2 },
        { "float: 32 words of one line", { "SPREAD=1", NULL }, 4, "atomic_float", 1 },
        { "32 words of one line (4 sectors)", { "SPREAD=1", NULL }, 4, NULL, 1 },
        { "4 words of one sector, 8 lanes each", { "SPREAD=5", "GROUPS=4", "STRIDE=1", NULL }, 8, NULL, 8 },
        { "4 words in 4 sectors of a line, 8 lanes each", { "SPREAD=5", "GROUPS=4", "STRIDE=8", NULL }, 32, NULL, 8 },
        { "2 words of one sector, 16 lanes each", { "SPREAD=5", "GROUPS=2", "STRIDE=1", NULL }, 16, NULL, 16 },
        { "32 words 8 bytes apart (256 B: 8 sectors, one unit)", { "SPREAD=3", "STRIDE=2", NULL }, 8, NULL, 1 },
        { "32 words 16 bytes apart (512 B: two units)", { "SPREAD=3", "STRIDE=4", NULL }, 8, NULL, 1 },
        { "32 sectors in 2 KB (four units)", { "SPREAD=3", "STRIDE=16", NULL }, 8, NULL, 1 },
        /* (1 KB spans two units or four, by where the buffer starts in its block: left out) */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *defs[12];
        int n = 0;
        defs[n++] = "CTAS=1";
        defs[n++] = "THREADS=32";
        defs[n++] = "REPS=16";
        for (int k = 0; cases[i].defs[k]; k++) defs[n++] = cases[i].defs[k];
        defs[n] = NULL;
        double got = metric(preset, cases[i].variant ? cases[i].variant : "atomic_int", defs,
                            "sim__bound_atomic_address_cycles");
        double want = 16 * (0.5 + cases[i].passes * 2); /* + a millionth: atom.l2_units */
        double word = 16.0 * cases[i].word * (cases[i].variant ? 5 : 2);
        if (word > want) want = word;
        printf("%-52s %7.1f cycles (want %.1f: %g passes a request)\n", cases[i].what, got, want,
               cases[i].passes);
        CHECK(fabs(got - want) <= 1e-5 * want, "%s: %g vs %g", cases[i].what, got, want);
    }

    /* A word's results come one after another across requests too: one lane a warp on one
     * word, 4 warps x 16 requests. A float add waits 5 cycles for the word's last result, so
     * the word (64 x 5) outlasts its unit (64 x (0.5 + 2)); an integer add's chain (64 x 2)
     * does not. */
    static const struct { const char *variant; double want; } chain[] = {
        { "atomic_float", 64 * 5.0 }, { "atomic_int", 64 * 2.5 } };
    for (size_t i = 0; i < 2; i++) {
        const char *defs[] = { "CTAS=1", "THREADS=128", "REPS=16", "SPREAD=0", "LANES=1", NULL };
        double got = metric(preset, chain[i].variant, defs, "sim__bound_atomic_address_cycles");
        printf("%s, one lane a warp on one word: %6.1f cycles (want %.1f)\n", chain[i].variant,
               got, chain[i].want);
        CHECK(fabs(got - chain[i].want) <= 1e-5 * chain[i].want, "%s across requests: %g vs %g",
              chain[i].variant, got, chain[i].want);
    }

    /* Shared atomics: a wavefront per distinct word of the busiest bank, one more per
     * further lane on a word (the PTX model does not see ptxas merge an increment's lanes
     * into ATOMS.POPC.INC); 16 more requests of one warp. */
    static const struct { const char *what, *defs[4]; double passes; } sh[] = {
        { "shared: a word a bank", { "SPREAD=1", NULL }, 1 },
        { "shared: 32 words of one bank", { "SPREAD=3", "STRIDE=32", NULL }, 32 },
        { "shared: 16 words in each of 2 banks", { "SPREAD=3", "STRIDE=16", NULL }, 16 },
        { "shared: 32 lanes on one word", { "SPREAD=0", NULL }, 32 },
    };
    for (size_t i = 0; i < sizeof sh / sizeof sh[0]; i++) {
        double lsu[2];
        for (int k = 0; k < 2; k++) {
            const char *defs[8];
            int n = 0;
            defs[n++] = "CTAS=1";
            defs[n++] = "THREADS=32";
            defs[n++] = k ? "REPS=32" : "REPS=16";
            for (int j = 0; sh[i].defs[j]; j++) defs[n++] = sh[i].defs[j];
            defs[n] = NULL;
            lsu[k] = metric(preset, "shared_atomics", defs, "sim__bound_lsu_cycles");
        }
        double got = lsu[1] - lsu[0], want = 16 * sh[i].passes;
        printf("%-52s %7.1f wavefronts (want %.1f)\n", sh[i].what, got, want);
        CHECK(fabs(got - want) < 1e-6, "%s: %g vs %g", sh[i].what, got, want);
    }

    /* CAS: the successes on one word times the contended cycles at the contender count. */
    static const struct { const char *ctas; double threads, each; } cas[] = {
        { "CTAS=1", 256, 1000 },   /* measured count */
        { "CTAS=2", 512, 750 },    /* between 256 and 1024 by log2: half way */
        { "CTAS=16", 4096, 250 },
    };
    for (size_t i = 0; i < sizeof cas / sizeof cas[0]; i++) {
        const char *defs[] = { cas[i].ctas, "THREADS=256", "REPS=1", NULL };
        double got = metric(preset, "cas_loop", defs, "sim__bound_atomic_cas_cycles");
        double want = cas[i].threads * cas[i].each;
        printf("cas_loop, %5.0f threads: %9.0f cycles (want %.0f)\n", cas[i].threads, got, want);
        CHECK(fabs(got - want) <= 1e-6 * want, "%g contenders: %g vs %g", cas[i].threads, got, want);
    }

    /* A memory instruction reads its registers after it issues (mem.src_read_cycles): the
     * add that rewrites a RED's data register waits for that read, every trip of red_war. */
    {
        static const char *const slow_read[] = { "mem.src_read_cycles", "100", NULL };
        char rpath[WS_PATH_MAX];
        const char *rp = ws_tr_preset_edit(slow_read, "atomic-units-src-read", rpath, sizeof rpath);
        CHECK(rp != NULL, "writing the src-read preset");
        const char *a[] = { "REPS=64", NULL }, *b[] = { "REPS=128", NULL };
        double fast = (metric(preset, "red_war", b, "sim__cycles") -
                       metric(preset, "red_war", a, "sim__cycles")) / 64;
        double slow = rp ? (metric(rp, "red_war", b, "sim__cycles") -
                            metric(rp, "red_war", a, "sim__cycles")) / 64 : NAN;
        printf("red_war: %.1f cycles a trip, %.1f when a RED reads its registers 100 cycles late\n",
               fast, slow);
        CHECK(fast < 100 && slow >= 100, "the rewrite waits for the RED's read (%g, %g)", fast, slow);
    }

    /* CAS that swap pay the GPU's success rate (atom.cas_successes_per_cycle, 1 here): random
     * words of a million, nobody contends, 65536 lanes, every one a success. More words than
     * the address table holds (49152): those it has no room for count too. */
    {
        const char *defs[] = { "CTAS=8", "THREADS=256", "REPS=32", "BINS=1048576", NULL };
        double got = metric(preset, "cas_random", defs, "sim__bound_atomic_cas_cycles");
        double addrs = metric(preset, "cas_random", defs, "sim__atomic_addresses");
        printf("cas_random, 65536 lanes on %.0f words: %8.0f cycles (want 65536)\n", addrs, got);
        CHECK(addrs > 49152, "the launch overflows the address table (%g words)", addrs);
        CHECK(fabs(got - 65536) <= 1e-6 * 65536, "CAS successes: %g cycles vs 65536", got);
    }
    /* Spin locks (bench/calib spin_lock_fence: atomicCAS takes the word, atomicExch gives it
     * back): each acquisition costs atom.lock_hold_cycles + atom.lock_contender_cycles x the
     * threads spinning on its word, one after another; words of one sector hand off in the
     * same passes, sectors of one unit one after another. 256 threads, one acquisition each.
     * (A CAS increment loop has no release and keeps the contended cost above: cas_loop.) */
    {
        const char *lock_keys[64];
        int nk = 0;
        for (int k = 0; layout[k] && nk < 58; k++) lock_keys[nk++] = layout[k];
        lock_keys[nk++] = "atom.lock_contender_cycles";
        lock_keys[nk++] = "40";
        lock_keys[nk++] = "atom.lock_hold_cycles";
        lock_keys[nk++] = "100";
        lock_keys[nk++] = "atom.lock_nofence_contender_cycles";
        lock_keys[nk++] = "50";
        lock_keys[nk++] = "atom.lock_nofence_hold_cycles";
        lock_keys[nk++] = "20";
        lock_keys[nk] = NULL;
        char lpath[WS_PATH_MAX];
        const char *lp = ws_tr_preset_edit(lock_keys, "atomic-units-lock", lpath, sizeof lpath);
        CHECK(lp != NULL, "writing the lock preset");
        static const struct { const char *what, *locks, *stride; double want; } lk[] = {
            /* one word: 256 acquisitions x (100 + 40 x 256) */
            { "one lock, 256 spinners", "LOCKS=1", "STRIDE=32", 256 * (100 + 40 * 256.0) },
            /* four words 128 bytes apart: 64 spinners and 64 acquisitions each; words 0 and 1
               share a unit (a 256-byte chunk), 2 and 3 the other: two sectors in turn */
            { "four locks, two sectors a unit", "LOCKS=4", "STRIDE=32", 2 * 64 * (100 + 40 * 64.0) },
            /* four words of one sector: their hand-offs overlap */
            { "four locks in one sector", "LOCKS=4", "STRIDE=1", 64 * (100 + 40 * 64.0) },
        };
        for (size_t i = 0; lp && i < sizeof lk / sizeof lk[0]; i++) {
            const char *defs[] = { "CTAS=2", "THREADS=128", "REPS=1", lk[i].locks, lk[i].stride, NULL };
            double got = metric(lp, "spin_lock_fence", defs, "sim__bound_atomic_cas_cycles");
            printf("spin_lock_fence, %-30s %9.0f cycles (want %.0f)\n", lk[i].what, got, lk[i].want);
            CHECK(fabs(got - lk[i].want) <= 1e-6 * lk[i].want, "%s: %g vs %g", lk[i].what, got,
                  lk[i].want);
        }
        /* no fence between the swapping CAS and the release (spin_lock): the nofence keys */
        {
            const char *defs[] = { "CTAS=2", "THREADS=128", "REPS=1", "LOCKS=1", NULL };
            double got = lp ? metric(lp, "spin_lock", defs, "sim__bound_atomic_cas_cycles") : NAN;
            double want = 256 * (20 + 50 * 256.0);
            printf("spin_lock, one lock, no fence             %9.0f cycles (want %.0f)\n", got, want);
            CHECK(fabs(got - want) <= 1e-6 * want, "no fence: %g vs %g", got, want);
        }
        /* no release, no lock: cas_loop keeps the contended cost (256 x 1000) */
        const char *defs[] = { "CTAS=1", "THREADS=256", "REPS=1", NULL };
        double got = lp ? metric(lp, "cas_loop", defs, "sim__bound_atomic_cas_cycles") : NAN;
        printf("cas_loop under the lock preset: %9.0f cycles (want 256000)\n", got);
        CHECK(fabs(got - 256000) <= 1e-6 * 256000, "a CAS loop is no lock: %g vs 256000", got);
    }
    return ws_test_finish("timing/atomic_units");
}
