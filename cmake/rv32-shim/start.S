/*
 * Process entry for rv32 programs linked with picolibc and run under Linux
 * (qemu-riscv32 user mode or a real rv32 kernel). The kernel leaves argc,
 * argv, envp and the auxiliary vector on the stack; picolibc's own crt0 is
 * for bare metal and would ignore them, so this one hands the stack pointer
 * to hwc_rv32_start (linux.c), which never returns.
 */
    .section .text._start, "ax", @progbits
    .globl _start
    .type _start, @function
_start:
    .option push
    .option norelax
    la gp, __global_pointer$ /* gp-relative data; must not be relaxed against itself */
    .option pop
    mv a0, sp
    andi sp, sp, -16
    call hwc_rv32_start
1:  j 1b
    .size _start, . - _start
