/* disasm.c — SASS text for the per-instruction rows: runs `cuobjdump -sass` on the cubin
 * the backend linked and fills ws_inst_stat.text by (function, PC offset). Best effort:
 * without cuobjdump the rows keep an empty text. Not counting anything (sass.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "profiler/profiler_internal.h"

// A line "/*0a40*/  @!P0 BRA `(.L_x_3) ;" gives pc 0xa40 and text "@!P0 BRA `(.L_x_3)".
static int parse_sass_line(const char *line, int *pc, char *text, size_t n)
{
    const char *open = strstr(line, "/*");
    if (!open)
        return 0;
    char *end;
    long v = strtol(open + 2, &end, 16);
    if (end == open + 2 || strncmp(end, "*/", 2) != 0)
        return 0;
    const char *p = end + 2;
    while (*p == ' ' || *p == '\t')
        p++;
    const char *semi = strchr(p, ';');
    if (!semi || semi == p)
        return 0;
    size_t len = (size_t)(semi - p);
    while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
        len--;
    if (len >= n)
        len = n - 1;
    memcpy(text, p, len);
    text[len] = '\0';
    *pc = (int)v;
    return 1;
}

static void apply(ws_result *res, int first, const char *function, int pc, const char *text)
{
    for (int i = first; i < res->ninsts; i++)
        if (res->insts[i].pc == pc && !strcmp(res->insts[i].function, function))
            snprintf(res->insts[i].text, sizeof res->insts[i].text, "%s", text);
}

void ws_prof_sass_text(const void *cubin, size_t size, ws_result *res, int first)
{
    char path[] = "/tmp/warpscope-cubin-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return;
    int ok = write(fd, cubin, size) == (ssize_t)size;
    close(fd);
    char cmd[256], line[512], function[128] = "", text[96];
    snprintf(cmd, sizeof cmd, "cuobjdump -sass %s 2>/dev/null", path);
    FILE *p = ok ? popen(cmd, "r") : NULL;
    while (p && fgets(line, sizeof line, p)) {
        const char *f = strstr(line, "Function : ");
        int pc;
        if (f) {
            snprintf(function, sizeof function, "%s", f + 11);
            function[strcspn(function, " \r\n")] = '\0';
        } else if (function[0] && parse_sass_line(line, &pc, text, sizeof text)) {
            apply(res, first, function, pc, text);
        }
    }
    if (p)
        pclose(p);
    unlink(path);
}
