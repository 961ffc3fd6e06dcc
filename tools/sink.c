/*
 * The output of `hwcrypt enc` (sink.h): regular files appear or change only
 * when the command succeeds, other targets get withheld output only after
 * the tag check, and nothing the program did not create is removed.
 *
 * Linux: the output collects in an O_TMPFILE file, in the target's own
 * directory when it is a new file (then linkat() gives it its name, at
 * once and complete), else in $TMPDIR, /tmp or /var/tmp.  Where a file
 * system has no O_TMPFILE, a temporary file is created there with
 * mkstemp() and unlinked before anything is written to it.  A new file
 * whose directory lacks O_TMPFILE is assembled after success under a
 * temporary name beside it (removed on SIGINT/TERM/HUP/QUIT/XFSZ) and
 * linked into place.  Other systems (the rv32 picolibc test build): the
 * same spool through mkstemp(); a new file is created with O_EXCL at
 * commit and copied into.
 */
#if defined(__linux__)
#define _GNU_SOURCE 1 /* O_TMPFILE, linkat, fallocate */
#else
#define _POSIX_C_SOURCE 200809L
#endif
#include "sink.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#ifndef O_NOCTTY
#define O_NOCTTY 0
#endif
#ifndef O_DIRECTORY
#define O_DIRECTORY 0
#endif
#ifndef EDQUOT
#define EDQUOT ENOSPC
#endif

#if defined(__linux__) && defined(O_TMPFILE)
#define HAVE_UNNAMED_FILES 1
#endif

int cli_write_all(int fd, const void *p, size_t n) {
    const uint8_t *b = p;
    while (n) {
        ssize_t w = write(fd, b, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = EIO;
            return -1;
        }
        b += w;
        n -= (size_t)w;
    }
    return 0;
}

long long cli_read_full(int fd, void *p, size_t n) {
    uint8_t *b = p;
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, b + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        got += (size_t)r;
    }
    return (long long)got;
}

static void copy_name(char *dst, size_t cap, const char *src) {
    if (cap) {
        snprintf(dst, cap, "%s", src);
    }
}

#ifdef HAVE_UNNAMED_FILES
/* A file system without O_TMPFILE (or a kernel before 3.11) answers one of
 * these; anything else (EACCES, ENOENT, ENOSPC...) is a real refusal. */
static int tmpfile_unsupported(int err) { return err == EOPNOTSUPP || err == EISDIR || err == EINVAL || err == ENOSYS; }
#endif

/* A temporary file in dir that no name refers to by the time anything is
 * written to it.  Returns the descriptor or -1 (errno set). */
static int unnamed_file_in(const char *dir) {
#ifdef HAVE_UNNAMED_FILES
    int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0 || !tmpfile_unsupported(errno))
        return fd;
#endif
    char path[PATH_MAX];
    int n = snprintf(path, sizeof path, "%s/.hwcrypt-spool-XXXXXX", dir);
    if (n < 0 || (size_t)n >= sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd2 = mkstemp(path);
    if (fd2 < 0)
        return -1;
    /* Unlinked before the first byte: killed in between, at most an empty
     * file is left. */
    if (unlink(path) != 0) {
        int e = errno;
        close(fd2);
        errno = e;
        return -1;
    }
    return fd2;
}

int cli_tmpfile(const char *near_dir, const char *purpose, char *where, size_t where_cap) {
    const char *env = getenv("TMPDIR");
    const char *dirs[] = {near_dir, env && *env ? env : NULL, "/tmp", "/var/tmp"};
    char tried[512] = "";
    int last_err = 0;
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        if (!dirs[i])
            continue;
        int fd = unnamed_file_in(dirs[i]);
        if (fd >= 0) {
            copy_name(where, where_cap, dirs[i]);
            return fd;
        }
        last_err = errno;
        size_t used = strlen(tried);
        snprintf(tried + used, sizeof tried - used, "%s%s", used ? ", " : "", dirs[i]);
    }
    fprintf(stderr, "hwcrypt enc: no temporary file for %s in %s: %s (set TMPDIR to a writable directory)\n",
            purpose, tried, strerror(last_err));
    return -1;
}

