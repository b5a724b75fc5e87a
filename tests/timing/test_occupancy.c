/* test_occupancy.c — the occupancy calculator: seed 004's two worked examples, one case per
 * compute capability where each limit (blocks, warps, registers, shared memory) binds,
 * and every error message a user can see. */
#include <string.h>
#include "sim/sim.h"
#include "tests/check.h"

typedef struct occ_case {
    const char *cc;
    int threads, regs, smem;
    int blocks, warps, threads_sm;
    const char *binding;
} occ_case;

/* Expected values by NVIDIA's CUDA Occupancy Calculator arithmetic (cuda_occupancy.h:
 * warps rounded per block, registers rounded to the allocation unit per warp and split
 * over the SM's register sub-partitions, shared memory rounded to its allocation unit plus
 * the 1 KB per-block reservation on 8.x/9.x) over the per-CC limits of the CUDA C++
 * Programming Guide, "Technical Specifications per Compute Capability":
 *   1.3: 1024 thr, 32 warps, 8 blocks, 16K regs (unit 512 per block, warps by 2), 16 KB smem (512)
 *   2.0: 1536 thr, 48 warps, 8 blocks, 32K regs (unit 64 per warp), 48 KB smem (128)
 *   7.0: 2048/64/32, 64K regs (256/warp), 96 KB smem (256)   7.5: 1024/32/16, 64 KB smem (256)
 *   8.0: 2048/64/32, 164 KB smem (128)   8.6: 1536/48/16, 100 KB   8.9: 1536/48/24, 100 KB
 *   9.0: 2048/64/32, 228 KB smem (128). */
static const occ_case cases[] = {
    /* seed 004, the calculator's own screenshots (CC 2.0 and 1.3, 256 thr, 8 regs, 1 KB) */
    { "2.0",  256,   8,  1024,  6, 48, 1536, "warps" },
    { "1.3",  256,   8,  1024,  4, 32, 1024, "warps" },
    { "1.3",   32,  16,     0,  8,  8,  256, "blocks" },
    { "1.3",  512,   8,     0,  2, 32, 1024, "warps" },
    { "1.3",  256,  32,     0,  2, 16,  512, "registers" },
    { "1.3",   64,   8,  4096,  4,  8,  256, "shared memory" },
    { "2.0",   32,  16,     0,  8,  8,  256, "blocks" },
    { "2.0", 1024,  16,     0,  1, 32, 1024, "warps" },
    { "2.0",  256,  32,     0,  4, 32, 1024, "registers" },
    { "2.0",   64,  16, 12288,  4,  8,  256, "shared memory" },
    { "7.0",   32,  16,     0, 32, 32, 1024, "blocks" },
    { "7.0", 1024,  16,     0,  2, 64, 2048, "warps" },
    { "7.0",  256,  64,     0,  4, 32, 1024, "registers" },
    { "7.0",   64,  16, 32768,  3,  6,  192, "shared memory" },
    { "7.5",   32,  16,     0, 16, 16,  512, "blocks" },
    { "7.5", 1024,  16,     0,  1, 32, 1024, "warps" },
    { "7.5",  256, 128,     0,  2, 16,  512, "registers" },
    { "7.5",   64,  16, 32768,  2,  4,  128, "shared memory" },
    { "8.0",   32,  16,     0, 32, 32, 1024, "blocks" },
    { "8.0", 1024,  16,     0,  2, 64, 2048, "warps" },
    { "8.0",  256,  64,     0,  4, 32, 1024, "registers" },
    { "8.0",   64,  16, 32768,  4,  8,  256, "shared memory" },
    { "8.6",   32,  16,     0, 16, 16,  512, "blocks" },
    { "8.6", 1024,  16,     0,  1, 32, 1024, "warps" },
    { "8.6",  256,  64,     0,  4, 32, 1024, "registers" },
    { "8.6",   64,  16, 32768,  3,  6,  192, "shared memory" },
    { "8.9",   32,  16,     0, 24, 24,  768, "blocks" },
    { "8.9", 1024,  16,     0,  1, 32, 1024, "warps" },
    { "8.9",  256,  64,     0,  4, 32, 1024, "registers" },
    { "8.9",   64,  16, 32768,  3,  6,  192, "shared memory" },
    { "9.0",   32,  16,     0, 32, 32, 1024, "blocks" },
    { "9.0", 1024,  16,     0,  2, 64, 2048, "warps" },
    { "9.0",  256,  64,     0,  4, 32, 1024, "registers" },
    { "9.0",   64,  16, 32768,  6, 12,  384, "shared memory" },
    /* 9.0, 255 registers: 8160 per warp -> 2 warps per sub-partition -> 8 warps per SM */
    { "9.0",  128, 255,     0,  2,  8,  256, "registers" },
};

