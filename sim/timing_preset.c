/* timing_preset.c — reads GPU preset files (sim/presets/NAME.gpu): `key = value` lines,
 * `source KEY TEXT` lines (where KEY's number came from), `#` comments. Every key is
 * required, unknown keys are errors, and errors name file:line. Also maps PTX instructions
 * to latency classes. Holds no GPU numbers itself. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sim/timing_internal.h"

static const char *const ws_lat_names[] = {
#define WS_LAT_NAME(n) #n,
    WS_LAT_LIST(WS_LAT_NAME)
#undef WS_LAT_NAME
};

const char *ws_lat_name(ws_lat l) { return l < WS_LAT__COUNT ? ws_lat_names[l] : "?"; }

ws_lat ws_lat_of(const ws_inst *in)
{
    ws_lat l = in->op < WS_OP__COUNT ? (ws_lat)ws_op_info[in->op].lat : WS_LAT_alu;
    int is_float = in->type >= WS_P_F16 && in->type <= WS_P_F64;
    if ((l == WS_LAT_alu || l == WS_LAT_mul || l == WS_LAT_fp32) && is_float)
        return in->type == WS_P_F64 ? WS_LAT_fp64 : WS_LAT_fp32;
    /* a 32- or 64-bit integer multiply's high half or whole product: IMAD.HI / IMAD.WIDE */
    if (l == WS_LAT_mul && (in->subop == WS_SUB_HI || in->subop == WS_SUB_WIDE) &&
        ws_ptype_bits((ws_ptype)in->type) >= 32)
        return WS_LAT_mulwide;
    return l;
}

/* ------------------------------------------------------------------ the key table */

typedef struct preset_key { char name[40]; size_t off; } preset_key;

#define NUM_KEY(k, field) { k, offsetof(ws_gpu_preset, field) }
static const preset_key ws_preset_keys[] = {
    NUM_KEY("sms", sms), NUM_KEY("schedulers_per_sm", schedulers_per_sm),
    NUM_KEY("issue_per_scheduler", issue_per_scheduler), NUM_KEY("clock_mhz", clock_mhz),
    NUM_KEY("launch_overhead_ns", launch_overhead_ns),
    NUM_KEY("cta_launch_cycles", cta_launch_cycles),
    NUM_KEY("sched.window", sched_window),
    NUM_KEY("sched.ifconvert_max", sched_ifconvert_max),
    NUM_KEY("branch.reconverge_cycles", branch_reconverge_cycles),
    NUM_KEY("branch.yield_cycles", branch_yield_cycles),
    NUM_KEY("branch.call_cycles", branch_call_cycles),
    NUM_KEY("bound.overlap", bound_overlap),
    NUM_KEY("mem.shared_latency", shared_latency), NUM_KEY("mem.l1_latency", l1_latency),
    NUM_KEY("mem.l2_latency", l2_latency), NUM_KEY("mem.dram_latency", dram_latency),
    NUM_KEY("mem.src_read_cycles", mem_src_read_cycles),
    NUM_KEY("mem.sector_bytes", sector_bytes), NUM_KEY("mem.line_bytes", line_bytes),
    NUM_KEY("mem.shared_banks", shared_banks), NUM_KEY("mem.shared_bank_bytes", shared_bank_bytes),
    NUM_KEY("mem.lsu_wavefronts_per_cycle", lsu_wavefronts_per_cycle),
    NUM_KEY("mem.const_address_cycles", const_address_cycles),
    NUM_KEY("mem.l1_line_cycles", l1_line_cycles),
    NUM_KEY("mem.l1_bytes", l1_bytes), NUM_KEY("mem.l2_bytes", l2_bytes),
    NUM_KEY("mem.l2_gbps", l2_gbps), NUM_KEY("mem.dram_gbps", dram_gbps),
    NUM_KEY("mem.l2_write_beats_per_cycle", l2_write_beats_per_cycle),
    NUM_KEY("atom.l2_latency", atom_l2_latency),
    NUM_KEY("atom.l2_unit_bytes", atom_l2_unit_bytes),
    NUM_KEY("atom.l2_unit_ways", atom_l2_unit_ways),
    NUM_KEY("atom.l2_unit_block_bytes", atom_l2_unit_block_bytes),
    NUM_KEY("atom.l2_units", atom_l2_units),
    NUM_KEY("atom.l2_part_cycles", atom_l2_part_cycles),
    NUM_KEY("atom.l2_same_cycles", atom_l2_same_cycles),
    NUM_KEY("atom.l2_same_fp_cycles", atom_l2_same_fp_cycles),
    NUM_KEY("atom.cas_contended_cycles", atom_cas_contended_cycles),
    NUM_KEY("atom.cas_attempt_cycles", atom_cas_attempt_cycles),
    NUM_KEY("atom.cas_lane_cycles", atom_cas_lane_cycles),
    NUM_KEY("mem.l2_far_cycles", l2_far_cycles),
    NUM_KEY("atom.cas_unit_bytes", atom_cas_unit_bytes),
    NUM_KEY("atom.cas_attempts_per_cycle", atom_cas_attempts_per_cycle),
    NUM_KEY("atom.cas_successes_per_cycle", atom_cas_successes_per_cycle),
    NUM_KEY("warp.group_cycles", warp_group_cycles),
    NUM_KEY("warp.group_issue", warp_group_issue),
    NUM_KEY("atom.l2_ops_per_cycle", atom_l2_ops_per_cycle),
    NUM_KEY("atom.l2_requests_per_cycle", atom_l2_requests_per_cycle),
    NUM_KEY("atom.l2_line_ops_per_cycle", atom_l2_line_ops_per_cycle),
    NUM_KEY("atom.cas64_scale", atom_cas64_scale),
    NUM_KEY("atom.lock_contender_cycles", atom_lock_contender_cycles),
    NUM_KEY("atom.lock_hold_cycles", atom_lock_hold_cycles),
    NUM_KEY("atom.lock_nofence_contender_cycles", atom_lock_nofence_contender_cycles),
    NUM_KEY("atom.lock_nofence_hold_cycles", atom_lock_nofence_hold_cycles),
    NUM_KEY("atom.cas_contended_256", atom_cas_contended_256),
    NUM_KEY("atom.cas_contended_1024", atom_cas_contended_1024),
    NUM_KEY("atom.cas_contended_4096", atom_cas_contended_4096),
    NUM_KEY("atom.shared_lane_cycles", atom_shared_lane_cycles),
    NUM_KEY("printf.call_cycles", printf_call_cycles),
    NUM_KEY("printf.format_char_cycles", printf_format_char_cycles),
    NUM_KEY("printf.lane_cycles", printf_lane_cycles),
    NUM_KEY("printf.serial_cycles", printf_serial_cycles),
    NUM_KEY("printf.serial_lane_cycles", printf_serial_lane_cycles),
};
#define WS_NKEYS_FIXED ((int)(sizeof ws_preset_keys / sizeof ws_preset_keys[0]))
/* Keys: the fixed ones, then latency.CLASS and issue.CLASS for every class, then the
 * labels name, cc and model (strings, with no source). */
