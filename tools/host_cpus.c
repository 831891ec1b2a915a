/*
 * host_cpus.c - the CPUs a host tool shows of a trace of several CPUs
 * (docs/format.md 4.9): --cpu LIST, parsed as import-ftrace's.
 */
#include <string.h>

#include "ftrace.h"
#include "host_common.h"

int host_cpus(const cli_args *a, unsigned ncpu, unsigned char ok[TRC_CPU_MAX])
{
    static ft_import m; /* only its CPU list is used */
    memset(ok, 0, TRC_CPU_MAX);
    if (!cli_given(a, OPT_CPU)) {
        memset(ok, 1, ncpu);
        return 0;
    }
    memset(&m, 0, sizeof m);
    if (ft_cpus(&m, a->str[OPT_CPU])) {
        cli_error("%s: bad --cpu '%s' (e.g. 0 or 0,2-3)", a->cmd, a->str[OPT_CPU]);
        return -1;
    }
    for (unsigned k = 0; k < FT_MAX_CPUS; k++) {
        if (!m.cpu_ok[k])
            continue;
        if (k >= ncpu) {
            cli_error("%s: --cpu %s: CPU %u, but the trace has %u CPU%s", a->cmd,
                      a->str[OPT_CPU], k, ncpu, ncpu == 1 ? "" : "s");
            return -1;
        }
        ok[k] = 1;
    }
    return 0;
}
