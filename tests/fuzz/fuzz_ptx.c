/* fuzz_ptx.c — libFuzzer target for the PTX front end: any byte string must parse or fail
 * with an error value (never crash, hang, leak or read out of bounds). Built only with
 * -DWS_FUZZ=ON and clang; see tests/fuzz/CMakeLists.txt. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "sim/ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ws_module *m = NULL;
    ws_error err;
    if (ws_ptx_parse((const char *)data, size, "fuzz.ptx", &m, &err) == WS_OK) {
        /* the IR must be self-consistent whenever parsing succeeds */
        for (int i = 0; i < m->nfuncs; i++) {
            const ws_function *f = &m->funcs[i];
            for (int pc = 0; pc < f->ninsts; pc++) {
                char name[96];
                ws_inst_opname(&f->insts[pc], name, sizeof name);
                if (f->insts[pc].block < 0 || f->insts[pc].block >= f->nblocks)
                    __builtin_trap();
            }
        }
        ws_module_free(m);
    } else if (m != NULL || err.code == WS_OK || err.msg[0] == 0) {
        __builtin_trap();
    }
    return 0;
}
