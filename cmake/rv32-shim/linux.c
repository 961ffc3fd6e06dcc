/*
 * A small Linux system-call layer for rv32 programs linked with picolibc
 * (Debian has no rv32 Linux C library), so hwcrypt's tests, tool and
 * benchmark run under qemu-riscv32 user mode or on a real rv32 Linux kernel.
 *
 * picolibc is built for bare metal: it leaves the operating-system calls
 * (read, write, pread, open, close, lseek, sbrk, _exit, ...) and the standard
 * streams to the application. This file supplies them as Linux system calls
 * of the rv32 ABI (asm-generic numbers, 64-bit time and file offsets), plus
 * the process start-up picolibc's crt0 does not do under Linux: argc/argv/
 * environ from the initial stack, thread-local storage (picolibc's errno is
 * thread-local) from the program's PT_TLS header, and the standard streams.
 *
 * Values that picolibc defines differently from Linux (open flags, clock
 * ids, errno numbers above 34) are translated here.
 */
#define _DEFAULT_SOURCE 1 /* POSIX and BSD declarations under -std=c11 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio-bufio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Every definition here is called only by picolibc or the program, through
 * picolibc's prototypes; the ones without a prototype there are declared
 * here to keep -Wmissing-prototypes quiet. */
void hwc_rv32_start(long *initial_sp);
int getentropy(void *buf, size_t len);
void *sbrk(ptrdiff_t incr);
/* Auxiliary vector, for the library's capability probe (AT_HWCAP). */
unsigned long hwc_rv32_getauxval(unsigned long type);

/* asm-generic system-call numbers, as rv32 Linux uses them. */
enum {
    NR_mkdirat = 34,
    NR_unlinkat = 35,
    NR_openat = 56,
    NR_close = 57,
    NR_getdents64 = 61,
    NR_llseek = 62,
    NR_read = 63,
    NR_write = 64,
    NR_pread64 = 67,
    NR_exit_group = 94,
    NR_waitid = 95,
    NR_kill = 129,
    NR_getpid = 172,
    NR_brk = 214,
    NR_munmap = 215,
    NR_clone = 220,
    NR_mmap2 = 222,
    NR_mprotect = 226,
    NR_renameat2 = 276,
    NR_getrandom = 278,
    NR_statx = 291,
    NR_clock_gettime64 = 403,
};

static long linux_call(long nr, long a0, long a1, long a2, long a3, long a4, long a5) {
    register long r_a0 __asm__("a0") = a0;
    register long r_a1 __asm__("a1") = a1;
    register long r_a2 __asm__("a2") = a2;
    register long r_a3 __asm__("a3") = a3;
    register long r_a4 __asm__("a4") = a4;
    register long r_a5 __asm__("a5") = a5;
    register long r_a7 __asm__("a7") = nr;
    __asm__ volatile("ecall"
                     : "+r"(r_a0)
                     : "r"(r_a1), "r"(r_a2), "r"(r_a3), "r"(r_a4), "r"(r_a5), "r"(r_a7)
                     : "memory");
    return r_a0;
}
#define SYS3(nr, a, b, c) linux_call((nr), (long)(a), (long)(b), (long)(c), 0, 0, 0)

/* A negative Linux errno becomes -1 and errno (picolibc's numbering agrees
 * with Linux's up to ERANGE, 34; beyond that only ENOSYS is worth naming). */
static long result(long r) {
    if (r < 0 && r > -4096) {
        errno = -r <= 34 ? (int)-r : (-r == 38 ? ENOSYS : EIO);
        return -1;
    }
    return r;
}

/* ------------------------------------------------------------ files */

ssize_t read(int fd, void *buf, size_t n) {
    return result(SYS3(NR_read, fd, buf, n));
}

ssize_t write(int fd, const void *buf, size_t n) {
    return result(SYS3(NR_write, fd, buf, n));
}

