/*
 * Where `hwcrypt enc` writes, and when its output becomes visible
 * (docs/ERRORS.md, "What -out receives").
 *
 *   - A regular file (new, or existing, also through symlinks) is written
 *     only when the whole command has succeeded: the output collects in an
 *     unnamed temporary file and then becomes the new file (linked into
 *     place) or is copied into the existing one (same inode: its owner,
 *     permissions and links stay).  A failure or a signal leaves nothing
 *     behind and the existing file untouched.
 *   - Anything else (stdout, a terminal, a pipe, a device) is written as
 *     the output is made, except when `withhold` is set (AEAD decryption):
 *     then the output is held (in memory up to SINK_MEM_SPOOL, beyond in an
 *     unnamed temporary file) and copied out only after the tag check.
 * Nothing the program did not create is ever removed or replaced.
 */
#ifndef HWC_TOOLS_SINK_H
#define HWC_TOOLS_SINK_H

#include <stddef.h>
#include <stdint.h>

typedef enum { SINK_STREAM, SINK_NEW_FILE, SINK_EXISTING_FILE } sink_kind;

#define SINK_BUF (64 * 1024)
/* Withheld output up to this size stays in memory (no temporary file). */
#define SINK_MEM_SPOOL (4 * 1024 * 1024)

typedef struct sink {
    sink_kind kind;
    const char *name;      /* -out as given, or "stdout" */
    int target_fd;         /* the stream or the existing file; -1 for a new file */
    int spool_fd;          /* the unnamed file the output collects in; -1: straight to target_fd */
    int spool_is_target;   /* new file: the spool is the file itself, linked into place at commit */
    int dir_fd;            /* new file: its directory */
    char *new_path;        /* new file: the path it will have (symlinks resolved) */
    const char *base;      /* new file: its name inside dir_fd (points into new_path) */
    char spool_dir[256];   /* for messages: where the spool lives */
    int hold_in_memory;    /* withheld output still fits in mem */
    uint8_t *mem;          /* withheld output, up to SINK_MEM_SPOOL bytes */
    size_t mem_len;
    uint64_t size;         /* bytes written */
    size_t buf_len;
    uint8_t buf[SINK_BUF];
} sink;

/* An empty sink: sink_close() on it does nothing. */
void sink_init(sink *s);
/* Opens the output (path NULL: stdout).  Returns 0, or 1 after printing
 * why not (an I/O failure: exit status 1).  Nothing visible is created. */
int sink_open(sink *s, const char *path, int withhold);
/* Returns 0, or -1 after printing the error. */
int sink_write(sink *s, const void *p, size_t n);
/* Success: makes the output visible.  Returns 0, or -1 after printing. */
int sink_commit(sink *s);
/* Frees the sink; output not committed is discarded. */
void sink_close(sink *s);

/* An unnamed temporary file: no directory entry names it, so it vanishes
 * with the process however that ends.  Tried in near_dir (may be NULL),
 * then $TMPDIR, /tmp, /var/tmp.  Returns a read-write descriptor, or -1
 * after printing why; `where` (may be NULL) receives its directory. */
int cli_tmpfile(const char *near_dir, const char *purpose, char *where, size_t where_cap);

/* write() and read() until done, across EINTR and short counts. */
int cli_write_all(int fd, const void *p, size_t n);
/* Returns the bytes read (less than n only at end of input), or -1. */
long long cli_read_full(int fd, void *p, size_t n);

#endif