#define WS_NLABELS 3
#define WS_NKEYS (WS_NKEYS_FIXED + 2 * WS_LAT__COUNT + WS_NLABELS)

static void key_at(int i, preset_key *k)
{
    if (i < WS_NKEYS_FIXED) { *k = ws_preset_keys[i]; return; }
    i -= WS_NKEYS_FIXED;
    if (i < 2 * WS_LAT__COUNT) {
        int lat = i % WS_LAT__COUNT;
        snprintf(k->name, sizeof k->name, "%s.%s", i < WS_LAT__COUNT ? "latency" : "issue",
                 ws_lat_names[lat]);
        k->off = (i < WS_LAT__COUNT ? offsetof(ws_gpu_preset, latency)
                                    : offsetof(ws_gpu_preset, issue)) + lat * sizeof(double);
        return;
    }
    i -= 2 * WS_LAT__COUNT;
    static const preset_key labels[WS_NLABELS] = {
        {"name", offsetof(ws_gpu_preset, name)},
        {"cc", offsetof(ws_gpu_preset, cc)},
        {"model", offsetof(ws_gpu_preset, model)},
    };
    *k = labels[i];
}

static size_t label_size(const preset_key *k)
{
    return k->off == offsetof(ws_gpu_preset, name) ? sizeof ((ws_gpu_preset *)0)->name
         : k->off == offsetof(ws_gpu_preset, cc) ? sizeof ((ws_gpu_preset *)0)->cc
         : sizeof ((ws_gpu_preset *)0)->model;
}

_Static_assert(WS_NKEYS <= WS_PRESET_MAX_KEYS, "WS_PRESET_MAX_KEYS holds every key's source");

static int find_key(const char *name, preset_key *k)
{
    for (int i = 0; i < WS_NKEYS; i++) {
        key_at(i, k);
        if (strcmp(k->name, name) == 0) return i;
    }
    return -1;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) *--e = 0;
    return s;
}

