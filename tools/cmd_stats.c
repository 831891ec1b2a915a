/*
 * cmd_stats.c - `trc stats`: the paper's Table 2 (raw and coded bits per
 * field, dictionary hit rates) for a .trc, a framed .trc (its good frames) or
 * a bare stream, or for the stream a text trace would compress to.
 */
#include <string.h>

#include "trc_cli.h"

#define CHUNK_RECS 4096
#define OUT_BYTES (1u << 16)

/* ---- stats ------------------------------------------------------------- */

static double pct(uint64_t a, uint64_t b)
{
    return b ? 100.0 * (double)a / (double)b : 0.0;
}

/* The stream's format: the mode and the parameters it uses, named as in
 * docs/format.md 2. */
static void print_format(const trc_params *p, int json)
{
    static const char *const modes[] = {"paper", "stack", "stack2"};
    static const char *const texts[] = {"paper mode", "stack mode", "stack mode 2"};
    unsigned m = p->mode <= TRC_MODE_STACK2 ? p->mode : 0u;
    unsigned cpus = trc_cpu_count(p), tq = p->tq ? p->tq : 1u;
    if (json) {
        printf(",\n \"format\": {\"mode\": \"%s\", \"nt\": %u, \"fid_w\": %u, "
               "\"type_w\": %u, \"val_w\": %u, \"nd\": [%u, %u, %u]",
               modes[m], p->nt, p->fid_w, p->type_w, p->val_w, p->nd_f, p->nd_t,
               p->nd_v);
        if (m != TRC_MODE_PAPER)
            printf(", \"sk\": %u, \"sd\": %u", p->sk, p->sd);
        if (m == TRC_MODE_STACK2)
            printf(", \"so\": %u, \"tq\": %u, \"fe\": %u", p->so, tq, p->fe);
        printf(", \"cpus\": %u}", cpus);
        return;
    }
    printf("format: %s, NT %u, FID_W %u, TYPE_W %u, VAL_W %u, ND %u/%u/%u", texts[m],
           p->nt, p->fid_w, p->type_w, p->val_w, p->nd_f, p->nd_t, p->nd_v);
    if (m != TRC_MODE_PAPER)
        printf(", SK %u, SD %u", p->sk, p->sd);
    if (m == TRC_MODE_STACK2)
        printf(", SO %u, TQ %u%s", p->so, tq, p->fe ? ", fresh entries" : "");
    if (cpus > 1)
        printf(", CPUS %u", cpus);
    printf("\n");
}