/* ------------------------------------------------------ new-file paths */

/* path, or where a dangling symlink at path points (what open(O_CREAT)
 * would create), malloc'd; NULL with errno set on failure. */
static char *resolve_new_path(const char *path) {
    char *cur = strdup(path);
#if defined(__linux__)
    for (int hops = 0; cur; hops++) {
        char target[PATH_MAX];
        ssize_t n = readlink(cur, target, sizeof target - 1);
        if (n < 0)
            return (errno == EINVAL || errno == ENOENT) ? cur : (free(cur), (char *)NULL);
        if (hops == 40) {
            free(cur);
            errno = ELOOP;
            return NULL;
        }
        target[n] = 0;
        char *next;
        const char *slash = strrchr(cur, '/');
        if (target[0] == '/' || !slash) {
            next = strdup(target);
        } else {
            size_t dir_len = (size_t)(slash - cur) + 1;
            next = malloc(dir_len + (size_t)n + 1);
            if (next) {
                memcpy(next, cur, dir_len);
                memcpy(next + dir_len, target, (size_t)n + 1);
            }
        }
        free(cur);
        cur = next;
    }
#endif
    return cur;
}

/* Splits s->new_path into its directory (opened as s->dir_fd) and s->base. */
static int open_new_dir(sink *s) {
    char *p = s->new_path;
    char *slash = strrchr(p, '/');
    s->base = slash ? slash + 1 : p;
    if (!*s->base || !strcmp(s->base, ".") || !strcmp(s->base, "..")) {
        fprintf(stderr, "hwcrypt enc: -out %s: names a directory, not a file\n", s->name);
        return -1;
    }
    char dir[PATH_MAX];
    if (!slash)
        strcpy(dir, ".");
    else if (slash == p)
        strcpy(dir, "/");
    else if ((size_t)(slash - p) < sizeof dir)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - p), p);
    else {
        fprintf(stderr, "hwcrypt enc: -out %s: %s\n", s->name, strerror(ENAMETOOLONG));
        return -1;
    }
    s->dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (s->dir_fd < 0) {
        fprintf(stderr, "hwcrypt enc: -out %s: directory %s: %s\n", s->name, dir, strerror(errno));
        return -1;
    }
    return 0;
}

