/*
 * LD_PRELOAD shim for tests/test_enc_out.py: every open with O_TMPFILE
 * fails with EOPNOTSUPP, as on a file system without unnamed files (or a
 * kernel before 3.11), so the CLI's fallback paths run on this machine.
 */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>

#ifdef O_TMPFILE
#define REFUSE(flags) (((flags) & O_TMPFILE) == O_TMPFILE)
#else
#define REFUSE(flags) 0
#endif

typedef int (*open_fn)(const char *, int, ...);
typedef int (*openat_fn)(int, const char *, int, ...);

/* The mode argument exists only with O_CREAT or O_TMPFILE. */
#define MODE_ARG(flags, mode)                  \
    do {                                       \
        va_list ap;                            \
        va_start(ap, flags);                   \
        mode = va_arg(ap, int);                \
        va_end(ap);                            \
    } while (0)

#define WRAP_OPEN(name)                                                  \
    int name(const char *path, int flags, ...);                          \
    int name(const char *path, int flags, ...) {                         \
        int mode = 0;                                                    \
        if (flags & (O_CREAT | O_DIRECTORY))                             \
            MODE_ARG(flags, mode);                                       \
        if (REFUSE(flags)) {                                             \
            errno = EOPNOTSUPP;                                          \
            return -1;                                                   \
        }                                                                \
        open_fn real = (open_fn)dlsym(RTLD_NEXT, #name);                 \
        return real(path, flags, mode);                                  \
    }

#define WRAP_OPENAT(name)                                                \
    int name(int dir, const char *path, int flags, ...);                 \
    int name(int dir, const char *path, int flags, ...) {                \
        int mode = 0;                                                    \
        if (flags & (O_CREAT | O_DIRECTORY))                             \
            MODE_ARG(flags, mode);                                       \
        if (REFUSE(flags)) {                                             \
            errno = EOPNOTSUPP;                                          \
            return -1;                                                   \
        }                                                                \
        openat_fn real = (openat_fn)dlsym(RTLD_NEXT, #name);             \
        return real(dir, path, flags, mode);                             \
    }

WRAP_OPEN(open)
WRAP_OPEN(open64)
WRAP_OPENAT(openat)
WRAP_OPENAT(openat64)
