/* sim_run.c — ws_sim_run: prepares a launch (entry lookup, parameter block, global memory
 * allocation table, per-function layouts), runs the grid's CTAs on host threads taking
 * them from a shared counter, and assembles the ws_result. The per-instruction work is in
 * exec_*.c; statistics in stats.c; races in race.c. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "sim/exec.h"
#include "sim/reconv.h"
#include "sim/timing.h"
#include "sim/timing_internal.h"

/* The `__device__` bytes a sequence carries from launch to launch (per module global; NULL
 * where none is kept yet). */
struct ws_global_carry {
    int n;
    uint8_t **bytes;
};

#define WS_SHADOW_LIMIT (256ull << 20) /* global race shadow bytes before we give up */

void ws_sim_options_default(ws_sim_options *o)
{
    memset(o, 0, sizeof *o);
    o->reconvergence = "ipdom";
    o->threads = 0;
    o->timeline_warps = 4;
    o->timeline_slots = 4096;
    o->detect_races = 1;
    o->timing = 0;
    o->gpu_preset = "h100";
    o->printf_to = stdout;
}

/* ---------------------------------------------------------------- preparation */

/* The variant's entry; with `check`, an entry that reaches PTX the PTX model does not run
 * is an error (the SASS model lays out the launch from the PTX but runs the SASS). */
static const char *entry_name(const void *ctx, int i)
{
    const ws_module *m = ctx;
    return m->funcs[i].is_entry ? m->funcs[i].name : NULL;
}

static int find_entry_in(const ws_module *m, const ws_variant *v, int check, ws_error *err)
{
    char names[256] = "", hits[512];
    int nmatch, found = ws_kernel_name_pick(v->kernel, m->nfuncs, entry_name, m, &nmatch, hits,
                                            sizeof hits);
    if (found >= 0)
        return check && ws_function_check(m, found, err) ? -1 : found;
    if (nmatch > 1) {
        ws_error_set(err, WS_ERR_SPEC, "kernel '%s' (variant '%s') names %d entries of %s "
                     "(template instances or overloads: %s): give the one to run by its "
                     "mangled name", v->kernel, v->name, nmatch, m->name, hits);
        return -1;
    }
    for (int i = 0; i < m->nfuncs; i++) {
        size_t n = strlen(names);
        if (m->funcs[i].is_entry)
            snprintf(names + n, sizeof names - n, "%s%.200s", n ? ", " : "", m->funcs[i].name);
    }
    ws_error_set(err, WS_ERR_NOTFOUND, "kernel '%s' (variant '%s') is not an entry of %s "
                 "(entries: %s)", v->kernel, v->name, m->name, names[0] ? names : "none");
    return -1;
}

static int find_entry(const ws_module *m, const ws_variant *v, ws_error *err)
{
    return find_entry_in(m, v, 1, err);
}

static void mark_reachable(ws_run *r, int f)
{
    if (r->fi[f].reachable)
        return;
    r->fi[f].reachable = 1;
    const ws_function *fn = &r->m->funcs[f];
    for (int pc = 0; pc < fn->ninsts; pc++) {
        const ws_inst *in = &fn->insts[pc];
        if (ws_op_has(in->op, WS_OPF_CALL) && in->nsrc > 0 && in->src[0].kind == WS_O_FUNC &&
            in->src[0].imm >= 0 && in->src[0].imm < r->m->nfuncs)
            mark_reachable(r, (int)in->src[0].imm);
    }
}

static uint64_t var_end(const ws_var *v, int n)
{
    uint64_t end = 0;
    for (int i = 0; i < n; i++)
        if (v[i].offset + v[i].size > end)
            end = v[i].offset + v[i].size;
    return end;
}

static int layout_functions(ws_run *r)
{
    const ws_module *m = r->m;
    r->fi = calloc((size_t)m->nfuncs, sizeof *r->fi);
    if (!r->fi)
        return WS_ERR_NOMEM;
    mark_reachable(r, r->entry);
    for (int f = 0; f < m->nfuncs; f++) {
        const ws_function *fn = &m->funcs[f];
        ws_fninfo *fi = &r->fi[f];
        if (!fi->reachable)
            continue;
        uint64_t scratch = 0;
        for (int i = 0; i < fn->nlocals; i++)
            if (fn->locals[i].space == WS_SPACE_PARAM &&
                fn->locals[i].offset + fn->locals[i].size > scratch)
                scratch = fn->locals[i].offset + fn->locals[i].size;
        uint64_t block = f == r->entry ? r->param_bytes
                                       : var_end(fn->params, fn->nparams) > var_end(fn->rets, fn->nrets)
                                             ? var_end(fn->params, fn->nparams)
                                             : var_end(fn->rets, fn->nrets);
        fi->param_block = (block + 7) / 8 * 8;
        fi->param_bytes = fi->param_block + (scratch + 7) / 8 * 8;
        fi->local_bytes = (fn->local_bytes + 15) / 16 * 16;
        fi->atom_slot = malloc((size_t)(fn->ninsts ? fn->ninsts : 1) * sizeof(int));
        if (!fi->atom_slot)
            return WS_ERR_NOMEM;
        for (int pc = 0; pc < fn->ninsts; pc++)
            fi->atom_slot[pc] = ws_op_has(fn->insts[pc].op, WS_OPF_ATOMIC) ? r->natom_slots++ : -1;
        r->reg_pool_words += (size_t)fn->nregs * WS_WARP;
        r->param_lane_bytes += fi->param_bytes;
        r->local_bytes += fi->local_bytes;
    }
    return 0;
}

