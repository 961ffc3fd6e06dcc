/* Directory reading for rv32 programs linked with picolibc (whose
 * <dirent.h> is unsupported) and run under Linux: opendir/readdir/closedir
 * over getdents64, in ../linux.c. Found before picolibc's header because
 * the toolchain puts this directory first. */
#ifndef HWC_RV32_SHIM_DIRENT_H
#define HWC_RV32_SHIM_DIRENT_H

#include <stdint.h>

struct dirent {
    uint64_t d_ino;
    int64_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[256];
};

typedef struct hwc_rv32_dir DIR;

DIR *opendir(const char *path);
struct dirent *readdir(DIR *dir);
int closedir(DIR *dir);

#endif