static void print_stats(const trc_stats *s, const trc_params *p, uint64_t bytes,
                        uint64_t trace, int json, int open)
{
    /* Stack mode streams code a delta symbol for every record. */
    int stack = s->delta_sym[0] + s->delta_sym[1] + s->delta_sym[2] +
                    s->delta_sym[3] != 0;
    static const char *const names[] = {"timestamp", "function", "type",
                                        "value"};
    static const char *const labels[] = {"timestamp", "function id",
                                         "info type", "info value"};
    uint64_t raw = 0, coded = 0;
    for (int f = 0; f < TRC_F__COUNT; f++) {
        raw += s->raw_bits[f];
        coded += s->coded_bits[f];
    }
    double bpr = trace ? 8.0 * (double)bytes / (double)trace : 0.0;
    if (json) {
        printf("{\"records\": {\"function\": %llu, \"os\": %llu, "
               "\"time_ext\": %llu, \"end\": %llu, \"sync\": %llu, "
               "\"lost\": %llu, \"trace\": %llu},\n \"fields\": {",
               (unsigned long long)s->function, (unsigned long long)s->os,
               (unsigned long long)s->time_ext, (unsigned long long)s->end,
               (unsigned long long)s->sync, (unsigned long long)s->lost,
               (unsigned long long)trace);
        for (int f = 0; f < TRC_F__COUNT; f++)
            printf("\"%s\": {\"raw\": %llu, \"coded\": %llu}, ", names[f],
                   (unsigned long long)s->raw_bits[f],
                   (unsigned long long)s->coded_bits[f]);
        printf("\"kind\": {\"coded\": %llu}},\n \"padding_bits\": %llu, "
               "\"hits\": {\"function\": [%llu, %llu], \"type\": [%llu, %llu],"
               " \"value\": [%llu, %llu]},\n \"stream_bytes\": %llu, "
               "\"bits_per_record\": %.4f",
               (unsigned long long)s->kind_bits,
               (unsigned long long)s->pad_bits,
               (unsigned long long)s->hits[0], (unsigned long long)s->lookups[0],
               (unsigned long long)s->hits[1], (unsigned long long)s->lookups[1],
               (unsigned long long)s->hits[2], (unsigned long long)s->lookups[2],
               (unsigned long long)bytes, bpr);
        print_format(p, 1);
        if (s->units)
            printf(",\n \"check\": {\"units\": %llu, \"bits\": %llu}",
                   (unsigned long long)s->units, (unsigned long long)s->check_bits);
        if (stack)
            printf(",\n \"stack\": {\"predicted\": %llu, \"top_exits\": %llu, "
                   "\"os_predicted\": %llu, "
                   "\"delta\": {\"eq\": %llu, \"near\": %llu, \"length\": %llu, "
                   "\"escape\": %llu}}",
                   (unsigned long long)s->predicted,
                   (unsigned long long)s->top_exits,
                   (unsigned long long)s->os_predicted,
                   (unsigned long long)s->delta_sym[0],
                   (unsigned long long)s->delta_sym[1],
                   (unsigned long long)s->delta_sym[2],
                   (unsigned long long)s->delta_sym[3]);
        if (!open)
            printf("}\n");
        return;
    }
    printf("%-22s %14s %14s %7s\n", "field", "raw bits", "coded bits",
           "ratio");
    for (int f = 0; f < TRC_F__COUNT; f++)
        printf("%-22s %14llu %14llu %6.1f%%\n", labels[f],
               (unsigned long long)s->raw_bits[f],
               (unsigned long long)s->coded_bits[f],
               pct(s->coded_bits[f], s->raw_bits[f]));
    printf("%-22s %14llu %14llu %6.1f%%\n", "total (no kind bit)",
           (unsigned long long)raw, (unsigned long long)coded,
           pct(coded, raw));
    /* raw: one kind bit per raw record; coded: what the stream spent on
     * kinds (stack mode: the NP codes and event classes) */
    uint64_t raw_kind = s->function + s->os;
    printf("%-22s %14llu %14llu %6.1f%%\n", "total (with kind bit)",
           (unsigned long long)(raw + raw_kind),
           (unsigned long long)(coded + s->kind_bits),
           pct(coded + s->kind_bits, raw + raw_kind));
    printf("records: %llu trace (%llu function, %llu OS incl. %llu TIME_EXT, "
           "%llu END, %llu SYNC, %llu LOST)\n",
           (unsigned long long)trace, (unsigned long long)s->function,
           (unsigned long long)s->os, (unsigned long long)s->time_ext,
           (unsigned long long)s->end, (unsigned long long)s->sync,
           (unsigned long long)s->lost);
    printf("stream: %llu bytes, %.3f bits/record, %llu padding bits\n",
           (unsigned long long)bytes, bpr, (unsigned long long)s->pad_bits);
    print_format(p, 0);
    if (s->units)
        printf("check: %llu units, each closed by a CRC-32, %llu bits of zeros "
               "and CRCs\n",
               (unsigned long long)s->units, (unsigned long long)s->check_bits);
    printf("dictionary hit rate: function %.1f%%, type %.1f%%, value %.1f%%\n",
           pct(s->hits[0], s->lookups[0]), pct(s->hits[1], s->lookups[1]),
           pct(s->hits[2], s->lookups[2]));
    if (stack) {
        uint64_t n = s->delta_sym[0] + s->delta_sym[1] + s->delta_sym[2] +
                     s->delta_sym[3];
        printf("stack mode: function records predicted %.1f%%, exits of the top "
               "%.1f%%, through the dictionary %.1f%%\n",
               pct(s->predicted, s->function), pct(s->top_exits, s->function),
               pct(s->lookups[0], s->function));
        if (s->os_predicted) /* stack mode 2's OS context table */
            printf("stack mode 2: OS records predicted %.1f%%\n",
                   pct(s->os_predicted, s->os));
        printf("stack mode deltas: equal %.1f%%, off by one %.1f%%, bit length "
               "%.1f%%, escaped %.1f%%\n", pct(s->delta_sym[0], n),
               pct(s->delta_sym[1], n), pct(s->delta_sym[2], n),
               pct(s->delta_sym[3], n));
    }
}