static int add_alloc(ws_run *r, uint64_t *next, uint8_t *host, uint64_t size, const char *name,
                     int is_const)
{
    ws_alloc *p = realloc(r->allocs, (size_t)(r->nallocs + 1) * sizeof *p);
    if (!p)
        return WS_ERR_NOMEM;
    r->allocs = p;
    ws_alloc *a = &r->allocs[r->nallocs++];
    memset(a, 0, sizeof *a);
    a->base = (*next + 255) / 256 * 256;
    a->size = size;
    a->host = host;
    a->is_const = is_const;
    snprintf(a->name, sizeof a->name, "%.*s", (int)sizeof a->name - 1, name);
    *next = a->base + size + WS_GLOBAL_GAP;
    return 0;
}

/* `symbol NAME BUF`: module variable NAME starts with BUF's bytes (sizes must match). */
/* The allocation of module global g (NULL for a shared variable). */
static ws_alloc *global_alloc(ws_run *r, int g)
{
    const ws_var *v = &r->m->globals[g];
    if (v->space != WS_SPACE_GLOBAL && v->space != WS_SPACE_CONST)
        return NULL;
    for (int i = r->nbuffers; i < r->nallocs; i++)
        if (r->allocs[i].base == r->global_addr[g])
            return &r->allocs[i];
    return NULL;
}

uint8_t *ws_run_global_bytes(ws_run *r, int g)
{
    ws_alloc *a = global_alloc(r, g);
    return a ? a->host : NULL;
}

/* Addresses in module variables' initializers (ws_addrinit): a variable's from the layout;
 * a function's the PTX model's tag (the SASS model writes its own over it). */
static void init_addresses(ws_run *r)
{
    const ws_module *m = r->m;
    for (int i = 0; i < m->naddrinits; i++) {
        const ws_addrinit *a = &m->addrinits[i];
        uint8_t *p = ws_run_global_bytes(r, a->global);
        assert(a->offset + 8 <= m->globals[a->global].size); /* the parser's */
        if (!p)
            continue;
        uint64_t v = a->target >= 0 ? r->global_addr[a->target] + (uint64_t)a->addend
                                    : WS_FNADDR_TAG + 16 * (uint64_t)i;
        memcpy(p + a->offset, &v, 8);
    }
}

static int init_symbols(ws_run *r, const ws_buffers *bufs, ws_error *err)
{
    const ws_module *m = r->m;
    for (int i = 0; i < r->spec->nsymbols; i++) {
        const ws_symbol *y = &r->spec->symbols[i];
        char known[256] = "";
        int g = -1;
        for (int k = 0; k < m->nglobals; k++) {
            if (m->globals[k].space != WS_SPACE_GLOBAL && m->globals[k].space != WS_SPACE_CONST)
                continue;
            if (!strcmp(m->globals[k].name, y->name))
                g = k;
            size_t n = strlen(known);
            snprintf(known + n, sizeof known - n, "%s%.200s", n ? ", " : "", m->globals[k].name);
        }
        int rc = ws_symbol_check(r->spec, y, g >= 0, g >= 0 ? m->globals[g].size : 0, known,
                                 err);
        if (rc)
            return rc;
        if (y->buffer < bufs->n && bufs->b[y->buffer].data)
            for (int a = r->nbuffers; a < r->nallocs; a++)
                if (r->allocs[a].base == r->global_addr[g])
                    memcpy(r->allocs[a].host, bufs->b[y->buffer].data, m->globals[g].size);
    }
    return 0;
}

/* Buffers first (in spec order), then module .global/.const variables. */
static int layout_global_memory(ws_run *r, ws_buffers *bufs, ws_error *err)
{
    uint64_t next = WS_GLOBAL_BASE;
    r->nbuffers = bufs->n;
    for (int i = 0; i < bufs->n; i++)
        if (add_alloc(r, &next, bufs->b[i].data, bufs->b[i].data ? bufs->b[i].bytes : 0,
                      bufs->b[i].spec ? bufs->b[i].spec->name : "buffer", 0))
            return ws_error_set(err, WS_ERR_NOMEM, "out of memory");
    const ws_module *m = r->m;
    r->global_addr = calloc((size_t)(m->nglobals ? m->nglobals : 1), sizeof *r->global_addr);
    if (!r->global_addr)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory");
    for (int g = 0; g < m->nglobals; g++) {
        const ws_var *v = &m->globals[g];
        if (v->space != WS_SPACE_GLOBAL && v->space != WS_SPACE_CONST) {
            r->global_addr[g] = v->offset; /* shared: offset in the CTA window */
            continue;
        }
        uint8_t *host = calloc(v->size ? v->size : 1, 1);
        if (!host)
            return ws_error_set(err, WS_ERR_NOMEM, "out of memory");
        if (v->init)
            memcpy(host, v->init, v->size);
        if (add_alloc(r, &next, host, v->size, v->name, v->space == WS_SPACE_CONST)) {
            free(host);
            return ws_error_set(err, WS_ERR_NOMEM, "out of memory");
        }
        r->allocs[r->nallocs - 1].name[63] = 0;
        r->global_addr[g] = r->allocs[r->nallocs - 1].base;
    }
    if (r->v->cooperative) { /* what the driver gives a cooperative launch for grid syncs */
        uint8_t *host = calloc(16, 1);
        if (!host || add_alloc(r, &next, host, 16, "grid-sync workspace", 0)) {
            free(host);
            return ws_error_set(err, WS_ERR_NOMEM, "out of memory");
        }
        r->grid_workspace = r->allocs[r->nallocs - 1].base;
    }
    if (m->uses_heap) { /* the device heap malloc and free serve (heap.c) */
        uint8_t *host = calloc(WS_HEAP_BYTES, 1);
        if (!host || add_alloc(r, &next, host, WS_HEAP_BYTES, "device heap (malloc)", 0)) {
            free(host);
            return ws_error_set(err, WS_ERR_NOMEM, "out of memory for the device heap");
        }
        r->heap = r->nallocs;
    }
    init_addresses(r);
    int rc = init_symbols(r, bufs, err);
    const ws_global_carry *c = r->opt->carry;
    for (int g = 0; rc == WS_OK && c && g < c->n && g < m->nglobals; g++) {
        ws_alloc *a = global_alloc(r, g);
        if (a && c->bytes[g]) /* a later launch of a sequence: where the last one left it */
            memcpy(a->host, c->bytes[g], a->size);
    }
    return rc;
}

