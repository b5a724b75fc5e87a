/* module.c — the PTX front end's public entry points (sim.h): parse text or a file into a
 * ws_module (lex, parse, lay out, build the CFG), free it, list its entries and say whether
 * each can run. The grammar is in ptx_parse*.c, the control-flow analysis in cfg.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/ptx_parse.h"

void ws_module_free(ws_module *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->nfiles; i++)
        free(m->files[i]);
    free(m->files);
    for (int i = 0; i < m->nglobals; i++)
        free(m->globals[i].init);
    free(m->globals);
    for (int i = 0; i < m->naddrinits; i++)
        free(m->addrinits[i].fn);
    free(m->addrinits);
    for (int i = 0; i < m->nfuncs; i++)
        ws_ptx_function_free(&m->funcs[i]);
    free(m->funcs);
    free(m->text);
    free(m);
}

static void ctx_free(ws_pctx *c)
{
    ws_strmap_free(&c->funcs);
    ws_strmap_free(&c->externs);
    ws_strmap_free(&c->globals);
    ws_strmap_free(&c->regs);
    ws_strmap_free(&c->locals);
    ws_strmap_free(&c->params);
    ws_strmap_free(&c->labels);
    ws_strmap_free(&c->inlined);
    while (c->nbinds > 0)
        free((char *)c->binds[--c->nbinds].s);
    free(c->binds);
    free(c->lfix);
    free(c->calls);
    free(c->t);
}

int ws_ptx_parse(const char *text, size_t len, const char *name, ws_module **out, ws_error *err)
{
    *out = NULL;
    if (!name)
        name = "<ptx>";
    ws_module *m = calloc(1, sizeof *m);
    if (!m)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory parsing %s", name);
    snprintf(m->name, sizeof m->name, "%s", name);
    m->text = malloc(len + 1);
    if (!m->text) {
        free(m);
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory parsing %s", name);
    }
    memcpy(m->text, text, len);
    m->text[len] = 0;
    ws_pctx c;
    memset(&c, 0, sizeof c);
    c.m = m;
    c.name = name;
    c.err = err;
    ws_error_clear(err);
    int rc = ws_ptx_lex(m->text, len, name, &c.t, &c.nt, err);
    if (rc == WS_OK)
        rc = ws_parse_module(&c);
    if (rc == WS_OK && m->version_major == 0)
        rc = ws_error_at(err, WS_ERR_PTX, name, 1, "not PTX: no .version directive");
    if (rc == WS_OK)
        rc = ws_cfg_build(m, err);
    if (rc == WS_OK)
        rc = ws_contract_fmad(m, err);
    ctx_free(&c);
    if (rc != WS_OK) {
        ws_module_free(m);
        return rc;
    }
    *out = m;
    return WS_OK;
}

int ws_ptx_load(const char *path, ws_module **out, ws_error *err)
{
    char *text;
    size_t len;
    *out = NULL;
    int rc = ws_read_file(path, &text, &len, err);
    if (rc != WS_OK)
        return rc;
    rc = ws_ptx_parse(text, len, path, out, err);
    free(text);
    return rc;
}

int ws_module_entry_count(const ws_module *m)
{
    int n = 0;
    for (int i = 0; i < m->nfuncs; i++)
        n += m->funcs[i].is_entry != 0;
    return n;
}

const char *ws_module_entry_name(const ws_module *m, int i)
{
    for (int k = 0; k < m->nfuncs; k++)
        if (m->funcs[k].is_entry && i-- == 0)
            return m->funcs[k].name;
    return NULL;
}

/* Depth-first over the call graph from `fn`; `seen` has m->nfuncs entries. */
static int reach(const ws_module *m, int fn, char *seen,
                 int (*hit)(const ws_function *f, void *ctx), void *ctx)
{
    if (seen[fn])
        return -1;
    seen[fn] = 1;
    const ws_function *f = &m->funcs[fn];
    if (hit(f, ctx))
        return fn;
    for (int pc = 0; pc < f->ninsts; pc++) {
        const ws_inst *in = &f->insts[pc];
        if (in->op == WS_OP_CALL && in->nsrc > 0 && in->src[0].kind == WS_O_FUNC &&
            in->src[0].imm >= 0 && in->src[0].imm < m->nfuncs) {
            int found = reach(m, (int)in->src[0].imm, seen, hit, ctx);
            if (found >= 0)
                return found;
        }
    }
    return -1;
}

int ws_function_reaches(const ws_module *m, int fn, int (*hit)(const ws_function *f, void *ctx),
                        void *ctx)
{
    char *seen = calloc((size_t)m->nfuncs, 1);
    if (!seen)
        return -2;
    int found = reach(m, fn, seen, hit, ctx);
    free(seen);
    return found;
}

static int unsupported(const ws_function *f, void *ctx)
{
    (void)ctx;
    return f->unsupported != NULL;
}

int ws_function_check(const ws_module *m, int fn, ws_error *err)
{
    int bad = ws_function_reaches(m, fn, unsupported, NULL);
    if (bad == -2)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory");
    if (bad < 0)
        return WS_OK;
    *err = *m->funcs[bad].unsupported;
    snprintf(err->kernel, sizeof err->kernel, "%.*s", (int)sizeof err->kernel - 1, m->funcs[fn].name);
    if (bad != fn) {
        size_t n = strlen(err->msg);
        snprintf(err->msg + n, sizeof err->msg - n, " (in function '%s', called by the kernel)",
                 m->funcs[bad].name);
    }
    return err->code;
}

int ws_module_entry_check(const ws_module *m, int i, ws_error *err)
{
    ws_error_clear(err);
    for (int k = 0, left = i; k < m->nfuncs; k++)
        if (m->funcs[k].is_entry && left-- == 0)
            return ws_function_check(m, k, err);
    return ws_error_set(err, WS_ERR_NOTFOUND, "no entry %d in %s", i, m->name);
}
