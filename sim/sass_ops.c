/* sass_ops.c — the SASS opcode and modifier tables, expanded from sass_ops.def and
 * sass_mods.def, name lookups for the parser, and the handler of rows the parser reads but
 * no semantics exist for yet. Semantics live in sass_exec*.c, sass_alu.c, sass_fp.c...;
 * the parser in sass_parse.c. */
#include "sim/sass_exec.h"
#include "sim/ir.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

_Static_assert(WS_SMOD__COUNT <= WS_SMOD_UNKNOWN, "ws_sass_inst.mods holds every modifier "
               "bit and the unknown-modifier bit (grow WS_SASS_MODWORDS)");
_Static_assert(WS_SMOD__COUNT < 0xff, "modifier fields use 0xff for none");

const ws_sass_opinfo ws_sass_ops[WS_SOP__COUNT] = {
#define WS_SOP(id, nm, handler, cls, lat, flags, nmin, nmax, mods) \
    [WS_SOP_##id] = {nm, WS_CLS_##cls, #lat, (uint32_t)(flags), nmin, nmax, mods},
#include "sim/sass_ops.def"
#undef WS_SOP
};

static const struct {
    const char *text;
    ws_sass_modkind kind;
} ws_sass_mods[WS_SMOD__COUNT] = {
#define WS_SMOD(id, txt, kind) [WS_SMOD_##id] = {txt, WS_SMODK_##kind},
#include "sim/sass_mods.def"
#undef WS_SMOD
};

int ws_sass_op_find(const char *name, size_t len)
{
    if (len == 0) /* the UNKNOWN row's empty name is never found */
        return -1;
    for (int i = 0; i < WS_SOP__COUNT; i++)
        if (strlen(ws_sass_ops[i].name) == len && memcmp(ws_sass_ops[i].name, name, len) == 0)
            return i;
    return -1;
}

int ws_sass_mod_find(const char *text, size_t len)
{
    for (int i = 0; i < WS_SMOD__COUNT; i++)
        if (strlen(ws_sass_mods[i].text) == len && memcmp(ws_sass_mods[i].text, text, len) == 0)
            return i;
    return -1;
}

const char *ws_sass_mod_text(int mod)
{
    return mod >= 0 && mod < WS_SMOD__COUNT ? ws_sass_mods[mod].text : "?";
}

ws_sass_modkind ws_sass_mod_kind(int mod)
{
    return mod >= 0 && mod < WS_SMOD__COUNT ? ws_sass_mods[mod].kind : WS_SMODK_FLAG;
}

/* ---------------------------------------------------------------- the rows' modifiers */

static uint64_t row_mods[WS_SOP__COUNT][WS_SASS_MODWORDS]; /* each row's list as bits */
static uint64_t hint_mods[WS_SASS_MODWORDS];
static char table_error[160];
static pthread_once_t row_mods_once = PTHREAD_ONCE_INIT;

static void build_row_mods(void)
{
    for (int m = 0; m < WS_SMOD__COUNT; m++)
        if (ws_sass_mods[m].kind == WS_SMODK_HINT)
            hint_mods[m >> 6] |= 1ull << (m & 63);
    for (int op = 0; op < WS_SOP__COUNT; op++)
        for (const char *p = ws_sass_ops[op].mods; *p;) {
            size_t len = strcspn(p, " ");
            int m = len ? ws_sass_mod_find(p, len) : -1;
            if ((m < 0 || ws_sass_mods[m].kind == WS_SMODK_HINT) && !table_error[0])
                snprintf(table_error, sizeof table_error, "row %s lists '%.*s', %s",
                         ws_sass_ops[op].name, (int)len, p, m < 0 ? "not in sim/sass_mods.def"
                         : "a hint (every row accepts hints)");
            if (m >= 0)
                row_mods[op][m >> 6] |= 1ull << (m & 63);
            p += len;
            p += strspn(p, " ");
        }
}

int ws_sass_row_stray_mod(int op, const uint64_t mods[WS_SASS_MODWORDS])
{
    pthread_once(&row_mods_once, build_row_mods);
    for (int i = 0; i < WS_SASS_MODWORDS; i++) {
        uint64_t stray = mods[i] & ~row_mods[op][i] & ~hint_mods[i]; /* the unknown bit too */
        if (stray)
            return 64 * i + __builtin_ctzll(stray);
    }
    return -1;
}

const char *ws_sass_table_error(void)
{
    pthread_once(&row_mods_once, build_row_mods);
    return table_error[0] ? table_error : NULL;
}

/* Handler `unsupported` (the UNKNOWN row): a line the parser kept without a row to run it
 * by (an opcode the table lacks, or an operand count outside its row's range). Running it
 * is an error naming it, its PC and its source line; the CLI then runs the kernel on the
 * PTX model. */
int ws_sass_x_unsupported(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec,
                          ws_sass_fx *fx)
{
    (void)fx;
    if (!exec)
        return 0;
    int lane = __builtin_ctz(exec);
    const char *dot = strchr(in->name, '.');
    int row = ws_sass_op_find(in->name, dot ? (size_t)(dot - in->name) : strlen(in->name));
    if (row < 0)
        return ws_sass_fault(w, in, lane, 0, WS_ERR_UNSUPPORTED, "unsupported SASS: opcode "
                             "not in the table (sim/sass_ops.def)");
    for (const char *m = dot; m && *m; m = strchr(m + 1, '.')) {
        const char *e = strchr(m + 1, '.');
        size_t len = e ? (size_t)(e - m - 1) : strlen(m + 1);
        if (ws_sass_mod_find(m + 1, len) < 0)
            return ws_sass_fault(w, in, lane, 0, WS_ERR_UNSUPPORTED, "unsupported SASS: "
                                 "modifier .%.*s not in the table (sim/sass_mods.def)",
                                 (int)len, m + 1);
    }
    int stray = ws_sass_row_stray_mod(row, in->mods);
    if (stray >= 0)
        return ws_sass_fault(w, in, lane, 0, WS_ERR_UNSUPPORTED, "unsupported SASS: modifier "
                             ".%s is not one the %s row reads (sim/sass_ops.def)",
                             ws_sass_mod_text(stray), ws_sass_ops[row].name);
    return ws_sass_fault(w, in, lane, 0, WS_ERR_UNSUPPORTED, "unsupported SASS: %d operands "
                         "(the table has %d..%d)", in->nopnd, ws_sass_ops[row].nmin,
                         ws_sass_ops[row].nmax);
}