static int set_value(ws_gpu_preset *p, int idx, const preset_key *k, const char *val,
                     const char *path, int line, ws_error *err)
{
    if (idx >= WS_NKEYS - WS_NLABELS) { /* name, cc, model: strings */
        if (strlen(val) >= label_size(k))
            return ws_error_at(err, WS_ERR_SPEC, path, line, "value of '%s' is too long", k->name);
        if (k->off == offsetof(ws_gpu_preset, model) && strcmp(val, "sass") && strcmp(val, "ptx"))
            return ws_error_at(err, WS_ERR_SPEC, path, line, "'model' is sass or ptx (the "
                               "simulator model the keys were fitted on), not '%s'", val);
        memcpy((char *)p + k->off, val, strlen(val) + 1);
        return 0;
    }
    char *end;
    errno = 0;
    double v = strtod(val, &end);
    if (end == val || *trim(end) || errno || !(v >= 0))
        return ws_error_at(err, WS_ERR_SPEC, path, line,
                           "'%s' needs a non-negative number, not '%s'", k->name, val);
    *(double *)((char *)p + k->off) = v;
    return 0;
}

/* `source KEY TEXT...`: where KEY's number came from. */
static int parse_source(char *s, ws_gpu_preset *p, const char *path, int line, ws_error *err)
{
    s = trim(s);
    char *key = s;
    while (*s && !isspace((unsigned char)*s)) s++;
    if (*s) *s++ = 0;
    char *text = trim(s);
    preset_key k;
    int idx = find_key(key, &k);
    if (!*key) return ws_error_at(err, WS_ERR_SPEC, path, line, "'source' needs a key and a text");
    if (idx < 0)
        return ws_error_at(err, WS_ERR_SPEC, path, line, "source of unknown preset key '%s'", key);
    if (!*text) return ws_error_at(err, WS_ERR_SPEC, path, line, "source of '%s' has no text", key);
    if (p->source[idx][0])
        return ws_error_at(err, WS_ERR_SPEC, path, line, "source of '%s' given twice", key);
    if (strlen(text) >= sizeof p->source[idx])
        return ws_error_at(err, WS_ERR_SPEC, path, line, "source of '%s' is longer than %d characters",
                           key, (int)sizeof p->source[idx] - 1);
    memcpy(p->source[idx], text, strlen(text) + 1);
    return 0;
}

static int parse_line(char *s, ws_gpu_preset *p, unsigned char *seen, const char *path,
                      int line, ws_error *err)
{
    char *hash = strchr(s, '#');
    if (hash) *hash = 0;
    s = trim(s);
    if (!*s) return 0;
    if (!strncmp(s, "source", 6) && (isspace((unsigned char)s[6]) || !s[6]))
        return parse_source(s + 6, p, path, line, err);
    char *eq = strchr(s, '=');
    if (!eq) return ws_error_at(err, WS_ERR_SPEC, path, line, "expected 'key = value', got '%s'", s);
    *eq = 0;
    char *key = trim(s), *val = trim(eq + 1);
    preset_key k;
    int idx = find_key(key, &k);
    if (idx < 0 && !strcmp(key, "mem.l2_write_requests_per_cycle"))
        return ws_error_at(err, WS_ERR_SPEC, path, line, "preset key '%s' is now "
                           "mem.l2_write_beats_per_cycle, at twice its value (stores are counted "
                           "in 64-byte beats, a whole line two)", key);
    if (idx < 0) return ws_error_at(err, WS_ERR_SPEC, path, line, "unknown preset key '%s'", key);
    if (seen[idx]) return ws_error_at(err, WS_ERR_SPEC, path, line, "'%s' given twice", key);
    if (!*val) return ws_error_at(err, WS_ERR_SPEC, path, line, "'%s' has no value", key);
    seen[idx] = 1;
    return set_value(p, idx, &k, val, path, line, err);
}

