/* mp.c - the multi-CPU part of the trc_mpsoc firmware (linked with main.c,
 * whose workloads every CPU runs: CPU k the workload k % 3 + 1). On every
 * timer tick each CPU takes the shared hardware lock, raises trc_mpcore's
 * global marker through the stimulus port, updates the shared words and
 * frees the lock; the stimulus records LOCK and FREE bracket the time it
 * holds the lock, so the decoded trace alone shows whether two CPUs ever
 * held it at once (soc/mp_check.py). The counts go to the UART like main.c's:
 * "count NAME N" lines for this CPU's trace, and "mp cpu K marks N" for the
 * markers, which appear in every CPU's trace. Memory map: docs/soc.md. */
#include <stdio.h>

#include "soc.h"

#define MP_ID      (*(volatile uint32_t *)0x10000010u) /* read: this CPU's number */
#define MP_NCPU    (*(volatile uint32_t *)0x10000014u) /* read: CPUs in the system */
#define MP_LOCK    (*(volatile uint32_t *)0x20000000u) /* read: 0 = taken now; write: free */
#define MP_WORD(i) (*(volatile uint32_t *)(0x20000100u + 4u * (uint32_t)(i)))

#define FW_OS_LOCK  4   /* value: the CPU that took the lock */
#define FW_OS_FREE  5   /* value: the CPU that frees it */
#define FW_OS_GMARK 119 /* 2^TYPE_W - 9: trc_mpcore's marker request */

#define COUNTED __attribute__((noinline, noclone))

static uint32_t n_take, n_free, n_spin, n_gmark;

COUNTED static void lock_take(void)
{
    n_take++;
    while (MP_LOCK != 0) /* no call in the loop: no trace events while spinning */
        n_spin++;
}

COUNTED static void lock_free(void)
{
    n_free++;
    MP_LOCK = 0;
}

void fw_mp_tick(uint32_t tick)
{
    uint32_t id = MP_ID;
    lock_take();
    TRC_STIM(FW_OS_LOCK, id);
    TRC_STIM(FW_OS_GMARK, (id << 12) | (tick & 0xfffu)); /* into every CPU's trace */
    n_gmark++;
    MP_WORD(0) = MP_WORD(0) + 1; /* critical sections of all CPUs */
    MP_WORD(1 + id) = MP_WORD(1 + id) + 1;
    TRC_STIM(FW_OS_FREE, id);
    lock_free();
}

void fw_mp_report(void)
{
    uint32_t id = MP_ID;
    printf("count lock_take %lu\n", (unsigned long)n_take);
    printf("count lock_free %lu\n", (unsigned long)n_free);
    printf("count os:4 %lu\n", (unsigned long)n_take); /* FW_OS_LOCK */
    printf("count os:5 %lu\n", (unsigned long)n_free); /* FW_OS_FREE */
    printf("mp cpu %lu of %lu marks %lu spins %lu shared %lu\n", (unsigned long)id,
           (unsigned long)MP_NCPU, (unsigned long)n_gmark, (unsigned long)n_spin,
           (unsigned long)MP_WORD(1 + id));
}