/* A raw parameter block: copied as given, with each 8-byte aligned word that points into
 * a captured allocation moved to the simulator's copy of it. */
static int pack_raw_params(ws_run *r, ws_error *err)
{
    const ws_function *fn = &r->m->funcs[r->entry];
    const ws_sim_launch *l = r->raw;
    r->param_bytes = var_end(fn->params, fn->nparams);
    if (l->param_bytes != r->param_bytes)
        return ws_error_set(err, WS_ERR_USAGE, "kernel %s takes %llu bytes of parameters but the "
                            "launch gives %zu", fn->name, (unsigned long long)r->param_bytes,
                            l->param_bytes);
    r->params = calloc(r->param_bytes + 8, 1);
    if (!r->params)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory");
    memcpy(r->params, l->params, l->param_bytes);
    for (size_t off = 0; off + 8 <= l->param_bytes; off += 8) {
        uint64_t word;
        memcpy(&word, r->params + off, 8);
        /* an allocation holding the word; else one it points just past the end of (an end
           pointer): allocations often abut, and a pointer to the next one's first byte is
           that one's, not one past its neighbour */
        int hit = -1;
        for (int pass = 0; pass < 2 && hit < 0; pass++)
            for (int i = 0; i < r->nbuffers && hit < 0; i++) {
                uint64_t d = word - l->buffer_address[i];
                if (word >= l->buffer_address[i] &&
                    (pass == 0 ? d < r->allocs[i].size : d == r->allocs[i].size))
                    hit = i;
            }
        if (hit >= 0) {
            word = r->allocs[hit].base + (word - l->buffer_address[hit]);
            memcpy(r->params + off, &word, 8);
        }
    }
    return 0;
}

static int pack_params(ws_run *r, ws_error *err)
{
    const ws_function *fn = &r->m->funcs[r->entry];
    const ws_variant *v = r->v;
    if (r->raw)
        return pack_raw_params(r, err);
    if (v->nargs != fn->nparams)
        return ws_error_at(err, WS_ERR_SPEC, r->spec->path, v->line,
                           "variant '%s': kernel %s takes %d parameters but the spec gives %d "
                           "arguments", v->name, fn->name, fn->nparams, v->nargs);
    r->param_bytes = var_end(fn->params, fn->nparams);
    r->params = calloc(r->param_bytes + 8, 1);
    if (!r->params)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory");
    for (int i = 0; i < fn->nparams; i++) {
        const ws_var *p = &fn->params[i];
        const ws_arg *a = &v->args[i];
        uint8_t *dst = r->params + p->offset;
        size_t n = p->size > 8 ? 8 : p->size;
        int elem = (ws_ptype_bits((ws_ptype)p->type) + 7) / 8;
        ws_param_shape shape = {fn->name, p->name, p->size, p->align, p->size != (uint64_t)elem};
        if (ws_arg_check_param(r->spec, v->name, i + 1, a, &shape, err))
            return err->code;
        if (a->kind == WS_ARG_STRUCT) {
            memcpy(dst, a->bytes, a->struct_size);
        } else if (a->kind == WS_ARG_BUFFER) {
            if (a->buffer < 0 || a->buffer >= r->nbuffers)
                return ws_error_at(err, WS_ERR_SPEC, r->spec->path, v->line,
                                   "variant '%s': argument %d names buffer %d, but only %d "
                                   "buffers were generated", v->name, i + 1, a->buffer,
                                   r->nbuffers);
            uint64_t addr = r->allocs[a->buffer].base + a->offset;
            if (ws_spec_image(r->spec, a->buffer)) { /* a texture or surface object: its */
                if (a->offset)                       /* handle (exec_image.c) */
                    return ws_error_at(err, WS_ERR_SPEC, r->spec->path, a->line, "variant "
                                       "'%s': argument %d '%s' is an offset into a texture or "
                                       "surface (one is passed whole)", v->name, i + 1, a->expr);
                addr = (uint64_t)a->buffer + 1;
            }
            memcpy(dst, &addr, n);
        } else if (p->type == WS_P_F32) {
            float f = (float)a->fval;
            memcpy(dst, &f, 4);
        } else if (p->type == WS_P_F64) {
            memcpy(dst, &a->fval, 8);
        } else {
            memcpy(dst, &a->ival, n); /* little-endian: the low bytes */
        }
    }
    return 0;
}