static int check_complete(const ws_gpu_preset *p, const unsigned char *seen, const char *path,
                          int nlines, ws_error *err)
{
    for (int i = 0; i < WS_NKEYS; i++) {
        preset_key k;
        key_at(i, &k);
        if (!seen[i])
            return ws_error_at(err, WS_ERR_SPEC, path, nlines, "missing preset key '%s'", k.name);
    }
    if (p->sms < 1 || p->schedulers_per_sm < 1 || p->issue_per_scheduler <= 0 ||
        p->clock_mhz <= 0 || p->l2_gbps <= 0 || p->l2_write_beats_per_cycle <= 0 || p->dram_gbps <= 0 ||
        p->sector_bytes < 1 ||
        p->line_bytes < p->sector_bytes || p->shared_banks < 1 || p->shared_bank_bytes < 1 ||
        p->lsu_wavefronts_per_cycle <= 0 || p->atom_l2_ops_per_cycle <= 0 ||
        p->atom_l2_requests_per_cycle <= 0 || p->atom_l2_line_ops_per_cycle <= 0 ||
        p->atom_cas64_scale <= 0 || p->atom_cas_unit_bytes < 1 ||
        p->atom_cas_attempts_per_cycle <= 0 || p->atom_cas_successes_per_cycle <= 0 ||
        p->atom_l2_units <= 0)
        return ws_error_at(err, WS_ERR_SPEC, path, nlines,
                           "preset has a zero rate or size (sms, schedulers, clock, bandwidths, "
                           "sector/line bytes, banks and per-cycle rates must be positive)");
    if (p->sched_window < 1 || p->sched_window > WS_WINDOW_MAX ||
        p->sched_window != (int)p->sched_window)
        return ws_error_at(err, WS_ERR_SPEC, path, nlines,
                           "'sched.window' must be a whole number from 1 to %d", WS_WINDOW_MAX);
    if (p->bound_overlap != 0 && p->bound_overlap < 1)
        return ws_error_at(err, WS_ERR_SPEC, path, nlines,
                           "'bound.overlap' must be 0 (the bounds overlap completely) or at "
                           "least 1 (the exponent of the norm that joins them)");
    if (p->atom_l2_unit_bytes < 1 || p->atom_l2_unit_ways < 1 ||
        p->atom_l2_unit_ways != (int)p->atom_l2_unit_ways ||
        p->atom_l2_unit_block_bytes < p->atom_l2_unit_bytes)
        return ws_error_at(err, WS_ERR_SPEC, path, nlines,
                           "'atom.l2_unit_ways' must be a whole number of at least 1 and "
                           "'atom.l2_unit_block_bytes' at least 'atom.l2_unit_bytes' (>= 1)");
    return 0;
}

int ws_gpu_preset_parse(const char *text, const char *path, ws_gpu_preset *p, ws_error *err)
{
    memset(p, 0, sizeof *p);
    snprintf(p->path, sizeof p->path, "%s", path);
    unsigned char seen[WS_NKEYS] = { 0 };
    int line = 0;
    const char *s = text;
    while (*s) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        char buf[1024];
        line++;
        if (len >= sizeof buf)
            return ws_error_at(err, WS_ERR_SPEC, path, line, "line too long");
        memcpy(buf, s, len);
        buf[len] = 0;
        if (parse_line(buf, p, seen, path, line, err)) return err->code;
        s = nl ? nl + 1 : s + len;
    }
    return check_complete(p, seen, path, line, err);
}

const char *ws_gpu_preset_source(const ws_gpu_preset *p, const char *key)
{
    preset_key k;
    int idx = find_key(key, &k);
    return idx < 0 ? NULL : p->source[idx];
}

int ws_gpu_preset_unsourced(const ws_gpu_preset *p, char *names, size_t n)
{
    int count = 0;
    size_t len = 0;
    if (n) names[0] = 0;
    for (int i = 0; i < WS_NKEYS - WS_NLABELS; i++) { /* the labels are not numbers */
        if (p->source[i][0]) continue;
        preset_key k;
        key_at(i, &k);
        if (len < n) {
            int w = snprintf(names + len, n - len, "%s%s", count ? ", " : "", k.name);
            len += w > 0 ? (size_t)w : 0;
        }
        count++;
    }
    return count;
}

/* ------------------------------------------------------------------ locating presets */

static int try_dir(const char *dir, const char *name, char *out, size_t n)
{
    if (!dir || !*dir) return 0;
    int len = snprintf(out, n, "%s/%s.gpu", dir, name);
    return len > 0 && (size_t)len < n && access(out, R_OK) == 0;
}

/* The directories presets are looked up in, in order; returns how many were filled. */
static int preset_dirs(char dirs[][PATH_MAX], int max)
{
    int n = 0;
    const char *env = getenv("WARPSCOPE_PRESETS");
    if (env && *env && n < max) snprintf(dirs[n++], PATH_MAX, "%s", env);
#ifdef WS_PRESETS_DIR
    if (n < max) snprintf(dirs[n++], PATH_MAX, "%s", WS_PRESETS_DIR);
#endif
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) *slash = 0;
        static const char *const rel[] = { "presets", "../sim/presets" };
        for (int i = 0; i < 2 && n < max; i++)
            snprintf(dirs[n++], PATH_MAX, "%.*s/%s", PATH_MAX - 32, exe, rel[i]);
    }
    return n;
}

