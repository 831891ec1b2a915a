/* main.c - trc_soc firmware: three workloads with real call structure
 * (recursion, a sort, a calculator that recovers from errors with longjmp)
 * while a timer interrupt runs a handler that does work of its own. The
 * firmware counts in software how often it calls chosen functions, how many
 * interrupts it took and which stimulus records it wrote, and prints the
 * counts on the UART as "count NAME N" lines: the decoded trace must show
 * exactly as many (soc/trace_check.py). +workload=N picks one (0: all). */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soc.h"

#define COUNTED __attribute__((noinline, noclone))

static volatile uint32_t n_irq, n_irq_work, n_tick_stim;
static uint32_t n_hanoi, n_fib, n_ack, n_qsort, n_partition, n_insertion, n_cmp;
static uint32_t n_expr, n_term, n_factor, n_error, n_task_stim, n_mark_stim;
static uint32_t irq_acc;

/* ---- UART through picolibc's stdio */
static int uart_putc(char c, FILE *f)
{
    (void)f;
    SOC_UART = (uint8_t)c;
    return (uint8_t)c;
}
static FILE uart_file = FDEV_SETUP_STREAM(uart_putc, NULL, NULL, _FDEV_SETUP_WRITE);
FILE *const stdout = &uart_file;

void _exit(int code)
{
    SOC_EXIT = (uint32_t)code;
    for (;;)
        ;
}

/* ---- interrupt handler work */
COUNTED static uint32_t irq_mix(uint32_t x)
{
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x;
}

COUNTED static void irq_work(uint32_t tick)
{
    n_irq_work++;
    irq_acc = irq_mix(irq_acc + tick);
    if ((tick & 3u) == 0) {
        TRC_STIM(FW_OS_TICK, tick);
        n_tick_stim++;
    }
#ifdef FW_MP /* the multi-CPU firmware (soc/fw/mp.c): the shared lock */
    fw_mp_tick(tick);
#endif
}

void fw_irq(uint32_t pending)
{
    n_irq++;
    if (pending & (1u << 3))
        irq_work(n_irq);
}

/* ---- workload 1: recursion */
COUNTED static void hanoi(unsigned n, int from, int to, int via, uint32_t *moves)
{
    n_hanoi++;
    if (n == 0)
        return;
    hanoi(n - 1, from, via, to, moves);
    *moves += (uint32_t)(from * 3 + to);
    hanoi(n - 1, via, to, from, moves);
}

