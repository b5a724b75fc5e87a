/* timing_internal.h — private to the timing model (timing*.c): the GPU preset (parameters
 * read from sim/presets/NAME.gpu; no GPU numbers live in code) and latency classes.
 * Tests include it to check preset parsing; nothing outside sim/ and tests/ does. */
#ifndef WS_SIM_TIMING_INTERNAL_H
#define WS_SIM_TIMING_INTERNAL_H

#include "sim/ir.h"

/* Latency classes (ws_lat, WS_LAT_LIST) are declared in ir.h beside the opcode rows. */
const char *ws_lat_name(ws_lat l);
ws_lat ws_lat_of(const ws_inst *in); /* the def's class, refined by the operand type */

#define WS_WINDOW_MAX 32 /* the largest sched.window */

#define WS_PRESET_MAX_KEYS 104   /* room for every key's source (a static check in the .c) */
#define WS_PRESET_SOURCE_MAX 240

/* One GPU, as the preset file describes it. Every field is required in the file; a
 * `source KEY TEXT` line says where KEY's number came from (a bench/ microbenchmark, a
 * datasheet, or the workload it was fitted to). */
typedef struct ws_gpu_preset {
    char path[512];
    char source[WS_PRESET_MAX_KEYS][WS_PRESET_SOURCE_MAX]; /* per key, "" = none given */
    char name[128];
    char cc[8];
    char model[8];                   /* the front end its keys were fitted on: "sass" or "ptx" */
    double sms, schedulers_per_sm, issue_per_scheduler, clock_mhz;
    double launch_overhead_ns, cta_launch_cycles;
    double sched_window;             /* instructions a warp may issue past a stalled one (1..32) */
    double sched_ifconvert_max;      /* longest branch body the compiler predicates instead */
    double branch_reconverge_cycles; /* a warp's wait at the join of a branch that may diverge */
    double branch_yield_cycles;      /* a spin loop's YIELD, each trip */
    double branch_call_cycles;       /* a SASS CALL or RET, each */
    double bound_overlap;            /* how far the bounds overlap: the exponent k of the norm
                                      * that joins them (timing_finish.c); 0 = completely */
    double latency[WS_LAT__COUNT];   /* dependent-issue latency, cycles */
    double issue[WS_LAT__COUNT];     /* cycles a warp-instruction holds its scheduler's pipe */
    double shared_latency, l1_latency, l2_latency, dram_latency;
    double mem_src_read_cycles;      /* a memory instruction reads its registers so late */
    double sector_bytes, line_bytes, shared_banks, shared_bank_bytes;
    double lsu_wavefronts_per_cycle; /* per SM: shared/L1 data path */
    double const_address_cycles; /* a constant load: each further distinct address */
    double l1_line_cycles;       /* a global or local load: each further line it touches */
    double l1_bytes, l2_bytes;       /* capacities */
    double l2_gbps, dram_gbps;       /* bandwidths, GB/s */
    double l2_write_beats_per_cycle; /* stores: 64-byte beats the L2's input takes a cycle */
    double atom_l2_latency;          /* global atomic round trip, cycles */
    double atom_l2_unit_bytes;       /* the chunk of addresses the L2 hands to one atomic unit */
    double atom_l2_unit_ways;        /* a block's chunks alternate over this many units */
    double atom_l2_unit_block_bytes; /* blocks of this size go to units of their own */
    double atom_l2_units;            /* units' worth of service the L2 gives at once, GPU-wide */
    double atom_l2_part_cycles;      /* a unit's service of one request's part in its range */
    double atom_l2_same_cycles;      /* plus this per pass over a sector of that part: one per
                                      * sector, and one more per further lane on a word of it */
    double atom_l2_same_fp_cycles;   /* the same for floating-point adds */
    double atom_l2_ops_per_cycle;    /* whole-GPU atomic throughput (distinct address-ops) */
    double atom_l2_requests_per_cycle;/* whole-GPU atomic warp-requests, however few their lanes */
    double atom_l2_line_ops_per_cycle;/* whole-GPU atomic (request, 128-byte line) pairs */
    double atom_cas_contended_cycles;/* one successful CAS on a word a warp's 32 lanes contend for */
    double atom_cas_contended_256;   /* the same with 256, 1024 and 4096 threads contending */
    double atom_cas_contended_1024;
    double atom_cas_contended_4096;
    double atom_cas_attempt_cycles;  /* one CAS attempt at its word's unit (failed ones too) */
    double l2_far_cycles;            /* an L2 line's round trip from the SMs it is far from, over
                                        the near ones' (the timed order) */
    double atom_cas_lane_cycles;     /* a lane's CAS attempt at its word, measured (the timed order) */
    double atom_cas_unit_bytes;      /* the address range whose CAS attempts queue together */
    double atom_cas_attempts_per_cycle; /* CAS attempts the whole GPU serves a cycle */
    double atom_cas_successes_per_cycle; /* CAS that swap (a write): the GPU's rate */
    double atom_cas64_scale;         /* a 64-bit CAS's contended cost over a 32-bit one's */
    double atom_lock_contender_cycles; /* a spin lock's hand-off: cycles per thread spinning on it */
    double atom_lock_hold_cycles;    /* and the cycles of a hand-off beyond those */
    double atom_lock_nofence_contender_cycles; /* the same where no fence precedes the release */
    double atom_lock_nofence_hold_cycles;
    double atom_shared_lane_cycles;  /* extra per additional lane on one shared address */
    double warp_group_cycles;        /* each further member-mask group a warp-wide op serializes */
    double warp_group_issue;         /* and the issue cycles each further group takes */
    double printf_call_cycles;       /* a warp's device printf call, one lane, before its format */
    double printf_format_char_cycles;/* and per character of the format */
    double printf_lane_cycles;       /* and per further lane that prints */
    double printf_serial_cycles;     /* whole GPU: the calls one after another, each call */
    double printf_serial_lane_cycles;/* and each further lane of a call */
} ws_gpu_preset;