int open(const char *path, int flags, ...) {
    static const struct {
        int pico, linux_flag;
    } map[] = {{O_CREAT, 0100}, {O_EXCL, 0200}, {O_TRUNC, 01000}, {O_APPEND, 02000}};
    int lf = flags & O_ACCMODE; /* 0, 1, 2 in both */
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (flags & map[i].pico)
            lf |= map[i].linux_flag;
    lf |= 02000000; /* O_CLOEXEC: nothing here execs, but never leak */
    const long at_fdcwd = -100;
    return (int)result(linux_call(NR_openat, at_fdcwd, (long)path, lf, 0644, 0, 0));
}

int close(int fd) {
    return (int)result(SYS3(NR_close, fd, 0, 0));
}

int unlink(const char *path) {
    return (int)result(SYS3(NR_unlinkat, -100 /* AT_FDCWD */, path, 0));
}

int mkdir(const char *path, mode_t mode) {
    return (int)result(SYS3(NR_mkdirat, -100 /* AT_FDCWD */, path, mode));
}

int rename(const char *from, const char *to) {
    return (int)result(linux_call(NR_renameat2, -100, (long)from, -100, (long)to, 0, 0));
}

/* The 64-bit offset in two registers, low word first (rv32 pairs need no
 * alignment). */
ssize_t pread(int fd, void *buf, size_t n, off_t offset) {
    const uint64_t off = (uint64_t)(int64_t)offset;
    return result(linux_call(NR_pread64, fd, (long)buf, (long)n, (long)(uint32_t)off, (long)(off >> 32), 0));
}

off_t lseek(int fd, off_t offset, int whence) {
    int64_t pos = 0;
    const uint64_t off = (uint64_t)(int64_t)offset;
    long r = linux_call(NR_llseek, fd, (long)(off >> 32), (long)(uint32_t)off, (long)&pos, whence, 0);
    if (result(r) < 0)
        return -1;
    return (off_t)pos;
}

/* Only what picolibc's stdio asks (st_mode: is it a terminal or a file;
 * st_size), from statx, rv32's only stat call. */
int fstat(int fd, struct stat *st) {
    struct {
        uint32_t mask, blksize;
        uint64_t attributes;
        uint32_t nlink, uid, gid;
        uint16_t mode, pad0;
        uint64_t ino, size, blocks, attributes_mask;
        unsigned char rest[256 - 64];
    } sx;
    const long at_empty_path = 0x1000, at_fdcwd = -100;
    (void)at_fdcwd;
    if (result(linux_call(NR_statx, fd, (long)"", at_empty_path, 0x7ff, (long)&sx, 0)) < 0)
        return -1;
    memset(st, 0, sizeof *st);
    st->st_mode = sx.mode;
    st->st_nlink = sx.nlink;
    st->st_size = (off_t)sx.size;
    st->st_blksize = sx.blksize;
    return 0;
}

int stat(const char *restrict path, struct stat *restrict st) {
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    int r = fstat(fd, st);
    close(fd);
    return r;
}

/* Directories: getdents64 records are {ino, off, reclen, type, name}. */
struct hwc_rv32_dir {
    int fd, pos, len;
    struct dirent entry;
    _Alignas(8) char buf[2048];
};

DIR *opendir(const char *path) {
    int fd = (int)result(linux_call(NR_openat, -100, (long)path, 0200000 /* O_DIRECTORY */ | 02000000, 0, 0, 0));
    if (fd < 0)
        return NULL;
    DIR *d = calloc(1, sizeof *d);
    if (!d) {
        close(fd);
        return NULL;
    }
    d->fd = fd;
    return d;
}

struct dirent *readdir(DIR *d) {
    if (d->pos >= d->len) {
        long r = SYS3(NR_getdents64, d->fd, d->buf, sizeof d->buf);
        if (result(r) <= 0)
            return NULL;
        d->len = (int)r;
        d->pos = 0;
    }
    const char *rec = d->buf + d->pos;
    unsigned short reclen;
    memcpy(&d->entry.d_ino, rec, 8);
    memcpy(&d->entry.d_off, rec + 8, 8);
    memcpy(&reclen, rec + 16, 2);
    d->entry.d_reclen = reclen;
    d->entry.d_type = (unsigned char)rec[18];
    strncpy(d->entry.d_name, rec + 19, sizeof d->entry.d_name - 1);
    d->entry.d_name[sizeof d->entry.d_name - 1] = 0;
    d->pos += reclen;
    return &d->entry;
}