static int alloc_race_shadows(ws_run *r)
{
    uint64_t total = 0;
    for (int i = 0; i < r->nallocs; i++)
        total += (r->allocs[i].size / 4 + 1) * 16;
    if (total > WS_SHADOW_LIMIT)
        return 1;
    r->shadow_global = calloc((size_t)r->nallocs + 1, sizeof *r->shadow_global);
    r->released_ctas = calloc(WS_RACE_CTAS / 8, 1);
    if (!r->shadow_global || !r->released_ctas)
        return WS_ERR_NOMEM;
    for (int i = 0; i < r->nallocs; i++) {
        if (r->grid_workspace && r->allocs[i].base == r->grid_workspace)
            continue; /* the grid barrier's own counter: synchronisation, not data */
        r->shadow_global[i] = calloc((r->allocs[i].size / 4 + 1) * 2, sizeof(uint64_t));
        if (!r->shadow_global[i])
            return WS_ERR_NOMEM;
    }
    return 0;
}

/* What a sequence's next launch starts from: every writable module global's bytes now. */
static void carry_globals(ws_run *r)
{
    ws_global_carry *c = r->opt->carry;
    if (!c || !r->global_addr || !r->allocs)
        return;
    if (!c->bytes) {
        c->bytes = calloc((size_t)(r->m->nglobals ? r->m->nglobals : 1), sizeof *c->bytes);
        if (!c->bytes)
            return; /* out of memory: later launches start from the initializers */
        c->n = r->m->nglobals;
    }
    for (int g = 0; g < c->n && g < r->m->nglobals; g++) {
        ws_alloc *a = global_alloc(r, g);
        if (!a || a->is_const)
            continue;
        if (!c->bytes[g])
            c->bytes[g] = malloc(a->size ? a->size : 1);
        if (c->bytes[g])
            memcpy(c->bytes[g], a->host, a->size);
    }
}

static void global_carry_free(ws_global_carry *c)
{
    for (int g = 0; c->bytes && g < c->n; g++)
        free(c->bytes[g]);
    free(c->bytes);
    memset(c, 0, sizeof *c);
}

static int prepare(ws_run *r, ws_buffers *bufs, ws_error *err)
{
    const ws_variant *v = r->v;
    for (int d = 0; d < 3; d++) {
        r->grid[d] = v->grid[d] ? v->grid[d] : 1;
        r->block[d] = v->block[d] ? v->block[d] : 1;
    }
    r->threads_per_cta = r->block[0] * r->block[1] * r->block[2];
    if (r->threads_per_cta == 0 || r->threads_per_cta > 1024)
        return ws_error_at(err, WS_ERR_SPEC, r->spec->path, v->line,
                           "variant '%s': %u threads per block (must be 1..1024)", v->name,
                           r->threads_per_cta);
    r->nctas = (uint64_t)r->grid[0] * r->grid[1] * r->grid[2];
    r->nwarps = (int)((r->threads_per_cta + WS_WARP - 1) / WS_WARP);
    int rc = layout_global_memory(r, bufs, err);
    if (!rc)
        rc = pack_params(r, err);
    if (rc)
        return rc;
    if (layout_functions(r))
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory");
    r->shared_bytes = r->m->funcs[r->entry].shared_bytes + v->smem_dynamic;
    if (r->opt->detect_races) {
        rc = alloc_race_shadows(r);
        if (rc == WS_ERR_NOMEM)
            return ws_error_set(err, WS_ERR_NOMEM, "out of memory (race shadow)");
    }
    uint64_t nt = (uint64_t)(r->opt->timeline_warps > 0 ? r->opt->timeline_warps : 0);
    if (nt > r->nctas * (uint64_t)r->nwarps)
        nt = r->nctas * (uint64_t)r->nwarps;
    int slots = r->opt->timeline_slots > 0 ? r->opt->timeline_slots : 0;
    r->ntimelines = slots ? (int)nt : 0;
    r->timelines = calloc((size_t)r->ntimelines + 1, sizeof *r->timelines);
    if (!r->timelines)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory");
    for (int i = 0; i < r->ntimelines; i++)
        if (!(r->timelines[i].slots = malloc((size_t)slots * sizeof(ws_timeline_slot))))
            return ws_error_set(err, WS_ERR_NOMEM, "out of memory");
    return 0;
}

static void release(ws_run *r, ws_buffers *bufs)
{
    if (!r->failed)
        carry_globals(r);
    for (int i = bufs->n; i < r->nallocs; i++)
        free(r->allocs[i].host);
    if (r->shadow_global)
        for (int i = 0; i < r->nallocs; i++)
            free(r->shadow_global[i]);
    free(r->shadow_global);
    free(r->heap_blocks);
    free(r->released_ctas);
    free(r->allocs);
    free(r->global_addr);
    free(r->params);
    if (r->fi)
        for (int f = 0; f < r->m->nfuncs; f++)
            free(r->fi[f].atom_slot);
    free(r->fi);
    for (int i = 0; r->timelines && i < r->ntimelines; i++)
        free(r->timelines[i].slots);
    free(r->timelines);
}

/* ---------------------------------------------------------------- running */

/* A CTA ended: counts it, and reports progress now and then. */
static void cta_done(ws_worker *wk)
{
    ws_run *r = wk->run;
    uint64_t done = __atomic_add_fetch(&r->ctas_done, 1, __ATOMIC_RELAXED);
    if (r->opt->progress && (done % r->progress_step == 0 || done == r->nctas)) {
        pthread_mutex_lock(&r->lock);
        r->opt->progress(r->opt->progress_ctx, done, r->nctas);
        pthread_mutex_unlock(&r->lock);
    }
}