/* Per CPU (several CPUs, docs/format.md 4.9): trace records and figures;
 * the switch codes. */
typedef struct {
    unsigned n;
    uint64_t trace[TRC_CPU_MAX];
    trc_stats st[TRC_CPU_MAX];
    uint64_t switches;
    unsigned swbits;
} cpu_figs;

/* Figures of the stream that text input would compress to: the records go
 * through the (multi-CPU) encoder and straight back through a decoder. */
static int stats_of_text(cli_reader *rd, const trc_params *p, trc_stats *st,
                         uint64_t *bytes, uint64_t *trace, cpu_figs *cf)
{
    static trc_mp_encoder enc;
    static trc_mp_decoder dec;
    static trc_record out[CHUNK_RECS];
    static uint8_t ocpu[CHUNK_RECS];
    static uint8_t buf[OUT_BYTES + TRC_MP_MIN_DST];
    size_t keep = 0; /* undecoded bytes at buf[0..keep) */
    int got = 1;
    trc_mp_encoder_init(&enc, p);
    trc_mp_decoder_init(&dec, p);
    *bytes = *trace = 0;
    while (got == 1) {
        trc_record r;
        size_t len = 0, used, n;
        got = cli_reader_next(rd, &r);
        if (got < 0)
            return 1;
        if (got == 1) {
            size_t done = 0;
            while (!done) {
                trc_mp_encode(&enc, cli_reader_cpu(rd), &r, 1, &done, buf + keep,
                              OUT_BYTES - keep, &len);
                keep += len;
                *bytes += len;
                if (!done || keep > OUT_BYTES / 2) {
                    trc_mp_decode(&dec, buf, keep, &used, out, ocpu, CHUNK_RECS, &n, 0);
                    for (size_t i = 0; i < n; i++)
                        cf->trace[ocpu[i]]++;
                    *trace += n;
                    memmove(buf, buf + used, keep - used);
                    keep -= used;
                }
            }
        } else {
            trc_mp_encode_end(&enc, buf + keep, OUT_BYTES - keep, &len);
            keep += len;
            *bytes += len;
            do {
                trc_mp_decode(&dec, buf, keep, &used, out, ocpu, CHUNK_RECS, &n, 1);
                for (size_t i = 0; i < n; i++)
                    cf->trace[ocpu[i]]++;
                *trace += n;
                memmove(buf, buf + used, keep - used);
                keep -= used;
            } while (n == CHUNK_RECS);
        }
    }
    memset(st, 0, sizeof *st);
    for (unsigned k = 0; k < dec.ncpu; k++) {
        cf->st[k] = dec.cpu[k].st;
        cli_stats_add(st, &dec.cpu[k].st);
    }
    cf->switches = dec.switches;
    return 0;
}

/* The per-CPU table (several CPUs only): records, bits each CPU's records
 * took (the switch codes apart), dictionary hit rates. */