/* The output's own file in its directory, unnamed until commit. */
static int open_new_file(sink *s) {
    s->new_path = resolve_new_path(s->name);
    if (!s->new_path) {
        fprintf(stderr, "hwcrypt enc: -out %s: %s\n", s->name, strerror(errno));
        return -1;
    }
    if (open_new_dir(s))
        return -1;
#ifdef HAVE_UNNAMED_FILES
    /* Mode 0666 less the umask (and default ACLs), as fopen() would give. */
    s->spool_fd = openat(s->dir_fd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
    if (s->spool_fd >= 0) {
        s->spool_is_target = 1;
        return 0;
    }
    if (!tmpfile_unsupported(errno)) {
        fprintf(stderr, "hwcrypt enc: -out %s: %s\n", s->name, strerror(errno));
        return -1;
    }
#endif
    /* No unnamed files there: spool elsewhere, assemble the file at commit.
     * Refuse now what would fail then. */
#if defined(__linux__)
    if (faccessat(s->dir_fd, ".", W_OK | X_OK, AT_EACCESS) != 0) {
        fprintf(stderr, "hwcrypt enc: -out %s: %s\n", s->name, strerror(errno));
        return -1;
    }
#endif
    char where[256];
    s->spool_fd = cli_tmpfile(NULL, "the output", where, sizeof where);
    if (s->spool_fd < 0)
        return -1;
    copy_name(s->spool_dir, sizeof s->spool_dir, where);
    return 0;
}

/* The directory of the file open as fd (Linux: through /proc), for a
 * spool on the same file system; NULL when unknown. */
static char *dir_of_fd(int fd) {
#if defined(__linux__)
    char link[64], path[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof path - 1);
    if (n <= 0 || path[0] != '/')
        return NULL;
    path[n] = 0;
    char *slash = strrchr(path, '/');
    if (slash == path)
        slash[1] = 0;
    else
        *slash = 0;
    return strdup(path);
#else
    (void)fd;
    return NULL;
#endif
}

void sink_init(sink *s) {
    memset(s, 0, offsetof(sink, buf));
    s->target_fd = s->spool_fd = s->dir_fd = -1;
    s->buf_len = 0;
}

int sink_open(sink *s, const char *path, int withhold) {
    sink_init(s);
    s->name = path ? path : "stdout";
    s->kind = SINK_STREAM;
    if (!path) {
        s->target_fd = STDOUT_FILENO;
    } else if (!*path) {
        fprintf(stderr, "hwcrypt enc: -out: empty file name\n");
        return 1;
    } else {
        /* Opens what is there, through symlinks; creates nothing, truncates
         * nothing.  A FIFO blocks here until a reader comes, as with openssl. */
        int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (fd < 0 && errno != ENOENT) {
            fprintf(stderr, "hwcrypt enc: -out %s: %s\n", path, strerror(errno));
            return 1;
        }
        if (fd < 0) {
            s->kind = SINK_NEW_FILE;
            return open_new_file(s) ? 1 : 0;
        }
        s->target_fd = fd;
        struct stat st;
        if (fstat(fd, &st) != 0) {
            fprintf(stderr, "hwcrypt enc: -out %s: %s\n", path, strerror(errno));
            return 1;
        }
        if (S_ISREG(st.st_mode)) {
            s->kind = SINK_EXISTING_FILE;
            char *dir = dir_of_fd(fd);
            char where[256];
            s->spool_fd = cli_tmpfile(dir, "the output", where, sizeof where);
            free(dir);
            if (s->spool_fd < 0)
                return 1;
            copy_name(s->spool_dir, sizeof s->spool_dir, where);
            return 0;
        }
    }
    /* Withheld output: in memory up to SINK_MEM_SPOOL, then in an unnamed
     * file (flush()). */
    s->hold_in_memory = withhold;
    return 0;
}

static void write_error(const sink *s) {
    int e = errno;
    if (s->spool_fd >= 0 && !s->spool_is_target)
        fprintf(stderr, "hwcrypt enc: writing the temporary file in %s: %s%s\n", s->spool_dir, strerror(e),
                e == ENOSPC || e == EDQUOT ? " (it holds the output until the end: free space there, or set TMPDIR)"
                                           : "");
    else
        fprintf(stderr, "hwcrypt enc: writing %s: %s\n", s->name, strerror(e));
}

/* Withheld output past SINK_MEM_SPOOL: moves to an unnamed file. */
static int spill(sink *s) {
    char where[256];
    s->spool_fd = cli_tmpfile(NULL, "the output until the tag is checked", where, sizeof where);
    if (s->spool_fd < 0)
        return -1;
    copy_name(s->spool_dir, sizeof s->spool_dir, where);
    s->hold_in_memory = 0;
    int rc = s->mem_len ? cli_write_all(s->spool_fd, s->mem, s->mem_len) : 0;
    if (rc)
        write_error(s);
    return rc;
}

static int flush(sink *s) {
    if (!s->buf_len)
        return 0;
    if (s->hold_in_memory && s->mem_len + s->buf_len <= SINK_MEM_SPOOL) {
        if (!s->mem && !(s->mem = malloc(SINK_MEM_SPOOL))) {
            fprintf(stderr, "hwcrypt enc: out of memory\n");
            return -1;
        }
        memcpy(s->mem + s->mem_len, s->buf, s->buf_len);
        s->mem_len += s->buf_len;
        s->buf_len = 0;
        return 0;
    }
    if (s->hold_in_memory && spill(s))
        return -1;
    int fd = s->spool_fd >= 0 ? s->spool_fd : s->target_fd;
    int rc = cli_write_all(fd, s->buf, s->buf_len);
    s->buf_len = 0;
    if (rc)
        write_error(s);
    return rc;
}

int sink_write(sink *s, const void *p, size_t n) {
    const uint8_t *b = p;
    s->size += n;
    while (n) {
        if (s->buf_len == SINK_BUF && flush(s))
            return -1;
        size_t take = SINK_BUF - s->buf_len < n ? SINK_BUF - s->buf_len : n;
        memcpy(s->buf + s->buf_len, b, take);
        s->buf_len += take;
        b += take;
        n -= take;
    }
    return 0;
}

/* Copies the whole spool into `to` (from its current offset). */
static int copy_spool(sink *s, int to, const char *to_name) {
    if (lseek(s->spool_fd, 0, SEEK_SET) != 0) {
        fprintf(stderr, "hwcrypt enc: rewinding the temporary file: %s\n", strerror(errno));
        return -1;
    }
    for (;;) {
        long long n = cli_read_full(s->spool_fd, s->buf, SINK_BUF);
        if (n < 0) {
            fprintf(stderr, "hwcrypt enc: reading the temporary file in %s: %s\n", s->spool_dir, strerror(errno));
            return -1;
        }
        if (n == 0)
            return 0;
        if (cli_write_all(to, s->buf, (size_t)n)) {
            fprintf(stderr, "hwcrypt enc: writing %s: %s\n", to_name, strerror(errno));
            return -1;
        }
    }
}

/* An existing file keeps its inode: space first, then the bytes, then the
 * length.  Only a crash inside this copy can leave it partly rewritten. */
static int commit_existing(sink *s) {
#if defined(__linux__)
    struct stat st;
    if (fstat(s->target_fd, &st) != 0) {
        fprintf(stderr, "hwcrypt enc: -out %s: %s\n", s->name, strerror(errno));
        return -1;
    }
    if (s->size && fallocate(s->target_fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)s->size) != 0 &&
        (errno == ENOSPC || errno == EDQUOT || errno == EFBIG)) {
        fprintf(stderr, "hwcrypt enc: -out %s: %s (the file is unchanged)\n", s->name, strerror(errno));
        return -1;
    }
    if (copy_spool(s, s->target_fd, s->name))
        return -1;
    if ((uint64_t)st.st_size > s->size && ftruncate(s->target_fd, (off_t)s->size) != 0) {
        fprintf(stderr, "hwcrypt enc: -out %s: truncating: %s\n", s->name, strerror(errno));
        return -1;
    }
#else
    /* No ftruncate here: open it again, truncating. */
    close(s->target_fd);
    s->target_fd = open(s->name, O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (s->target_fd < 0) {
        fprintf(stderr, "hwcrypt enc: -out %s: %s\n", s->name, strerror(errno));
        return -1;
    }
    if (copy_spool(s, s->target_fd, s->name))
        return -1;
#endif
    return 0;
}

#if defined(__linux__)
/* The fallback's temporary name, removed if a signal ends the process
 * while it exists. */
static char pending_path[PATH_MAX + 32];
static volatile sig_atomic_t pending_armed;
static const int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXFSZ};
static struct sigaction saved_actions[sizeof cleanup_signals / sizeof cleanup_signals[0]];