int closedir(DIR *d) {
    int r = close(d->fd);
    free(d);
    return r;
}

int isatty(int fd) {
    struct stat st;
    return fstat(fd, &st) == 0 && S_ISCHR(st.st_mode);
}

/* ----------------------------------------------------------- memory */

/* malloc's heap grows with brk. */
void *sbrk(ptrdiff_t incr) {
    static uintptr_t brk_now;
    if (brk_now == 0)
        brk_now = (uintptr_t)SYS3(NR_brk, 0, 0, 0);
    const uintptr_t old = brk_now, want = old + (uintptr_t)incr;
    if ((uintptr_t)SYS3(NR_brk, want, 0, 0) != want) {
        errno = ENOMEM;
        return (void *)-1;
    }
    brk_now = want;
    return (void *)old;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset) {
    long r = linux_call(NR_mmap2, (long)addr, (long)len, prot, flags, fd, (long)(offset / 4096));
    return result(r) == -1 ? MAP_FAILED : (void *)r;
}

int munmap(void *addr, size_t len) {
    return (int)result(SYS3(NR_munmap, addr, len, 0));
}

int mprotect(void *addr, size_t len, int prot) {
    return (int)result(SYS3(NR_mprotect, addr, len, prot));
}

static unsigned long *auxv;

unsigned long hwc_rv32_getauxval(unsigned long type) {
    for (unsigned long *a = auxv; a && a[0] != 0; a += 2)
        if (a[0] == type)
            return a[1];
    return 0;
}

long sysconf(int name) {
    switch (name) {
    case _SC_PAGESIZE: {
        unsigned long page = hwc_rv32_getauxval(6 /* AT_PAGESZ */);
        return page ? (long)page : 4096;
    }
    case _SC_NPROCESSORS_ONLN:
        return 1; /* no threads in this environment */
    default:
        errno = EINVAL;
        return -1;
    }
}

/* ------------------------------------------------------------- time */

int clock_gettime(clockid_t clock_id, struct timespec *ts) {
    struct {
        int64_t sec, nsec;
    } kts;
    /* picolibc's CLOCK_MONOTONIC is 4, Linux's 1; everything else: realtime. */
    const long linux_clock = clock_id == CLOCK_MONOTONIC ? 1 : 0;
    if (result(SYS3(NR_clock_gettime64, linux_clock, &kts, 0)) < 0)
        return -1;
    ts->tv_sec = (time_t)kts.sec;
    ts->tv_nsec = (long)kts.nsec;
    return 0;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz) {
    struct timespec ts;
    (void)tz;
    if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
        return -1;
    tv->tv_sec = ts.tv_sec;
    tv->tv_usec = (suseconds_t)(ts.tv_nsec / 1000);
    return 0;
}

int getentropy(void *buf, size_t len) {
    uint8_t *p = buf;
    while (len != 0) {
        long r = SYS3(NR_getrandom, p, len, 0);
        if (result(r) < 0)
            return -1;
        p += r;
        len -= (size_t)r;
    }
    return 0;
}

/* ---------------------------------------------------------- process */

__attribute__((noreturn)) void _exit(int status) {
    for (;;)
        SYS3(NR_exit_group, status, 0, 0);
}

/* fork as clone(SIGCHLD): a copy of the address space, tp included. */
pid_t fork(void) {
    return (pid_t)result(linux_call(NR_clone, 17 /* SIGCHLD */, 0, 0, 0, 0, 0));
}

/* rv32 Linux has no wait4 (its rusage has 32-bit times): waitid, with the
 * wait status rebuilt from the siginfo (si_pid, si_status at bytes 12, 20). */
