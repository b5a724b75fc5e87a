/* spawn.c — runs the CUDA tools (nvcc, ptxas) for core: one child process with its
 * stdout and stderr in a file, waited for. The only place core starts a program. */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/core_internal.h"

extern char **environ;

int ws_spawn(char *const argv[], const char *out_path, const char *err_path)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (err_path && strcmp(err_path, out_path) != 0)
        posix_spawn_file_actions_addopen(&fa, 2, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    else
        posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        errno = rc;
        return -1;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    if (WIFEXITED(status)) {
        if (WEXITSTATUS(status) == 127) { /* the shell's "not found": could not start */
            errno = ENOENT;
            return -1;
        }
        return WEXITSTATUS(status);
    }
    return -2;
}