static void *worker_main(void *arg)
{
    ws_worker *wk = arg;
    ws_run *r = wk->run;
    if (r->share && r->resident > 1) { /* CTAs that take work from one counter */
        if (ws_x_run_wave(wk, r->resident, 0, cta_done) && (wk->failed || wk->err.code != WS_OK))
            ws_run_fail(r, &wk->err, 0);
        return NULL;
    }
    for (;;) {
        uint64_t i = __atomic_fetch_add(&r->next_cta, 1, __ATOMIC_RELAXED);
        if (i >= r->nctas || ws_run_stopped(r, i))
            break;
        int rc = ws_x_run_cta(wk, i), wave = rc == WS_CTA_WAITS;
        if (wave) /* it waits on another CTA: the rest run resident together */
            rc = ws_x_run_wave(wk, r->resident, 1, cta_done);
        else if (!rc)
            cta_done(wk);
        if (rc) {
            if (wk->failed || wk->err.code != WS_OK)
                ws_run_fail(r, &wk->err, wave ? 0 : i);
            break;
        }
    }
    return NULL;
}

int ws_wave_run(ws_run *r, int slots, int adopt, const ws_wave_ops *ops, void *ctx)
{
    uint8_t *live = calloc((size_t)slots, 1);
    if (!live)
        return WS_ERR_NOMEM;
    int nlive = 0, rc = 0;
    for (int s = 0; s < slots && !rc; s++) {
        uint64_t i = 0;
        if (!(s == 0 && adopt)) {
            i = __atomic_fetch_add(&r->next_cta, 1, __ATOMIC_RELAXED);
            if (i >= r->nctas)
                break;
            rc = ops->begin(ctx, s, i);
        }
        live[s] = !rc;
        nlive += !rc;
    }
    __atomic_add_fetch(&r->ctas_at_once, (uint64_t)nlive, __ATOMIC_RELAXED);
    while (!rc && nlive) {
        for (int s = 0; s < slots && !rc; s++) {
            if (!live[s])
                continue;
            int st = ops->round(ctx, s);
            if (st != 1) {
                rc = st;
                continue;
            }
            ops->end(ctx, s);
            ops->done(ctx);
            uint64_t i = __atomic_fetch_add(&r->next_cta, 1, __ATOMIC_RELAXED);
            if (i < r->nctas) {
                rc = ops->begin(ctx, s, i);
            } else {
                live[s] = 0;
                nlive--;
            }
        }
        if (!rc && ws_run_stopped(r, UINT64_MAX)) /* any failure stops a wave */
            rc = WS_ERR_SIM;
    }
    free(live);
    return rc;
}

void ws_run_gpu(ws_run *r, const char *cc)
{
    char found[128];
    const char *name = r->opt->gpu_preset;
    if (!name)
        name = cc && ws_gpu_preset_for_cc(cc, found, sizeof found) ? found : "h100";
    ws_gpu_preset p;
    ws_occupancy occ;
    ws_error err;
    r->sms = 132;
    r->max_warps = 64;
    r->cc[0] = '\0';
    if (ws_gpu_preset_load(name, &p, &err) != WS_OK)
        return;
    if (p.sms > 0)
        r->sms = p.sms;
    r->l2_cycles = p.l2_latency;
    r->atom_cycles = p.atom_l2_latency;
    r->cas_lane_cycles = p.atom_cas_lane_cycles;
    r->far_cycles = p.l2_far_cycles;
    snprintf(r->cc, sizeof r->cc, "%s", cc ? cc : p.cc);
    if (ws_occupancy_calc(r->cc, 32, 0, 0, &occ, &err) == WS_OK)
        r->max_warps = occ.max_warps_sm;
}

int ws_run_resident(const ws_run *r, int regs, int workers, uint64_t cta_bytes, uint64_t max_bytes)
{
    if (!r->meet || r->nctas <= 1)
        return 1;
    ws_occupancy occ;
    ws_error err;
    uint64_t n = 1;
    if (r->cc[0] && ws_occupancy_calc(r->cc, (int)r->threads_per_cta, regs, (int)r->shared_bytes,
                                      &occ, &err) == WS_OK)
        n = (uint64_t)(occ.active_blocks > 0 ? occ.active_blocks : 1) * (uint64_t)r->sms;
    if (n > r->nctas)
        n = r->nctas;
    n = (n + (uint64_t)workers - 1) / (uint64_t)(workers > 0 ? workers : 1);
    if (cta_bytes && n > max_bytes / cta_bytes)
        n = max_bytes / cta_bytes;
    return n > 1 ? (int)n : 1;
}

/* An atom (not red) outside shared memory: CTAs can see each other's atomics through it. */
static int has_global_atom(const ws_function *f, void *ctx)
{
    (void)ctx;
    for (int i = 0; i < f->ninsts; i++)
        if (f->insts[i].op == WS_OP_ATOM && f->insts[i].space != WS_SPACE_SHARED)
            return 1;
    return 0;
}

/* A fetch-and-op atom outside shared memory (not a CAS or an exchange): a counter CTAs take
 * work from (ws_run.share). */
static int has_global_fetch_op(const ws_function *f, void *ctx)
{
    (void)ctx;
    for (int i = 0; i < f->ninsts; i++) {
        const ws_inst *in = &f->insts[i];
        if (in->op == WS_OP_ATOM && in->space != WS_SPACE_SHARED && in->subop != WS_SUB_CAS &&
            in->subop != WS_SUB_EXCH)
            return 1;
    }
    return 0;
}

/* Whether the kernel, or a function it calls, has one (out of memory: taken as no). */
static int ctas_meet(const ws_module *m, int entry)
{
    return ws_function_reaches(m, entry, has_global_atom, NULL) >= 0;
}

/* A cooperative launch runs every CTA at once on one worker, so that a grid-wide barrier
 * completes. */