static void print_cpus(const cpu_figs *cf, uint64_t trace, int json)
{
    uint64_t swb = cf->switches * cf->swbits;
    if (json) {
        printf(",\n \"cpus\": %u, \"switches\": {\"codes\": %llu, \"bits\": %llu}, "
               "\"per_cpu\": [", cf->n, (unsigned long long)cf->switches,
               (unsigned long long)swb);
        for (unsigned k = 0; k < cf->n; k++) {
            const trc_stats *s = &cf->st[k];
            uint64_t bits = s->kind_bits + s->pad_bits;
            for (int f = 0; f < TRC_F__COUNT; f++)
                bits += s->coded_bits[f];
            printf("%s{\"cpu\": %u, \"trace\": %llu, \"function\": %llu, \"os\": %llu, "
                   "\"time_ext\": %llu, \"end\": %llu, \"lost\": %llu, \"bits\": %llu, "
                   "\"hits\": {\"function\": [%llu, %llu], \"type\": [%llu, %llu], "
                   "\"value\": [%llu, %llu]}}",
                   k ? ", " : "", k, (unsigned long long)cf->trace[k],
                   (unsigned long long)s->function, (unsigned long long)s->os,
                   (unsigned long long)s->time_ext, (unsigned long long)s->end,
                   (unsigned long long)s->lost, (unsigned long long)bits,
                   (unsigned long long)s->hits[0], (unsigned long long)s->lookups[0],
                   (unsigned long long)s->hits[1], (unsigned long long)s->lookups[1],
                   (unsigned long long)s->hits[2], (unsigned long long)s->lookups[2]);
        }
        printf("]");
        return;
    }
    printf("cpus: %u; switch codes %llu (%u bits each, %llu bits, %.3f bits/record)\n",
           cf->n, (unsigned long long)cf->switches, cf->swbits, (unsigned long long)swb,
           trace ? (double)swb / (double)trace : 0.0);
    printf("%-4s %12s %12s %10s %8s %12s %11s %7s %7s %7s\n", "cpu", "records", "function",
           "os", "lost", "coded bits", "bits/record", "fn hit", "type", "value");
    for (unsigned k = 0; k < cf->n; k++) {
        const trc_stats *s = &cf->st[k];
        uint64_t bits = s->kind_bits + s->pad_bits;
        for (int f = 0; f < TRC_F__COUNT; f++)
            bits += s->coded_bits[f];
        printf("%-4u %12llu %12llu %10llu %8llu %12llu %11.3f %6.1f%% %6.1f%% %6.1f%%\n", k,
               (unsigned long long)cf->trace[k], (unsigned long long)s->function,
               (unsigned long long)s->os, (unsigned long long)s->lost,
               (unsigned long long)bits,
               cf->trace[k] ? (double)bits / (double)cf->trace[k] : 0.0,
               pct(s->hits[0], s->lookups[0]), pct(s->hits[1], s->lookups[1]),
               pct(s->hits[2], s->lookups[2]));
    }
}

int cmd_stats(const cli_args *a)
{
    cli_reader *rd = cli_open_trace(a, a->pos[0]);
    if (!rd)
        return 1;
    trc_stats st;
    static cpu_figs cf;
    uint64_t bytes = 0, trace = 0;
    int rc, json = cli_given(a, OPT_JSON);
    trc_params p = *cli_reader_params(rd);
    memset(&cf, 0, sizeof cf);
    cf.n = cli_reader_cpus(rd);
    cf.swbits = trc_switch_bits(cli_reader_params(rd));
    if (cli_reader_is_stream(rd)) {
        trc_record r;
        int got;
        while ((got = cli_reader_next(rd, &r)) == 1) {
            trace++;
            cf.trace[cli_reader_cpu(rd)]++;
        }
        rc = got < 0;
        st = *cli_reader_stats(rd);
        bytes = cli_reader_stream_bytes(rd);
        for (unsigned k = 0; k < cf.n && cf.n > 1; k++)
            cf.st[k] = *cli_reader_cpu_stats(rd, k);
        cf.switches = cli_reader_switches(rd, &cf.swbits);
    } else {
        /* what compress would write: its time quantum too */
        rc = !cli_quantum(a, &p.tq) ||
             stats_of_text(rd, &p, &st, &bytes, &trace, &cf);
    }
    if (rc == 0) {
        print_stats(&st, &p, bytes, trace, json, cf.n > 1);
        if (cf.n > 1) {
            print_cpus(&cf, trace, json);
            if (json)
                printf("}\n");
        }
    }
    cli_reader_close(rd);
    return rc;
}