/* name: "h100" (looked up in $WARPSCOPE_PRESETS, the source tree's sim/presets, and
 * presets/ beside the executable) or a path to a .gpu file. Errors name file:line. */
int ws_gpu_preset_load(const char *name, ws_gpu_preset *p, ws_error *err);
int ws_gpu_preset_parse(const char *text, const char *path, ws_gpu_preset *p, ws_error *err);
/* Where `key`'s number came from (its `source` line), "" when none, NULL for no such key. */
const char *ws_gpu_preset_source(const ws_gpu_preset *p, const char *key);
/* How many numeric keys have no source; their names, comma-separated, into `names`. */
int ws_gpu_preset_unsourced(const ws_gpu_preset *p, char *names, size_t n);

/* ---- timing_mem.c: what one memory warp-instruction costs */

/* Distinct values among up to WS_MEMSET_MAX, with a count each. */
#define WS_MEMSET_MAX 128
typedef struct ws_memset {
    int n;
    uint64_t key[WS_MEMSET_MAX];
    uint32_t count[WS_MEMSET_MAX];
} ws_memset;
void ws_memset_add(ws_memset *s, uint64_t key);

/* Global/local accesses: distinct sectors and lines touched by the lanes in `mask`. */
void ws_mem_sectors(const uint64_t *addr, uint32_t mask, int bytes, int sector_bytes,
                    ws_memset *sectors, int *lines, int line_bytes);
/* Shared accesses: wavefronts = the most distinct words any one bank must serve. */
/* Write requests to the L2 of a store: one for every 4 lines; 16-byte lanes in fours of 8.
 * The strided form: each lane's 4-byte words `word_stride` bytes apart (0: side by side). */
int ws_mem_write_requests(const uint64_t *addr, uint32_t mask, int bytes, int line_bytes);
int ws_mem_write_requests_strided(const uint64_t *addr, uint32_t mask, int bytes,
                                  int line_bytes, int word_stride);
/* The 64-byte beats a store of these distinct sectors takes into the L2: a line's in twos. */
int ws_mem_write_beats(const ws_memset *sectors, int sectors_per_line);
int ws_mem_shared_wavefronts(const uint64_t *addr, uint32_t mask, int bytes, int banks,
                             int bank_bytes);
/* Atomics: distinct addresses (with lanes per address) of the lanes in `mask`. */
void ws_mem_atomic_addrs(const uint64_t *addr, uint32_t mask, ws_memset *addrs);
/* The L2 atomic unit that serves `addr` (atom.l2_unit_bytes/_ways/_block_bytes). */
uint64_t ws_atomic_unit(const ws_gpu_preset *p, uint64_t addr);

/* A bounded table of per-address atomic contention (open addressing; when full, further
 * new addresses are counted as overflow, never stored). */
typedef struct ws_addr_entry {
    uint64_t addr;
    double ops, service, cas; /* lane-ops, service cycles, CAS successes */
    double exch;              /* a lock's releases: exchange lane-ops, and plain stores by a
                               * lane to the word its own CAS took (timing_memcost.c) */
    double exch_fenced;       /* of those, after a fence since the warp's last swapping CAS */
} ws_addr_entry;
typedef struct ws_addr_table {
    int cap, n;                 /* cap a power of two */
    ws_addr_entry *e;
    uint64_t overflow;
} ws_addr_table;
int ws_addr_table_init(ws_addr_table *t, int cap);
/* Adds lane-ops, service cycles and CAS requests (successes, one per request) to `addr`.
 * Returns 0, or -1 when the table is full and `addr` new (counted in `overflow`). */
int ws_addr_table_add(ws_addr_table *t, uint64_t addr, double ops, double service, double cas);
/* The entry of `addr`, made (zero) if new; NULL when the table is full (counted in `overflow`). */
ws_addr_entry *ws_addr_table_at(ws_addr_table *t, uint64_t addr);
/* The entry of `addr`, or NULL (nothing is added). */
ws_addr_entry *ws_addr_table_find(ws_addr_table *t, uint64_t addr);
void ws_addr_table_free(ws_addr_table *t);

/* A fixed-size bit set of hashed sector addresses: "has this sector been touched". */
typedef struct ws_touch_set { uint64_t *bits; uint64_t nbits; } ws_touch_set;
int ws_touch_init(ws_touch_set *s, int log2_bits);
int ws_touch_first(ws_touch_set *s, uint64_t sector); /* 1 the first time, sets it */
void ws_touch_free(ws_touch_set *s);

#endif