static void *grid_main(void *arg)
{
    ws_worker *wk = arg;
    if (ws_x_run_wave(wk, (int)wk->run->nctas, 0, cta_done) &&
        (wk->failed || wk->err.code != WS_OK))
        ws_run_fail(wk->run, &wk->err, 0);
    return NULL;
}

/* A cooperative launch must fit on the GPU at once, as cuLaunchCooperativeKernel demands:
 * CTAs per SM (the occupancy calculator, at the preset's compute capability) times SMs. */
static int check_coresident(const ws_run *r, ws_error *err)
{
    ws_gpu_preset p;
    ws_occupancy occ;
    const char *name = r->opt->gpu_preset ? r->opt->gpu_preset : "h100";
    int regs = r->opt->resources ? r->opt->resources->regs : 0;
    if (ws_gpu_preset_load(name, &p, err) ||
        ws_occupancy_calc(p.cc, (int)r->threads_per_cta, regs, (int)r->shared_bytes, &occ, err))
        return err->code;
    uint64_t fit = (uint64_t)occ.active_blocks * (uint64_t)p.sms;
    if (r->nctas > fit)
        return ws_error_at(err, WS_ERR_SPEC, r->spec->path, r->v->line,
                           "variant '%s': a cooperative launch of %llu CTAs cannot be "
                           "co-resident on %s (%d CTAs of %u threads per SM x %.0f SMs = %llu)",
                           r->v->name, (unsigned long long)r->nctas, p.name,
                           occ.active_blocks, r->threads_per_cta, p.sms,
                           (unsigned long long)fit);
    return 0;
}

static int host_threads(const ws_run *r)
{
    long n = r->opt->threads > 0 ? r->opt->threads : sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1 || r->sink || r->v->cooperative)
        n = 1;
    if ((uint64_t)n > r->nctas)
        n = (long)r->nctas;
    return n < 1 ? 1 : (int)n;
}

static int run_workers(ws_run *r, ws_worker *wks, int nwk, ws_error *err)
{
    for (int k = 0; k < nwk; k++) {
        wks[k].run = r;
        wks[k].index = k;
        ws_error_clear(&wks[k].err);
        if (ws_stats_alloc(&wks[k]) || ws_x_cta_init(&wks[k]))
            return ws_error_set(err, WS_ERR_NOMEM, "out of memory setting up CTA state");
    }
    if (r->v->cooperative) {
        grid_main(&wks[0]);
        if (r->failed) {
            *err = r->err;
            return err->code;
        }
        return 0;
    }
    pthread_t *th = calloc((size_t)nwk, sizeof *th);
    if (!th)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory");
    int started = 0;
    for (int k = 1; k < nwk; k++, started++)
        if (pthread_create(&th[k], NULL, worker_main, &wks[k]))
            break;
    worker_main(&wks[0]);
    for (int k = 1; k <= started; k++)
        pthread_join(th[k], NULL);
    free(th);
    if (r->failed) {
        *err = r->err;
        return err->code;
    }
    return 0;
}

static int report_barrier_skips(const ws_run *r, ws_worker *wks, int nwk, ws_result *res)
{
    int n = 0;
    for (int k = 0; k < nwk; k++)
        for (int i = 0; i < wks[k].nskips; i++) {
            int dup = 0;
            for (int j = 0; j < k && !dup; j++)
                for (int q = 0; q < wks[j].nskips && !dup; q++)
                    dup = wks[j].skips[q].pc == wks[k].skips[i].pc &&
                          wks[j].skips[q].fn == wks[k].skips[i].fn;
            if (dup)
                continue;
            n++;
            const ws_function *fn = &r->m->funcs[wks[k].skips[i].fn];
            const ws_inst *in = &fn->insts[wks[k].skips[i].pc];
            const char *file = in->file > 0 && in->file < r->m->nfiles ? r->m->files[in->file] : "";
            const char *base = strrchr(file, '/');
            int rc = ws_result_add_warning(res,
                "barrier at PC %d (%s:%d) completed in CTA %u while %d warp(s) had exited "
                "without reaching it: a warp that skips a barrier no longer holds it back",
                wks[k].skips[i].pc, base ? base + 1 : file, in->line, wks[k].skips[i].cta,
                wks[k].skips[i].exited);
            if (rc)
                return rc;
        }
    return ws_result_set_metric(res, WS_M(SIM_BARRIER_SKIPS), n);
}

static int fill_result(ws_run *r, ws_worker *wks, int nwk, int nthreads, ws_result *res,
                       ws_error *err)
{
    const ws_spec *s = r->spec;
    const ws_variant *v = r->v;
    snprintf(res->source, sizeof res->source, "sim:%s", r->policy->name);
    snprintf(res->workload, sizeof res->workload, "%s", s->name);
    snprintf(res->variant, sizeof res->variant, "%s", v->name);
    snprintf(res->kernel, sizeof res->kernel, "%s", v->kernel);
    memcpy(res->grid, r->grid, sizeof res->grid);
    memcpy(res->block, r->block, sizeof res->block);
    res->smem_dynamic = v->smem_dynamic;
    ws_spec_params_string(s, res->params, sizeof res->params);
    res->seed = s->seed;
    snprintf(res->device_json, sizeof res->device_json,
             "{\"model\":\"warpscope-sim\",\"reconvergence\":\"%s\",\"host_threads\":%d,"
             "\"timing\":%s}", r->policy->name, nthreads,
             r->sink ? "true" : "false");
    int rc = ws_stats_fill(r, wks, nwk, res, err);
    if (rc)
        return rc;
    if (r->opt->detect_races && (rc = ws_race_merge(r, wks, nwk, res)))
        return ws_error_set(err, rc, "out of memory reporting races");
    if (r->printf_dropped &&
        ws_result_add_warning(res, "printf: %zu bytes past the first %zu dropped",
                              r->printf_dropped, r->printed))
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory");
    if (r->opt->detect_races && !r->shadow_global)
        ws_result_add_warning(res, "race detection on global memory skipped: buffers too large");
    if ((rc = report_barrier_skips(r, wks, nwk, res)))
        return ws_error_set(err, rc, "out of memory");
    ws_result_set_metric(res, WS_M(SIM_CTAS), (double)r->nctas);
    ws_result_set_metric(res, WS_M(SIM_CTAS_AT_ONCE), (double)ws_run_ctas_at_once(r));
    ws_result_set_metric(res, WS_M(SIM_WARPS), (double)(r->nctas * (uint64_t)r->nwarps));
    return ws_result_derive_metrics(res);
}