static void remove_pending(int sig) {
    if (pending_armed)
        unlink(pending_path);
    raise(sig); /* SA_RESETHAND: now the default action */
}

static void arm_cleanup(const char *path) {
    copy_name(pending_path, sizeof pending_path, path);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = remove_pending;
    sa.sa_flags = SA_RESETHAND;
    sigfillset(&sa.sa_mask);
    pending_armed = 1;
    for (size_t i = 0; i < sizeof cleanup_signals / sizeof cleanup_signals[0]; i++)
        sigaction(cleanup_signals[i], &sa, &saved_actions[i]);
}

static void disarm_cleanup(void) {
    pending_armed = 0;
    for (size_t i = 0; i < sizeof cleanup_signals / sizeof cleanup_signals[0]; i++)
        sigaction(cleanup_signals[i], &saved_actions[i], NULL);
}
#endif

static int link_error(const sink *s, int err) {
    if (err == EEXIST)
        fprintf(stderr, "hwcrypt enc: -out %s: created by someone else while hwcrypt ran; left alone, output "
                        "discarded\n", s->name);
    else
        fprintf(stderr, "hwcrypt enc: -out %s: %s\n", s->name, strerror(err));
    return -1;
}

static int commit_new(sink *s) {
#ifdef HAVE_UNNAMED_FILES
    if (s->spool_is_target) {
        char proc[64];
        snprintf(proc, sizeof proc, "/proc/self/fd/%d", s->spool_fd);
        if (linkat(AT_FDCWD, proc, s->dir_fd, s->base, AT_SYMLINK_FOLLOW) == 0)
            return 0;
        /* Without /proc, root can still link the descriptor itself. */
        if (errno != ENOENT || linkat(s->spool_fd, "", s->dir_fd, s->base, AT_EMPTY_PATH) != 0)
            return link_error(s, errno);
        return 0;
    }
#endif
#if defined(__linux__)
    /* Assembled under a temporary name beside it, then linked: the file
     * appears complete; link() never replaces an existing one. */
    char tmp[PATH_MAX + 32];
    int n = snprintf(tmp, sizeof tmp, "%.*s.%s.hwcrypt-XXXXXX", (int)(s->base - s->new_path), s->new_path, s->base);
    if (n < 0 || (size_t)n >= sizeof tmp)
        return link_error(s, ENAMETOOLONG);
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old); /* no signal between creating and arming */
    int fd = mkstemp(tmp);
    int err = errno;
    if (fd >= 0)
        arm_cleanup(tmp);
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (fd < 0)
        return link_error(s, err);
    mode_t mask = umask(0);
    umask(mask);
    int rc = fchmod(fd, 0666 & ~mask) ? -1 : copy_spool(s, fd, tmp);
    if (rc == 0 && close(fd) != 0) {
        fprintf(stderr, "hwcrypt enc: writing %s: %s\n", tmp, strerror(errno));
        rc = -1;
    } else if (rc != 0) {
        close(fd);
    }
    if (rc == 0 && link(tmp, s->new_path) != 0)
        rc = link_error(s, errno);
    unlink(tmp);
    disarm_cleanup();
    return rc;
