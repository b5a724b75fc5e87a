/* fuzz_spec.c — libFuzzer entry for the workload spec parser: any bytes must give either
 * a spec or a WS_ERR_SPEC-style error value, never a crash, leak or hang. */
#include "core/core.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    ws_define defs[1] = {{"N", "3"}};
    ws_spec *s = NULL;
    ws_error err;
    ws_error_clear(&err);
    /* Once with no defines, once with one, so the override path is exercised too. */
    if (ws_spec_parse(text, "fuzz.spec", NULL, 0, &s, &err) == WS_OK)
        ws_spec_free(s);
    ws_error_clear(&err);
    if (ws_spec_parse(text, "fuzz.spec", defs, 1, &s, &err) == WS_OK)
        ws_spec_free(s);
    char line[1024];
    ws_error_format(&err, line, sizeof line);
    free(text);
    return 0;
}
