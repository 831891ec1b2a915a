/* start.S - PicoRV32 vectors of the trc_soc firmware: reset jumps to
 * picolibc's crt0 (_start), the interrupt vector (PROGADDR_IRQ = 0x10)
 * saves the caller-saved registers on the current stack, calls
 * fw_irq(pending) in C and returns with retirq. Also maskirq as a function.
 * The custom instructions are PicoRV32's own macros (firmware/custom_ops.S
 * of the pythondata-cpu-picorv32 package). */
#include "custom_ops.S"

    .section .text.init.enter, "ax"
    .global _vectors
_vectors:
    j _start
    .balign 16
_irq:                       /* 0x10: q0 = return address, q1 = pending IRQs */
    addi sp, sp, -64
    sw ra, 0(sp)
    sw t0, 4(sp)
    sw t1, 8(sp)
    sw t2, 12(sp)
    sw a0, 16(sp)
    sw a1, 20(sp)
    sw a2, 24(sp)
    sw a3, 28(sp)
    sw a4, 32(sp)
    sw a5, 36(sp)
    sw a6, 40(sp)
    sw a7, 44(sp)
    sw t3, 48(sp)
    sw t4, 52(sp)
    sw t5, 56(sp)
    sw t6, 60(sp)
    picorv32_getq_insn(a0, q1)
    call fw_irq
    lw ra, 0(sp)
    lw t0, 4(sp)
    lw t1, 8(sp)
    lw t2, 12(sp)
    lw a0, 16(sp)
    lw a1, 20(sp)
    lw a2, 24(sp)
    lw a3, 28(sp)
    lw a4, 32(sp)
    lw a5, 36(sp)
    lw a6, 40(sp)
    lw a7, 44(sp)
    lw t3, 48(sp)
    lw t4, 52(sp)
    lw t5, 56(sp)
    lw t6, 60(sp)
    addi sp, sp, 64
    picorv32_retirq_insn()

    .text
    /* uint32_t fw_maskirq(uint32_t mask): sets the IRQ mask, returns the old */
    .global fw_maskirq
fw_maskirq:
    picorv32_maskirq_insn(a0, a0)
    ret