#else
    /* Minimal systems: created at commit, removed again if the copy fails. */
    int fd = open(s->new_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0)
        return link_error(s, errno);
    int rc = copy_spool(s, fd, s->name);
    if (close(fd) != 0 && rc == 0) {
        fprintf(stderr, "hwcrypt enc: writing %s: %s\n", s->name, strerror(errno));
        rc = -1;
    }
    if (rc)
        unlink(s->new_path);
    return rc;
#endif
}

int sink_commit(sink *s) {
    if (flush(s))
        return -1;
    switch (s->kind) {
    case SINK_NEW_FILE:
        return commit_new(s);
    case SINK_EXISTING_FILE:
        return commit_existing(s);
    case SINK_STREAM:
    default:
        if (s->spool_fd >= 0)
            return copy_spool(s, s->target_fd, s->name);
        if (s->mem_len && cli_write_all(s->target_fd, s->mem, s->mem_len)) {
            fprintf(stderr, "hwcrypt enc: writing %s: %s\n", s->name, strerror(errno));
            return -1;
        }
        return 0;
    }
}

void sink_close(sink *s) {
    if (s->spool_fd >= 0)
        close(s->spool_fd);
    if (s->target_fd >= 0 && s->target_fd != STDOUT_FILENO)
        close(s->target_fd);
    if (s->dir_fd >= 0)
        close(s->dir_fd);
    free(s->new_path);
    if (s->mem) {
        memset(s->mem, 0, s->mem_len);
        free(s->mem);
        s->mem = NULL;
    }
    memset(s->buf, 0, sizeof s->buf);
    s->spool_fd = s->target_fd = s->dir_fd = -1;
    s->new_path = NULL;
}
