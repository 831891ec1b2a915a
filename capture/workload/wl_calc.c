/* wl_calc.c - module "calc": recursive-descent evaluator of + - * / ( ) and
 * numbers. A syntax error or a division by zero unwinds with longjmp, so
 * the trace holds entries without exits (what the host tools must handle). */
#include <ctype.h>
#include <setjmp.h>

#include "wl.h"

typedef struct {
    const char *s;
    jmp_buf fail;
} calc;

static long expr(calc *c);

static void skip(calc *c)
{
    while (*c->s == ' ')
        c->s++;
}

static void fail(calc *c)
{
    longjmp(c->fail, 1);
}

static long primary(calc *c)
{
    skip(c);
    if (*c->s == '(') {
        c->s++;
        long v = expr(c);
        skip(c);
        if (*c->s != ')')
            fail(c);
        c->s++;
        return v;
    }
    if (!isdigit((unsigned char)*c->s))
        fail(c);
    long v = 0;
    while (isdigit((unsigned char)*c->s))
        v = v * 10 + (*c->s++ - '0');
    return v;
}

static long term(calc *c)
{
    long v = primary(c);
    for (;;) {
        skip(c);
        char op = *c->s;
        if (op != '*' && op != '/')
            return v;
        c->s++;
        long r = primary(c);
        if (op == '/' && r == 0)
            fail(c);
        v = op == '*' ? v * r : v / r;
    }
}

static long expr(calc *c)
{
    long v = term(c);
    for (;;) {
        skip(c);
        char op = *c->s;
        if (op != '+' && op != '-')
            return v;
        c->s++;
        long r = term(c);
        v = op == '+' ? v + r : v - r;
    }
}

int wl_calc(const char *text, long *value)
{
    calc c;
    c.s = text;
    if (setjmp(c.fail))
        return -1;
    long v = expr(&c);
    skip(&c);
    if (*c.s)
        return -1;
    *value = v;
    return 0;
}