static void check_cases(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const occ_case *c = &cases[i];
        ws_occupancy o;
        ws_error err;
        ws_error_clear(&err);
        int rc = ws_occupancy_calc(c->cc, c->threads, c->regs, c->smem, &o, &err);
        CHECK(rc == 0, "CC %s %d/%d/%d: %s", c->cc, c->threads, c->regs, c->smem, err.msg);
        if (rc) continue;
        CHECK(o.active_blocks == c->blocks, "CC %s %d/%d/%d: blocks %d, want %d", c->cc,
              c->threads, c->regs, c->smem, o.active_blocks, c->blocks);
        CHECK(o.active_warps == c->warps, "CC %s %d/%d/%d: warps %d, want %d", c->cc,
              c->threads, c->regs, c->smem, o.active_warps, c->warps);
        CHECK(o.active_threads == c->threads_sm, "CC %s: threads %d, want %d", c->cc,
              o.active_threads, c->threads_sm);
        CHECK(!strcmp(ws_occupancy_limit_name(o.binding), c->binding),
              "CC %s %d/%d/%d: binds %s, want %s", c->cc, c->threads, c->regs, c->smem,
              ws_occupancy_limit_name(o.binding), c->binding);
        double want = (double)c->warps / o.max_warps_sm;
        CHECK(o.occupancy > want - 1e-9 && o.occupancy < want + 1e-9, "occupancy %f", o.occupancy);
    }
}

static void expect_error(const char *cc, int threads, int regs, int smem, const char *msg)
{
    ws_occupancy o;
    ws_error err;
    ws_error_clear(&err);
    int rc = ws_occupancy_calc(cc, threads, regs, smem, &o, &err);
    CHECK(rc == WS_ERR_USAGE, "CC %s %d/%d/%d should fail", cc ? cc : "(null)", threads, regs, smem);
    CHECK(strstr(err.msg, msg) != NULL, "message '%s' lacks '%s'", err.msg, msg);
}

int main(void)
{
    check_cases();
    /* Seed 004's CC 2.0 example reaches 100% occupancy. */
    ws_occupancy o;
    ws_error err;
    ws_error_clear(&err);
    CHECK(ws_occupancy_calc("2.0", 256, 8, 1024, &o, &err) == 0 && o.occupancy == 1.0,
          "seed 004 CC 2.0 example: %f", o.occupancy);
    CHECK(ws_occupancy_cc_count() == 8, "8 compute capabilities, got %d", ws_occupancy_cc_count());
    expect_error("6.1", 128, 0, 0, "unknown compute capability '6.1' (known: 1.3, 2.0, 7.0");
    expect_error(NULL, 128, 0, 0, "unknown compute capability ''");
    expect_error("9.0", 0, 0, 0, "threads per block must be 1..1024 on CC 9.0, not 0");
    expect_error("1.3", 1024, 0, 0, "threads per block must be 1..512 on CC 1.3, not 1024");
    expect_error("2.0", 128, 64, 0, "registers per thread must be 0..63 on CC 2.0, not 64");
    expect_error("9.0", 128, -1, 0, "registers per thread must be 0..255");
    expect_error("8.6", 128, 0, 101377, "shared memory per block must be 0..101376 bytes on CC 8.6");
    return ws_test_finish("timing/occupancy");
}
