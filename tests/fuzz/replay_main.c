/* A main() for the fuzz targets without libFuzzer: runs
 * LLVMFuzzerTestOneInput once on every file named (directories: every file
 * in them), so the regression inputs and the seed corpus replay in the
 * ordinary ctest suite with any compiler (and under its sanitizer builds).
 *   <target>_replay [--seeds DIR SUBDIR] [FILE|DIR]...
 * --seeds writes the seed corpus into DIR first (fuzz_seed_corpus.c, linked
 * in) and replays DIR/SUBDIR ("cases", or "programs" for fuzz_api_misuse).
 * A check that fails aborts, as under libFuzzer.  Prints the count run; a
 * run of no input at all is a failure (nothing was checked).
 * HWC_VEC_STRIDE=N (set by the valgrind run, as for the vector tests) keeps
 * every Nth input of the generated seeds; regression inputs always run. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int fz_seed_corpus_main(int argc, char **argv);

static unsigned long ran, seen, stride = 1;

static int run_file(const char *path) {
    if (!strstr(path, "/regress/") && seen++ % stride != 0)
        return 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    static uint8_t buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, f);
    int err = ferror(f);
    fclose(f);
    if (err) {
        perror(path);
        return 1;
    }
    /* A copy of exactly the input's size, so ASan sees reads past it. */
    uint8_t *copy = malloc(n ? n : 1);
    if (!copy)
        return 1;
    memcpy(copy, buf, n);
    LLVMFuzzerTestOneInput(copy, n);
    free(copy);
    ran++;
    return 0;
}

static int run_path(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode))
        return run_file(path);
    DIR *d = opendir(path);
    if (!d) {
        perror(path);
        return 1;
    }
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        rc |= run_path(sub);
    }
    closedir(d);
    return rc;
}

int main(int argc, char **argv) {
    int rc = 0;
    const char *st = getenv("HWC_VEC_STRIDE");
    if (st && atol(st) > 1)
        stride = (unsigned long)atol(st);
    int first = 1;
    if (argc >= 4 && strcmp(argv[1], "--seeds") == 0) {
        char *gen_argv[] = {"fuzz_seed_corpus", argv[2], NULL};
        if (fz_seed_corpus_main(2, gen_argv) != 0)
            return 1;
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s", argv[2], argv[3]);
        rc |= run_path(sub);
        first = 4;
    }
    for (int i = first; i < argc; i++)
        rc |= run_path(argv[i]);
    printf("%s: %lu inputs replayed%s, all checks held\n", argv[0], ran,
           stride > 1 ? " (seeds thinned by HWC_VEC_STRIDE)" : "");
    return rc || ran == 0;
}