COUNTED static uint32_t fib(unsigned n)
{
    n_fib++;
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

COUNTED static uint32_t ack(uint32_t m, uint32_t n)
{
    n_ack++;
    if (m == 0)
        return n + 1;
    if (n == 0)
        return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}

static void run_recursion(void)
{
    uint32_t moves = 0;
    hanoi(9, 0, 2, 1, &moves);
    uint32_t f = fib(15);
    uint32_t a = ack(2, 3);
    printf("recursion: hanoi(9) %lu, fib(15) %lu, ack(2,3) %lu\n", (unsigned long)moves,
           (unsigned long)f, (unsigned long)a);
}

/* ---- workload 2: sort (quicksort with insertion sort below 8) */
#define NSORT 600
static int32_t data[NSORT];

COUNTED static int cmp(int32_t a, int32_t b)
{
    n_cmp++;
    return (a > b) - (a < b);
}

COUNTED static void insertion(int32_t *v, int n)
{
    n_insertion++;
    for (int i = 1; i < n; i++) {
        int32_t x = v[i];
        int j = i - 1;
        while (j >= 0 && cmp(v[j], x) > 0) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
}

COUNTED static int partition(int32_t *v, int n)
{
    n_partition++;
    int32_t pivot = v[n / 2];
    int i = -1, j = n;
    for (;;) {
        do
            i++;
        while (cmp(v[i], pivot) < 0);
        do
            j--;
        while (cmp(v[j], pivot) > 0);
        if (i >= j)
            return j + 1;
        int32_t t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

COUNTED static void qsort_rec(int32_t *v, int n)
{
    n_qsort++;
    /* recurse into the smaller side, loop on the larger: nesting <= log2(n) */
    while (n >= 8) {
        int k = partition(v, n);
        if (k < n - k) {
            qsort_rec(v, k);
            v += k;
            n -= k;
        } else {
            qsort_rec(v + k, n - k);
            n = k;
        }
    }
    insertion(v, n);
}

static void run_sort(void)
{
    uint32_t s = 12345;
    for (int i = 0; i < NSORT; i++) {
        s = s * 1103515245u + 12345u;
        data[i] = (int32_t)(s >> 8) % 10000;
    }
    qsort_rec(data, NSORT);
    int ok = 1;
    for (int i = 1; i < NSORT; i++)
        ok &= data[i - 1] <= data[i];
    printf("sort: %d values %s, min %ld max %ld\n", NSORT, ok ? "sorted" : "NOT SORTED",
           (long)data[0], (long)data[NSORT - 1]);
}

/* ---- workload 3: calculator, recursive descent, errors recover by longjmp */
static const char *src;
static jmp_buf on_error;

COUNTED static void calc_error(int code)
{
    n_error++;
    longjmp(on_error, code);
}

COUNTED static int32_t parse_expr(void);

COUNTED static int32_t parse_factor(void)
{
    n_factor++;
    while (*src == ' ')
        src++;
    if (*src == '(') {
        src++;
        int32_t v = parse_expr();
        if (*src != ')')
            calc_error(1);
        src++;
        return v;
    }
    if (*src == '-') {
        src++;
        return -parse_factor();
    }
    if (*src < '0' || *src > '9')
        calc_error(2);
    int32_t v = 0;
    while (*src >= '0' && *src <= '9')
        v = v * 10 + (*src++ - '0');
    return v;
}

COUNTED static int32_t parse_term(void)
{
    n_term++;
    int32_t v = parse_factor();
    for (;;) {
        while (*src == ' ')
            src++;
        if (*src == '*') {
            src++;
            v *= parse_factor();
        } else if (*src == '/' || *src == '%') {
            char op = *src++;
            int32_t d = parse_factor();
            if (d == 0)
                calc_error(3);
            v = op == '/' ? v / d : v % d;
        } else {
            return v;
        }
    }
}

COUNTED static int32_t parse_expr(void)
{
    n_expr++;
    int32_t v = parse_term();
    for (;;) {
        while (*src == ' ')
            src++;
        if (*src == '+') {
            src++;
            v += parse_term();
        } else if (*src == '-') {
            src++;
            v -= parse_term();
        } else {
            return v;
        }
    }
}

static const char *const exprs[] = {
    "1 + 2 * 3",
    "(4 + 5) * (6 - 7) / 3",
    "((((1 + 2) * 3 + 4) * 5 + 6) * 7 + 8) % 1000",
    "12 / (3 - 3)",            /* division by zero */
    "2 * (3 + 4",              /* missing ) */
    "-(-(-(8))) * 9 - 10",
    "7 + * 3",                 /* missing operand */
    "((((((1))))))",           /* six levels: the deepest call chain fits in 32 */
    "100 % 7 + 100 / 7 * 7",
    "(1 + (2 + (3 + (4 + (5 + (6 + x))))))", /* bad character, deep */
};

static int32_t calc_one(const char *s, int *err)
{
    src = s;
    int code = setjmp(on_error);
    if (code) {
        *err = code;
        return 0;
    }
    int32_t v = parse_expr();
    if (*src != '\0')
        calc_error(4);
    *err = 0;
    return v;
}

static void run_calc(void)
{
    int32_t sum = 0;
    int errors = 0;
    for (int round = 0; round < 12; round++) {
        for (unsigned i = 0; i < sizeof exprs / sizeof exprs[0]; i++) {
            int err;
            int32_t v = calc_one(exprs[i], &err);
            if (err)
                errors++;
            else
                sum += v;
        }
    }
    printf("calc: sum %ld, %d errors recovered\n", (long)sum, errors);
}

int main(void)
{
    uint32_t w = SOC_WORKLOAD;
    printf("trc_soc firmware: workload %lu\n", (unsigned long)w);
    SOC_TIMER = 3000;     /* an interrupt every 3000 clocks */
    fw_maskirq(0);        /* all IRQs on */
    if (w == 0 || w == 1) {
        TRC_STIM(FW_OS_TASK, 1);
        n_task_stim++;
        run_recursion();
    }
    if (w == 0 || w == 2) {
        TRC_STIM(FW_OS_TASK, 2);
        n_task_stim++;
        run_sort();
    }
    if (w == 0 || w == 3) {
        TRC_STIM(FW_OS_TASK, 3);
        n_task_stim++;
        run_calc();
    }
    TRC_STIM(FW_OS_MARK, 0xd0e);
    n_mark_stim++;
    fw_maskirq(~0u);      /* no interrupt after this point: the counts are final */
    SOC_TIMER = 0;
    printf("count hanoi %lu\n", (unsigned long)n_hanoi);
    printf("count fib %lu\n", (unsigned long)n_fib);
    printf("count ack %lu\n", (unsigned long)n_ack);
    printf("count qsort_rec %lu\n", (unsigned long)n_qsort);
    printf("count partition %lu\n", (unsigned long)n_partition);
    printf("count insertion %lu\n", (unsigned long)n_insertion);
    printf("count cmp %lu\n", (unsigned long)n_cmp);
    printf("count parse_expr %lu\n", (unsigned long)n_expr);
    printf("count parse_term %lu\n", (unsigned long)n_term);
    printf("count parse_factor %lu\n", (unsigned long)n_factor);
    printf("count calc_error %lu\n", (unsigned long)n_error);
    printf("count fw_irq %lu\n", (unsigned long)n_irq);
    printf("count irq_work %lu\n", (unsigned long)n_irq_work);
    printf("count os:irq %lu\n", (unsigned long)n_irq);
    printf("count os:iret %lu\n", (unsigned long)n_irq);
    printf("count os:1 %lu\n", (unsigned long)n_task_stim);
    printf("count os:2 %lu\n", (unsigned long)n_mark_stim);
    printf("count os:3 %lu\n", (unsigned long)n_tick_stim);
    printf("irq acc %08lx\n", (unsigned long)irq_acc);
#ifdef FW_MP
    fw_mp_report();
#endif
    exit(0); /* picolibc's crt0 does not call exit after main */
}
