/* sass_ops.c — the SASS opcode and modifier tables, expanded from sass_ops.def and
 * sass_mods.def, name lookups for the parser, and the handler of rows the parser reads but
 * no semantics exist for yet. Semantics live in sass_exec*.c, sass_alu.c, sass_fp.c...;
 * the parser in sass_parse.c. */
#include "sim/sass_exec.h"
#include "sim/ir.h"

#include <string.h>

_Static_assert(WS_SMOD__COUNT <= WS_SMOD_UNKNOWN, "ws_sass_inst.mods holds 191 modifier bits "
               "and the unknown-modifier bit");
_Static_assert(WS_SMOD__COUNT < 0xff, "modifier fields use 0xff for none");

const ws_sass_opinfo ws_sass_ops[WS_SOP__COUNT] = {
#define WS_SOP(id, nm, handler, cls, lat, flags, nmin, nmax) \
    [WS_SOP_##id] = {nm, WS_CLS_##cls, #lat, (uint32_t)(flags), nmin, nmax},
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
    return ws_sass_fault(w, in, lane, 0, WS_ERR_UNSUPPORTED, "unsupported SASS: %d operands "
                         "(the table has %d..%d)", in->nopnd, ws_sass_ops[row].nmin,
                         ws_sass_ops[row].nmax);
}
