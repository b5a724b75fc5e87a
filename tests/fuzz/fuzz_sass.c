/* fuzz_sass.c — libFuzzer target for the SASS parser: any byte string must parse or fail
 * with an error value (never crash, hang, leak or read out of bounds), and a parsed module
 * must be self-consistent. Built only with -DWS_FUZZ=ON and clang; see
 * tests/fuzz/CMakeLists.txt. tests/sass/test_sass_mutate.c runs the same checks over
 * mutated real SASS without a fuzzing engine. */
#include <stddef.h>
#include <stdint.h>
#include "sim/sass_ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ws_sass_module *m = NULL;
    ws_error err;
    if (ws_sass_parse((const char *)data, size, "fuzz.sass", &m, &err) == WS_OK) {
        for (int k = 0; k < m->nkernels; k++) {
            const ws_sass_kernel *kn = &m->kernels[k];
            for (int i = 0; i < kn->ninsts; i++) {
                const ws_sass_inst *in = &kn->insts[i];
                if (in->op >= WS_SOP__COUNT || in->nopnd > WS_SASS_MAXOPND ||
                    in->target < -1 || in->target > kn->ninsts ||
                    in->file >= kn->nfiles || (i && in->offset <= in[-1].offset) ||
                    ws_sass_index_of(kn, in->offset) != i)
                    __builtin_trap();
                for (int o = 0; o < in->nopnd; o++)
                    if (in->o[o].sym >= kn->nsyms)
                        __builtin_trap();
            }
        }
        ws_sass_module_free(m);
    } else if (m != NULL || err.code == WS_OK || err.msg[0] == 0) {
        __builtin_trap();
    }
    return 0;
}
