/* The part of <sys/mman.h> hwcrypt's tests use, for rv32 programs linked
 * with picolibc (which has none) and run under Linux: the values are the
 * Linux ones, the functions are system calls in ../linux.c. */
#ifndef HWC_RV32_SHIM_SYS_MMAN_H
#define HWC_RV32_SHIM_SYS_MMAN_H

#include <stddef.h>
#include <sys/types.h>

#define PROT_NONE 0x0
#define PROT_READ 0x1
#define PROT_WRITE 0x2
#define PROT_EXEC 0x4
#define MAP_SHARED 0x01
#define MAP_PRIVATE 0x02
#define MAP_FIXED 0x10
#define MAP_ANONYMOUS 0x20
#define MAP_ANON MAP_ANONYMOUS
#define MAP_FAILED ((void *)-1)

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset);
int munmap(void *addr, size_t len);
int mprotect(void *addr, size_t len, int prot);

#endif
