/*
 * maxrss REPORT PROGRAM ARGS...: runs PROGRAM (stdin, stdout and stderr
 * inherited), then writes "<exit status> <peak RSS in KiB>" to the file
 * REPORT.  A killed program reports 128 + the signal number.
 *
 * A process's peak RSS survives exec and starts from its parent's at fork,
 * so measured from a big parent (python) it is the parent's; from this
 * small one it is the program's own (tests/test_enc_out.py).
 */
#define _DEFAULT_SOURCE 1
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: maxrss REPORT PROGRAM [ARGS...]\n");
        return 2;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("maxrss: fork");
        return 2;
    }
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        perror("maxrss: exec");
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid) {
        perror("maxrss: wait4");
        return 2;
    }
    FILE *f = fopen(argv[1], "w");
    if (!f) {
        perror("maxrss: report");
        return 2;
    }
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    fprintf(f, "%d %ld\n", code, ru.ru_maxrss);
    return fclose(f) ? 2 : 0;
}