static int run_common(const ws_module *m, const ws_spec *s, const ws_variant *v,
                      const ws_sim_launch *raw, ws_buffers *bufs, const ws_sim_options *opt,
                      ws_result *res, ws_error *err)
{
    ws_sim_options defaults;
    if (!opt) {
        ws_sim_options_default(&defaults);
        opt = &defaults;
    }
    ws_run r;
    memset(&r, 0, sizeof r);
    r.m = m;
    r.spec = s;
    r.v = v;
    r.raw = raw;
    r.opt = opt;
    r.policy = ws_reconv_find(opt->reconvergence);
    if (!r.policy)
        return ws_error_set(err, WS_ERR_USAGE, "unknown reconvergence model '%s' (known: ipdom)",
                            opt->reconvergence);
    if ((r.entry = find_entry(m, v, err)) < 0)
        return err->code;
    pthread_mutex_init(&r.lock, NULL);
    r.stop_at = UINT64_MAX;
    int rc = prepare(&r, bufs, err);
    if (!rc && v->cooperative)
        rc = check_coresident(&r, err);
    ws_timing *timing = NULL;
    ws_static_desc desc;
    memset(&desc, 0, sizeof desc);
    if (!rc && r.ntimelines > 0)
        r.sinks[r.nsinks++] = ws_timeline_sink(&r);
    if (!rc && opt->timing) {
        ws_launch_shape shape;
        memset(&shape, 0, sizeof shape);
        memcpy(shape.grid, r.grid, sizeof shape.grid);
        memcpy(shape.block, r.block, sizeof shape.block);
        shape.smem_bytes = (uint32_t)r.shared_bytes;
        shape.regs_per_thread = opt->resources ? opt->resources->regs : 0;
        shape.footprint_bytes = ws_buffers_bytes(bufs);
        rc = ws_timing_ptx_desc(m, r.entry, &desc);
        if (rc)
            rc = ws_error_set(err, rc, "out of memory for the timing model");
        if (!rc)
            rc = ws_timing_new(opt->gpu_preset, &desc, &shape, &timing, err);
        if (!rc) {
            r.sinks[r.nsinks] = ws_timing_sink(timing);
            r.sink = &r.sinks[r.nsinks++];
        }
    }
    int nwk = host_threads(&r);
    ws_run_gpu(&r, NULL);
    if (!rc && !v->cooperative) {
        r.meet = ctas_meet(m, r.entry);
        r.share = r.meet && ws_function_reaches(m, r.entry, has_global_fetch_op, NULL) >= 0;
        r.resident = ws_run_resident(&r, opt->resources ? opt->resources->regs : 0, nwk,
                                     (uint64_t)r.nwarps * 64 * 1024 + r.shared_bytes * 5,
                                     WS_RESIDENT_BYTES);
    }
    r.progress_step = r.nctas / 100 ? r.nctas / 100 : 1;
    ws_worker *wks = rc ? NULL : calloc((size_t)nwk, sizeof *wks);
    if (!rc && !wks)
        rc = ws_error_set(err, WS_ERR_NOMEM, "out of memory");
    if (!rc)
        rc = run_workers(&r, wks, nwk, err);
    if (!rc)
        rc = fill_result(&r, wks, nwk, nwk, res, err);
    if (!rc && timing)
        rc = ws_timing_finish(timing, res, err);
    for (int k = 0; wks && k < nwk; k++) {
        if (wks[k].run) {
            ws_stats_free(&wks[k]);
            ws_x_cta_free(&wks[k].cta);
        }
        free(wks[k].races);
    }
    free(wks);
    if (timing)
        ws_timing_free(timing);
    ws_static_desc_free(&desc);
    release(&r, bufs);
    pthread_mutex_destroy(&r.lock);
    return rc;
}

/* ---------------------------------------------------------------- launch sequences */

typedef struct ws_seq {
    const ws_spec *s;
    ws_buffers *bufs;
    const ws_sim_options *opt;
    ws_run_one_fn one;
    void *ctx;
    ws_result *sum;
} ws_seq;

