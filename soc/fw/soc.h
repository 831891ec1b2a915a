/* soc.h - the trc_soc memory map as seen by the firmware (docs/soc.md). */
#ifndef SOC_H
#define SOC_H

#include <stdint.h>

#define SOC_UART     (*(volatile uint32_t *)0x10000000u) /* write: one byte out */
#define SOC_TIMER    (*(volatile uint32_t *)0x10000004u) /* write: IRQ 3 period, 0 = off */
#define SOC_EXIT     (*(volatile uint32_t *)0x10000008u) /* write: end of simulation */
#define SOC_WORKLOAD (*(volatile uint32_t *)0x1000000cu) /* read: +workload=N */

/* trc_rvfi's stimulus port P (< 2^TYPE_W - 8): one store writes an OS info
 * record of type P with the stored value (VAL_W low bits). */
#define TRC_STIM_BASE 0x11000000u
#define TRC_STIM(port, value) \
    (*(volatile uint32_t *)(TRC_STIM_BASE + 4u * (uint32_t)(port)) = (uint32_t)(value))

/* OS info types the firmware writes through the stimulus port */
#define FW_OS_TASK   1  /* sched_switch in the host tools' names: value = task */
#define FW_OS_MARK   2  /* a marker: value = workload step */
#define FW_OS_TICK   3  /* timer tick seen by the handler: value = tick count */

uint32_t fw_maskirq(uint32_t mask);
/* The multi-CPU firmware (soc/fw/mp.c; main.c built with FW_MP calls them). */
void fw_mp_tick(uint32_t tick);
void fw_mp_report(void);

#endif