static int locate(const char *name, char *path, size_t n)
{
    if (strchr(name, '/') || strstr(name, ".gpu")) {
        snprintf(path, n, "%s", name);
        return 1;
    }
    char dirs[4][PATH_MAX];
    int nd = preset_dirs(dirs, 4);
    for (int i = 0; i < nd; i++)
        if (try_dir(dirs[i], name, path, n)) return 1;
    return 0;
}

int ws_gpu_preset_check(const char *name, ws_error *err)
{
    ws_gpu_preset p;
    return ws_gpu_preset_load(name, &p, err);
}

int ws_gpu_preset_model(const char *name, char *model, size_t n, ws_error *err)
{
    ws_gpu_preset p;
    int rc = ws_gpu_preset_load(name, &p, err);
    if (rc == WS_OK)
        snprintf(model, n, "%s", p.model);
    return rc;
}

/* The model word of a device name: its first word with a digit in it ("NVIDIA H200" ->
 * "H200"; words end at spaces and hyphens). 0 when it has none. */
static int gpu_word(const char *gpu, char *word, size_t n)
{
    for (const char *w = gpu ? gpu : ""; *w;) {
        size_t len = strcspn(w, " -");
        int digit = 0;
        for (size_t i = 0; i < len; i++)
            digit |= isdigit((unsigned char)w[i]) != 0;
        if (digit && len < n) {
            snprintf(word, n, "%.*s", (int)len, w);
            return 1;
        }
        w += len;
        w += *w != '\0';
    }
    return 0;
}

int ws_gpu_preset_other_gpu(const char *name, const char *gpu, char *preset_gpu, size_t n)
{
    ws_gpu_preset p;
    ws_error err;
    char word[32];
    ws_error_clear(&err);
    if (!gpu || ws_gpu_preset_load(name, &p, &err) != WS_OK)
        return 0;
    snprintf(preset_gpu, n, "%s", p.name);
    return gpu_word(gpu, word, sizeof word) && strstr(p.name, word) == NULL;
}

int ws_gpu_preset_for_gpu(const char *cc, const char *gpu, char *name, size_t n)
{
    char dirs[4][PATH_MAX], word[32], best[256];
    int nd = preset_dirs(dirs, 4), has_word = gpu_word(gpu, word, sizeof word);
    for (int i = 0; i < nd; i++) {
        DIR *d = opendir(dirs[i]);
        if (!d) continue;
        struct dirent *e;
        int found = 0, matched = 0;
        while (!matched && (e = readdir(d))) {
            size_t len = strlen(e->d_name);
            if (len < 5 || len - 4 >= sizeof best || strcmp(e->d_name + len - 4, ".gpu")) continue;
            char path[PATH_MAX + 256];
            snprintf(path, sizeof path, "%.*s/%.*s", PATH_MAX - 1, dirs[i], 250, e->d_name);
            ws_gpu_preset p;
            ws_error err;
            ws_error_clear(&err);
            if (ws_gpu_preset_load(path, &p, &err) || strcmp(p.cc, cc)) continue;
            char stem[256];
            snprintf(stem, sizeof stem, "%.*s", (int)(len - 4), e->d_name);
            matched = has_word && strstr(p.name, word) != NULL;
            /* the device's own preset, else the first name in order (readdir has none) */
            if (matched || !found || strcmp(stem, best) < 0)
                snprintf(best, sizeof best, "%s", stem);
            found = 1;
        }
        closedir(d);
        if (found) {
            snprintf(name, n, "%s", best);
            return 1;
        }
    }
    return 0;
}

int ws_gpu_preset_for_cc(const char *cc, char *name, size_t n)
{
    return ws_gpu_preset_for_gpu(cc, NULL, name, n);
}

int ws_gpu_preset_load(const char *name, ws_gpu_preset *p, ws_error *err)
{
    char path[PATH_MAX];
    if (!name || !*name) name = "h100";
    if (!locate(name, path, sizeof path))
        return ws_error_set(err, WS_ERR_NOTFOUND,
                            "no GPU preset '%s' (looked for %s.gpu in $WARPSCOPE_PRESETS, "
                            "sim/presets and presets/ beside the program)", name, name);
    char *text;
    size_t len;
    if (ws_read_file(path, &text, &len, err)) return err->code;
    int rc = ws_gpu_preset_parse(text, path, p, err);
    free(text);
    return rc;
}