/* One launch of the sequence: run, then merged; an error names the launch. */
static int seq_launch(void *ctx, const ws_launch *l, ws_error *err)
{
    ws_seq *q = ctx;
    ws_result one;
    ws_result_init(&one);
    int rc = q->one(q->ctx, l->v, q->opt, &one, err);
    if (rc == WS_OK && ws_result_add_launch(q->sum, l, &one) != WS_OK)
        rc = ws_error_set(err, WS_ERR_NOMEM, "out of memory");
    ws_result_free(&one);
    int at_launch_line = err->line == l->v->line && !strcmp(err->file, q->s->path);
    if (rc != WS_OK && rc != WS_ERR_NOMEM && at_launch_line) {
        char msg[sizeof err->msg + 512];
        snprintf(msg, sizeof msg, "launch %d (%s%s%s): %s", l->index, l->v->kernel,
                 l->vars[0] ? ", " : "", l->vars, err->msg);
        msg[sizeof err->msg - 1] = '\0';
        memcpy(err->msg, msg, sizeof err->msg);
    } else if (rc != WS_OK && rc != WS_ERR_NOMEM) {
        char msg[sizeof err->msg + 1024];
        const char *base = strrchr(q->s->path, '/');
        snprintf(msg, sizeof msg, "launch %d (%s, %s:%d%s%s): %s", l->index, l->v->kernel,
                 base ? base + 1 : q->s->path, l->v->line, l->vars[0] ? ", " : "", l->vars,
                 err->msg);
        msg[sizeof err->msg - 1] = '\0';
        memcpy(err->msg, msg, sizeof err->msg);
    }
    return rc;
}

/* `while` and `set` on the simulator's buffers: host memory, between launches. */
static int seq_read(void *ctx, int buffer, uint64_t index, void *elem, ws_error *err)
{
    return ws_buffers_read_elem(((ws_seq *)ctx)->bufs, buffer, index, elem, err);
}

static int seq_write(void *ctx, int buffer, uint64_t index, const void *elem, ws_error *err)
{
    return ws_buffers_write_elem(((ws_seq *)ctx)->bufs, buffer, index, elem, err);
}

int ws_run_sequence(const ws_spec *s, const ws_variant *v, ws_buffers *bufs,
                    const ws_sim_options *opt, ws_run_one_fn one, void *ctx, ws_result *res,
                    ws_error *err)
{
    ws_sim_options with;
    if (opt)
        with = *opt;
    else
        ws_sim_options_default(&with);
    ws_global_carry carry = {0};
    with.carry = &carry;
    ws_seq q = {s, bufs, &with, one, ctx, res};
    ws_launch_host h = {&q, seq_launch, seq_read, seq_write};
    int rc = ws_variant_launches(s, v, &h, err);
    global_carry_free(&carry);
    if (rc == WS_OK)
        rc = ws_result_launches_finish(res) ? ws_error_set(err, WS_ERR_NOMEM, "out of memory")
                                            : WS_OK;
    if (rc == WS_OK)
        snprintf(res->variant, sizeof res->variant, "%s", v->name);
    return rc;
}

typedef struct ws_ptx_one {
    const ws_module *m;
    const ws_spec *s;
    ws_buffers *bufs;
} ws_ptx_one;

static int ptx_one(void *ctx, const ws_variant *v, const ws_sim_options *with, ws_result *res,
                   ws_error *err)
{
    ws_ptx_one *o = ctx;
    ws_sim_options opt = *with;
    ws_kernel_resources k;
    ws_error ignored;
    if (opt.timing && opt.resources_ptx &&
        ws_ptx_resources(opt.resources_ptx, v->kernel, &k, &ignored) == WS_OK)
        opt.resources = &k;
    return run_common(o->m, o->s, v, NULL, o->bufs, &opt, res, err);
}

int ws_sim_run(const ws_module *m, const ws_spec *s, const ws_variant *v, ws_buffers *bufs,
               const ws_sim_options *opt, ws_result *res, ws_error *err)
{
    if (!ws_variant_is_sequence(v))
        return run_common(m, s, v, NULL, bufs, opt, res, err);
    ws_ptx_one o = {m, s, bufs};
    return ws_run_sequence(s, v, bufs, opt, ptx_one, &o, res, err);
}

/* A raw launch runs as a one-variant spec with no arguments; pack_params takes its bytes. */
void ws_launch_spec(const ws_sim_launch *l, ws_spec *s, ws_variant *v)
{
    memset(s, 0, sizeof *s);
    memset(v, 0, sizeof *v);
    snprintf(s->name, sizeof s->name, "%s", l->workload);
    snprintf(s->path, sizeof s->path, "%s", l->workload);
    snprintf(v->name, sizeof v->name, "%s", l->variant);
    snprintf(v->kernel, sizeof v->kernel, "%s", l->kernel);
    memcpy(v->grid, l->grid, sizeof v->grid);
    memcpy(v->block, l->block, sizeof v->block);
    v->smem_dynamic = l->smem_dynamic;
    s->variants = v;
    s->nvariants = 1;
}

int ws_sim_run_launch(const ws_module *m, const ws_sim_launch *l, ws_buffers *bufs,
                      const ws_sim_options *opt, ws_result *res, ws_error *err)
{
    ws_spec *s = calloc(1, sizeof *s);
    ws_variant *v = calloc(1, sizeof *v);
    int rc = !s || !v ? ws_error_set(err, WS_ERR_NOMEM, "out of memory") : WS_OK;
    if (rc == WS_OK) {
        ws_launch_spec(l, s, v);
        rc = run_common(m, s, v, l, bufs, opt, res, err);
    }
    free(v);
    free(s);
    return rc;
}

/* ---------------------------------------------------------------- shared with the SASS model */

int ws_run_setup(ws_run *r, ws_buffers *bufs, ws_error *err)
{
    if ((r->entry = find_entry_in(r->m, r->v, 0, err)) < 0)
        return err->code;
    int rc = prepare(r, bufs, err);
    if (!rc && r->v->cooperative)
        rc = check_coresident(r, err);
    return rc;
}

void ws_run_teardown(ws_run *r, ws_buffers *bufs)
{
    release(r, bufs);
}