pid_t waitpid(pid_t pid, int *status, int options) {
    int32_t info[32] = {0};
    const long p_pid = 1, p_all = 0, wexited = 4;
    long r = linux_call(NR_waitid, pid > 0 ? p_pid : p_all, pid > 0 ? pid : 0, (long)info, wexited | options, 0, 0);
    if (result(r) < 0)
        return -1;
    const int32_t code = info[2], child_status = info[5];
    if (status)
        *status = code == 1 /* CLD_EXITED */ ? (child_status & 0xff) << 8
                                             : (child_status & 0x7f) | (code == 3 /* CLD_DUMPED */ ? 0x80 : 0);
    return (pid_t)info[3];
}

pid_t getpid(void) {
    return (pid_t)SYS3(NR_getpid, 0, 0, 0);
}

/* picolibc's raise() (abort, default signal actions) ends here. */
int kill(pid_t pid, int sig) {
    return (int)result(SYS3(NR_kill, pid, sig, 0));
}

char **environ;

/* Standard streams on file descriptors 0..2, buffered; flushed at exit. */
static char stdin_buf[256], stdout_buf[4096], stderr_buf[256];
static struct __file_bufio stdin_file =
    FDEV_SETUP_BUFIO(0, stdin_buf, sizeof stdin_buf, read, write, lseek, close, _FDEV_SETUP_READ, 0);
static struct __file_bufio stdout_file =
    FDEV_SETUP_BUFIO(1, stdout_buf, sizeof stdout_buf, read, write, lseek, close, _FDEV_SETUP_WRITE, 0);
static struct __file_bufio stderr_file =
    FDEV_SETUP_BUFIO(2, stderr_buf, sizeof stderr_buf, read, write, lseek, close, _FDEV_SETUP_WRITE, __BLBF);
FILE *const stdin = &stdin_file.xfile.cfile.file;
FILE *const stdout = &stdout_file.xfile.cfile.file;
FILE *const stderr = &stderr_file.xfile.cfile.file;

static void flush_streams(void) {
    fflush(stdout);
    fflush(stderr);
}

/* Thread-local storage for the one thread: a copy of the PT_TLS template.
 * RISC-V uses TLS variant I with tp pointing at the block itself. */
static _Alignas(64) unsigned char tls_block[512];

static void setup_tls(void) {
    typedef struct {
        uint32_t type, offset, vaddr, paddr, filesz, memsz, flags, align;
    } phdr32;
    const phdr32 *ph = (const phdr32 *)hwc_rv32_getauxval(3 /* AT_PHDR */);
    const unsigned long n = hwc_rv32_getauxval(5 /* AT_PHNUM */);
    for (unsigned long i = 0; ph && i < n; i++) {
        if (ph[i].type != 7 /* PT_TLS */)
            continue;
        if (ph[i].memsz > sizeof tls_block || ph[i].align > 64) {
            static const char msg[] = "rv32 shim: thread-local data too large\n";
            write(2, msg, sizeof msg - 1);
            _exit(127);
        }
        memcpy(tls_block, (const void *)(uintptr_t)ph[i].vaddr, ph[i].filesz);
    }
    __asm__ volatile("mv tp, %0" ::"r"(tls_block));
}

extern int main(int argc, char **argv, char **envp);
extern void __libc_init_array(void);

/* Called by _start (start.S) with the initial stack: argc, argv[], NULL,
 * envp[], NULL, auxv pairs. */
__attribute__((noreturn)) void hwc_rv32_start(long *initial_sp) {
    int argc = (int)initial_sp[0];
    char **argv = (char **)(initial_sp + 1);
    char **envp = argv + argc + 1;
    char **e = envp;
    while (*e)
        e++;
    auxv = (unsigned long *)(e + 1);
    environ = envp;
    setup_tls();
    __libc_init_array();
    atexit(flush_streams);
    exit(main(argc, argv, envp));
}
