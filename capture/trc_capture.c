/*
 * trc_capture.c - -finstrument-functions hooks that record function entries
 * and exits with CLOCK_MONOTONIC time, per thread, and write one trace in
 * time order plus a symbol map at exit. Interface and configuration:
 * trc_capture.h; formats: docs/host-tools.md.
 *
 * Hot path: one clock_gettime (vDSO) and a 16-byte store into a thread-local
 * buffer; no lock, no allocation. A full buffer is appended to the thread's
 * own unlinked spill file. At exit the spill files are merged by time (k-way),
 * function addresses get ids by first appearance, and names are read from the
 * ELF symbol tables of the loaded objects (PIE and shared objects: the load
 * bias from dl_iterate_phdr is subtracted).
 *
 * Nothing here may be instrumented: the build compiles this file without
 * -finstrument-functions, and every function is also marked
 * no_instrument_function in case someone does.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "trc.h"
#include "trc_capture.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#else
#define HAVE_TSC 0
#endif

#define NOI __attribute__((no_instrument_function))
#define BUF_EVENTS 65536u           /* events per thread buffer (1 MiB) */
#define EXIT_FLAG (UINT64_C(1) << 63) /* in ev.t */

typedef struct {
    uint64_t t;  /* CLOCK_MONOTONIC ns, EXIT_FLAG for an exit */
    uint64_t fn; /* function address */
} ev;

typedef struct tbuf {
    ev *e;
    size_t n;
    size_t cap;      /* BUF_EVENTS; 0 once the thread has ended */
    int fd;          /* spill file, -1 until the first spill */
    int err;         /* a spill failed: later events are lost */
    uint32_t idx;    /* thread index, 0 = first thread */
    pid_t tid;
    uint64_t spilled; /* events in the spill file */
    uint64_t lost;
    struct tbuf *next;
} tbuf;

static struct {
    volatile int active;   /* recording */
    volatile int finished; /* trc_capture_finish ran (or a forked child) */
    uint64_t t0_ns;        /* time base: a multiple of tick_ns */
    uint64_t tick_ns;
    char out[PATH_MAX], syms[PATH_MAX], tmpdir[PATH_MAX];
    int quiet;
    int tsc;               /* events hold TSC counts, converted at exit */
    uint64_t tsc0, mono0;  /* calibration pair at start ... */
    uint64_t tsc1, mono1;  /* ... and at finish */
    pthread_mutex_t lock; /* guards the thread list */
    pthread_key_t key;
    tbuf *threads;
    uint32_t nthreads;
} g = {.lock = PTHREAD_MUTEX_INITIALIZER};

static __thread tbuf *my_buf;

static NOI uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline NOI uint64_t stamp(void)
{
#if HAVE_TSC
    if (g.tsc)
        return __rdtsc();
#endif
    return now_ns();
}

/* A (TSC, CLOCK_MONOTONIC) pair read as close together as possible. */
static NOI void calibrate(uint64_t *tsc, uint64_t *mono)
{
#if HAVE_TSC
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 8; i++) {
        uint64_t a = now_ns(), t = __rdtsc(), b = now_ns();
        if (b - a < best) {
            best = b - a;
            *tsc = t;
            *mono = a + (b - a) / 2;
        }
    }
#else
    *tsc = 0;
    *mono = now_ns();
#endif
}

/* Event time in ns on CLOCK_MONOTONIC: TSC counts are placed on the line
 * through the two calibration pairs, so both ends agree with the clock. */
static inline NOI uint64_t event_ns(uint64_t t)
{
    if (!g.tsc)
        return t;
#ifdef __SIZEOF_INT128__
    __int128 d = (__int128)t - (__int128)g.tsc0;
    __int128 ns = (__int128)g.mono0 +
                  d * (__int128)(g.mono1 - g.mono0) / (__int128)(g.tsc1 - g.tsc0);
#else
    long double ns = (long double)g.mono0 + ((long double)t - (long double)g.tsc0) *
                     (long double)(g.mono1 - g.mono0) / (long double)(g.tsc1 - g.tsc0);
#endif
    return ns < 0 ? 0 : (uint64_t)ns;
}

static NOI void spill(tbuf *b)
{
    if (b->err || !b->n) {
        b->lost += b->err ? b->n : 0;
        b->n = 0;
        return;
    }
    if (b->fd < 0) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/trc_capture.XXXXXX", g.tmpdir);
        b->fd = mkstemp(path);
        if (b->fd >= 0)
            unlink(path);
    }
    const char *p = (const char *)b->e;
    size_t left = b->n * sizeof(ev);
    while (b->fd >= 0 && left) {
        ssize_t w = write(b->fd, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        p += w;
        left -= (size_t)w;
    }
    if (b->fd < 0 || left) {
        b->err = 1;
        b->lost += b->n;
    } else {
        b->spilled += b->n;
    }
    b->n = 0;
}

/* Thread end: a thread that never spilled keeps its events in memory, cut
 * to size (no file descriptor per short-lived thread); one that spilled
 * writes the rest and frees its buffer. Events after this (destructors of
 * other thread-local data) are counted as lost. */
static NOI void thread_done(void *arg)
{
    tbuf *b = arg;
    pthread_mutex_lock(&g.lock);
    if (!g.finished) {
        if (b->fd < 0) {
            ev *e = realloc(b->e, (b->n ? b->n : 1) * sizeof(ev));
            if (e)
                b->e = e;
        } else {
            spill(b);
            free(b->e);
            b->e = NULL;
        }
        b->cap = 0;
    }
    pthread_mutex_unlock(&g.lock);
}

static NOI tbuf *tbuf_new(void)
{
    tbuf *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->e = malloc(BUF_EVENTS * sizeof(ev));
    if (!b->e) {
        free(b);
        return NULL;
    }
    b->fd = -1;
    b->cap = BUF_EVENTS;
    b->tid = (pid_t)syscall(SYS_gettid);
    pthread_mutex_lock(&g.lock);
    if (g.finished) {
        pthread_mutex_unlock(&g.lock);
        free(b->e);
        free(b);
        return NULL;
    }
    b->idx = g.nthreads++;
    /* Append: the list stays in thread index order. */
    tbuf **pp = &g.threads;
    while (*pp)
        pp = &(*pp)->next;
    *pp = b;
    pthread_mutex_unlock(&g.lock);
    pthread_setspecific(g.key, b);
    my_buf = b;
    return b;
}

static NOI void record(void *fn, uint64_t flag)
{
    if (!g.active)
        return;
    tbuf *b = my_buf;
    if (__builtin_expect(b == NULL, 0) && !(b = tbuf_new()))
        return;
    /* The slot is taken before it is filled, so an instrumented signal
     * handler that runs in between gets the next slot, never this one. */
    size_t i = b->n;
    if (__builtin_expect(i >= b->cap, 0)) {
        if (!b->cap) { /* the thread has ended */
            b->lost++;
            return;
        }
        spill(b);
        i = 0;
    }
    b->n = i + 1;
    ev *e = &b->e[i];
    e->t = stamp() | flag;
    e->fn = (uint64_t)(uintptr_t)fn;
    if (__builtin_expect(b->n == b->cap, 0))
        spill(b);
}

NOI void __cyg_profile_func_enter(void *fn, void *site)
{
    (void)site;
    record(fn, 0);
}

NOI void __cyg_profile_func_exit(void *fn, void *site)
{
    (void)site;
    record(fn, EXIT_FLAG);
}

/* ---- Symbols ------------------------------------------------------------------ */

typedef struct {
    uint64_t value, size;
    const char *name;
} sym;

typedef struct module {
    char path[PATH_MAX];
    uint64_t bias;             /* load bias (dlpi_addr) */
    uint64_t lo, hi;           /* mapped PT_LOAD range, runtime addresses */
    sym *s;
    size_t ns;
    char *strtab;              /* names point into it */
    int loaded;
    struct module *next;
} module;

static NOI int phdr_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    module **list = arg;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uint64_t a = info->dlpi_addr + ph->p_vaddr;
        if (a < lo)
            lo = a;
        if (a + ph->p_memsz > hi)
            hi = a + ph->p_memsz;
    }
    if (lo >= hi)
        return 0;
    module *m = calloc(1, sizeof *m);
    if (!m)
        return 0;
    m->bias = info->dlpi_addr;
    m->lo = lo;
    m->hi = hi;
    if (info->dlpi_name && info->dlpi_name[0]) {
        snprintf(m->path, sizeof m->path, "%s", info->dlpi_name);
    } else {
        ssize_t n = readlink("/proc/self/exe", m->path, sizeof m->path - 1);
        m->path[n > 0 ? n : 0] = 0;
    }
    m->next = *list;
    *list = m;
    return 0;
}

static NOI int sym_cmp(const void *a, const void *b)
{
    const sym *x = a, *y = b;
    return x->value < y->value ? -1 : x->value > y->value;
}

/* Reads the function symbols of an ELF64 file (.symtab, else .dynsym). */
static NOI void load_syms(module *m)
{
    m->loaded = 1;
    int fd = open(m->path, O_RDONLY);
    if (fd < 0)
        return;
    struct stat st;
    unsigned char *img = NULL;
    if (fstat(fd, &st) == 0 && st.st_size > (off_t)sizeof(Elf64_Ehdr) &&
        (img = malloc((size_t)st.st_size)) != NULL) {
        size_t got = 0;
        while (got < (size_t)st.st_size) {
            ssize_t r = read(fd, img + got, (size_t)st.st_size - got);
            if (r <= 0)
                break;
            got += (size_t)r;
        }
        if (got != (size_t)st.st_size) {
            free(img);
            img = NULL;
        }
    }
    close(fd);
    if (!img)
        return;
    size_t size = (size_t)st.st_size;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_shoff == 0 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
        eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > size) {
        free(img);
        return;
    }
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(img + eh->e_shoff);
    const Elf64_Shdr *tab = NULL;
    for (int pass = 0; pass < 2 && !tab; pass++)
        for (unsigned i = 0; i < eh->e_shnum; i++)
            if (sh[i].sh_type == (pass ? SHT_DYNSYM : SHT_SYMTAB)) {
                tab = &sh[i];
                break;
            }
    if (!tab || tab->sh_link >= eh->e_shnum || tab->sh_offset + tab->sh_size > size ||
        sh[tab->sh_link].sh_offset + sh[tab->sh_link].sh_size > size) {
        free(img);
        return;
    }
    const Elf64_Shdr *strs = &sh[tab->sh_link];
    size_t n = tab->sh_size / sizeof(Elf64_Sym);
    const Elf64_Sym *s = (const Elf64_Sym *)(img + tab->sh_offset);
    m->strtab = malloc(strs->sh_size + 1);
    m->s = malloc((n ? n : 1) * sizeof *m->s);
    if (!m->strtab || !m->s) {
        free(img);
        return;
    }
    memcpy(m->strtab, img + strs->sh_offset, strs->sh_size);
    m->strtab[strs->sh_size] = 0;
    for (size_t i = 0; i < n; i++) {
        int type = ELF64_ST_TYPE(s[i].st_info);
        if ((type != STT_FUNC && type != STT_GNU_IFUNC) || !s[i].st_value ||
            s[i].st_shndx == SHN_UNDEF || s[i].st_name >= strs->sh_size)
            continue;
        m->s[m->ns].value = s[i].st_value;
        m->s[m->ns].size = s[i].st_size;
        m->s[m->ns].name = m->strtab + s[i].st_name;
        m->ns++;
    }
    qsort(m->s, m->ns, sizeof *m->s, sym_cmp);
    free(img);
}

static NOI const char *sym_name(module *m, uint64_t off)
{
    if (!m->loaded)
        load_syms(m);
    size_t lo = 0, hi = m->ns;
    while (lo < hi) { /* first symbol with value > off */
        size_t mid = (lo + hi) / 2;
        if (m->s[mid].value <= off)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    const sym *s = &m->s[lo - 1];
    /* Prefer an exact start among aliases; sizes 0 count as exact only. */
    if (s->value == off || off < s->value + s->size)
        return s->name;
    return NULL;
}

/* Output files are written beside their target under a temporary name and
 * renamed over it only when complete, so a failed write never leaves half a
 * trace or destroys an older one; a non-regular target (a FIFO, /dev/null)
 * is written in place. */
typedef struct {
    FILE *f;
    const char *path;
    char tmp[PATH_MAX + 16];
} outfile;

static NOI FILE *out_open(outfile *o, const char *path)
{
    struct stat st;
    o->path = path;
    o->tmp[0] = 0;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return o->f = fopen(path, "w");
    snprintf(o->tmp, sizeof o->tmp, "%s.XXXXXX", path);
    int fd = mkstemp(o->tmp);
    if (fd < 0)
        return o->f = NULL;
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    if (!(o->f = fdopen(fd, "w"))) {
        close(fd);
        unlink(o->tmp);
    }
    return o->f;
}

/* Closes; keep: rename into place. 0 ok, -1 on any error (then the
 * temporary file is removed). */
static NOI int out_close(outfile *o, int keep)
{
    int bad = ferror(o->f) != 0;
    bad |= fclose(o->f) != 0;
    if (o->tmp[0]) {
        if (keep && !bad && rename(o->tmp, o->path) != 0)
            bad = 1;
        if (!keep || bad)
            unlink(o->tmp);
    }
    return bad || !keep ? -1 : 0;
}

static NOI int write_symmap(const uint64_t *addr, uint32_t nfn)
{
    outfile of;
    FILE *f = out_open(&of, g.syms);
    if (!f) {
        fprintf(stderr, "trc-capture: %s: %s\n", g.syms, strerror(errno));
        return -1;
    }
    module *mods = NULL;
    dl_iterate_phdr(phdr_cb, &mods);
    fprintf(f, "# trc-symmap v1: ID NAME ADDRESS MODULE OFFSET\n");
    fprintf(f, "# trc-timebase clock=monotonic tick_ns=%" PRIu64 " t0_ns=%" PRIu64 "\n",
            g.tick_ns, g.t0_ns);
    for (tbuf *b = g.threads; b; b = b->next)
        fprintf(f, "# trc-thread %" PRIu32 " tid=%ld\n", b->idx, (long)b->tid);
    for (uint32_t id = 0; id < nfn; id++) {
        module *m = mods;
        while (m && !(addr[id] >= m->lo && addr[id] < m->hi))
            m = m->next;
        uint64_t off = m ? addr[id] - m->bias : addr[id];
        const char *nm = m ? sym_name(m, off) : NULL;
        if (nm)
            fprintf(f, "%" PRIu32 " %s 0x%" PRIx64 " %s 0x%" PRIx64 "\n", id, nm,
                    addr[id], m->path, off);
        else
            fprintf(f, "%" PRIu32 " fn_0x%" PRIx64 " 0x%" PRIx64 " %s 0x%" PRIx64 "\n",
                    id, off, addr[id], m ? m->path : "?", off);
    }
    while (mods) {
        module *n = mods->next;
        free(mods->s);
        free(mods->strtab);
        free(mods);
        mods = n;
    }
    return out_close(&of, 1);
}

/* ---- Merge and write ------------------------------------------------------------ */

typedef struct {
    tbuf *b;
    ev *buf;
    size_t n, pos;
    uint64_t left; /* events still in the file */
    int own;       /* buf was allocated for the merge */
} cursor;

static NOI int cur_fill(cursor *c)
{
    size_t want = c->left < BUF_EVENTS ? (size_t)c->left : BUF_EVENTS;
    size_t got = 0;
    while (got < want * sizeof(ev)) {
        ssize_t r = read(c->b->fd, (char *)c->buf + got, want * sizeof(ev) - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        got += (size_t)r;
    }
    c->n = want;
    c->pos = 0;
    c->left -= want;
    return 0;
}

static inline NOI int cur_before(const cursor *a, const cursor *b)
{
    uint64_t x = a->buf[a->pos].t & ~EXIT_FLAG, y = b->buf[b->pos].t & ~EXIT_FLAG;
    return x < y || (x == y && a->b->idx < b->b->idx);
}

static NOI void sift_up(cursor **h, size_t i)
{
    while (i && cur_before(h[i], h[(i - 1) / 2])) {
        cursor *t = h[i];
        h[i] = h[(i - 1) / 2];
        h[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}

static NOI void sift_down(cursor **h, size_t n, size_t i)
{
    for (;;) {
        size_t m = i, l = 2 * i + 1, r = l + 1;
        if (l < n && cur_before(h[l], h[m]))
            m = l;
        if (r < n && cur_before(h[r], h[m]))
            m = r;
        if (m == i)
            return;
        cursor *t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

/* Address -> id, ids by first appearance. */
typedef struct {
    uint64_t *key;
    uint32_t *val;
    size_t cap, n;
    uint64_t *addr; /* by id */
} idmap;

static NOI uint32_t id_of(idmap *m, uint64_t a)
{
    if (2 * (m->n + 1) > m->cap) {
        size_t oc = m->cap;
        uint64_t *ok = m->key;
        uint32_t *ov = m->val;
        m->cap = oc ? oc * 2 : 4096;
        m->key = calloc(m->cap, sizeof *m->key);
        m->val = calloc(m->cap, sizeof *m->val);
        m->addr = realloc(m->addr, m->cap * sizeof *m->addr);
        if (!m->key || !m->val || !m->addr)
            abort(); /* out of memory while writing the trace */
        for (size_t i = 0; i < oc; i++)
            if (ok[i]) {
                size_t s = (size_t)((ok[i] * 0x9E3779B97F4A7C15u) >> 17) & (m->cap - 1);
                while (m->key[s])
                    s = (s + 1) & (m->cap - 1);
                m->key[s] = ok[i];
                m->val[s] = ov[i];
            }
        free(ok);
        free(ov);
    }
    size_t s = (size_t)((a * 0x9E3779B97F4A7C15u) >> 17) & (m->cap - 1);
    while (m->key[s] && m->key[s] != a)
        s = (s + 1) & (m->cap - 1);
    if (!m->key[s]) {
        m->key[s] = a;
        m->val[s] = (uint32_t)m->n;
        m->addr[m->n] = a;
        m->n++;
    }
    return m->val[s];
}

/* Output of the record writer: the trace file. */
static NOI int w_write(void *ctx, const uint8_t *buf, size_t len)
{
    return fwrite(buf, 1, len, ctx) == len ? 0 : -1;
}

static NOI int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

static NOI int write_trace(void)
{
    uint64_t start = now_ns();
    uint32_t k = 0;
    for (tbuf *b = g.threads; b; b = b->next)
        k++;
    cursor *c = calloc(k ? k : 1, sizeof *c);
    static trc_writer w;
    trc_params p = trc_params_paper();
    int err = 0;
    idmap ids;
    memset(&ids, 0, sizeof ids);
    if (!c)
        return -1;
    uint32_t i = 0;
    uint64_t total = 0, lost = 0;
    for (tbuf *b = g.threads; b; b = b->next, i++) {
        c[i].b = b;
        lost += b->lost;
        if (b->fd < 0) { /* all its events are in memory */
            c[i].buf = b->e;
            c[i].n = b->n;
            total += b->n;
            continue;
        }
        /* Spilled: read back through its buffer, or a new one if the thread
         * has ended and freed it. */
        c[i].left = b->spilled;
        total += b->spilled;
        c[i].buf = b->e;
        if (!c[i].buf) {
            c[i].buf = malloc(BUF_EVENTS * sizeof(ev));
            c[i].own = 1;
        }
        if (!c[i].buf || lseek(b->fd, 0, SEEK_SET) != 0 || cur_fill(&c[i])) {
            fprintf(stderr, "trc-capture: thread %" PRIu32 ": cannot read its "
                    "spill file back; its events are lost\n", b->idx);
            lost += c[i].left;
            c[i].left = c[i].n = 0;
        }
    }
    outfile of;
    FILE *f = out_open(&of, g.out);
    if (!f) {
        fprintf(stderr, "trc-capture: %s: %s\n", g.out, strerror(errno));
        free(c);
        return -1;
    }
    trc_writer_init(&w, &p, ends_with(g.out, ".trc") ? TRC_FORM_CONTAINER
                                                     : TRC_FORM_TEXT, 0,
                    w_write, f);
    {
        char exe[PATH_MAX], line[PATH_MAX + 128];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        exe[n > 0 ? n : 0] = 0;
        snprintf(line, sizeof line, "# trace text v1; trc capture of %s; tick = %"
                 PRIu64 " ns; %" PRIu32 " threads\n", exe, g.tick_ns, k);
        trc_writer_comment(&w, line);
        snprintf(line, sizeof line, "# trc-timebase clock=monotonic tick_ns=%"
                 PRIu64 " t0_ns=%" PRIu64 "\n", g.tick_ns, g.t0_ns);
        trc_writer_comment(&w, line);
    }
    uint64_t prev = g.t0_ns / g.tick_ns, done = 0;
    uint32_t last_thread = UINT32_MAX;
    uint32_t fid_max = (1u << p.fid_w) - 1u, too_many = 0;
    /* k-way merge: a binary min-heap of the threads by their next event's
     * time (ties: lower thread index first). */
    cursor **heap = malloc((k ? k : 1) * sizeof *heap);
    size_t nh = 0;
    if (!heap)
        abort();
    for (i = 0; i < k; i++)
        if (c[i].pos < c[i].n) {
            heap[nh++] = &c[i];
            sift_up(heap, nh - 1);
        }
    while (nh) {
        cursor *best = heap[0];
        ev e = best->buf[best->pos++];
        if (best->pos == best->n && best->left && cur_fill(best))
            best->left = best->n = 0;
        if (best->pos == best->n)
            heap[0] = heap[--nh];
        sift_down(heap, nh, 0);
        uint64_t tick = event_ns(e.t & ~EXIT_FLAG) / g.tick_ns;
        uint64_t delta = tick > prev ? tick - prev : 0;
        prev = tick > prev ? tick : prev;
        trc_record r;
        if (k > 1 && best->b->idx != last_thread) {
            last_thread = best->b->idx;
            r.delta = delta;
            r.kind = TRC_OS;
            r.a = TRC_CAPTURE_THREAD_TYPE;
            r.b = last_thread & ((1u << p.val_w) - 1u);
            err |= trc_writer_put(&w, &r) != TRC_OK;
            delta = 0;
        }
        r.delta = delta;
        r.kind = e.t & EXIT_FLAG ? TRC_EXIT : TRC_ENTRY;
        r.a = id_of(&ids, e.fn);
        r.b = 0;
        if (r.a > fid_max) {
            too_many = 1;
            r.a = fid_max; /* keeps the file readable; reported below */
        }
        err |= trc_writer_put(&w, &r) != TRC_OK;
        if ((++done & 0x3FFFFF) == 0 && !g.quiet)
            fprintf(stderr, "trc-capture: writing %" PRIu64 " / %" PRIu64 " events\n",
                    done, total);
    }
    free(heap);
    err |= trc_writer_finish(&w) != TRC_OK;
    if (out_close(&of, !err))
        err = 1;
    int rc = err ? -1 : 0;
    if (err)
        fprintf(stderr, "trc-capture: %s: write error\n", g.out);
    if (write_symmap(ids.addr, (uint32_t)ids.n))
        rc = -1;
    if (too_many)
        fprintf(stderr, "trc-capture: warning: %zu functions, more than FID_W "
                "allows; ids above %" PRIu32 " were written as %" PRIu32 "\n",
                ids.n, fid_max, fid_max);
    if (!g.quiet)
        fprintf(stderr, "trc-capture: %" PRIu64 " events, %" PRIu32 " threads, %zu "
                "functions -> %s, %s (clock %s, write %.1f ms)%s\n", done, k, ids.n,
                g.out, g.syms, g.tsc ? "tsc" : "monotonic",
                (double)(now_ns() - start) / 1e6, lost ? " EVENTS LOST" : "");
    if (lost)
        fprintf(stderr, "trc-capture: %" PRIu64 " events lost (spill file error, "
                "or recorded after their thread's end)\n", lost);
    for (i = 0; i < k; i++) {
        if (c[i].b->fd >= 0)
            close(c[i].b->fd);
        if (c[i].own)
            free(c[i].buf);
    }
    free(c);
    free(ids.key);
    free(ids.val);
    free(ids.addr);
    return rc;
}

int NOI trc_capture_finish(void)
{
    pthread_mutex_lock(&g.lock);
    if (g.finished) {
        pthread_mutex_unlock(&g.lock);
        return 0;
    }
    g.active = 0;
    g.finished = 1;
    if (g.tsc) {
        calibrate(&g.tsc1, &g.mono1);
        if (g.tsc1 <= g.tsc0 || g.mono1 <= g.mono0) { /* no time passed */
            g.tsc1 = g.tsc0 + 1;
            g.mono1 = g.mono0;
        }
    }
    /* Threads still running at exit may be inside record(): their last
     * events can be missed (documented). Buffers of threads that spilled
     * go to their files; the others stay in memory. */
    for (tbuf *b = g.threads; b; b = b->next)
        if (b->fd >= 0)
            spill(b);
    pthread_mutex_unlock(&g.lock);
    return write_trace();
}

static NOI void at_exit(void)
{
    trc_capture_finish();
}

static NOI void in_child(void)
{
    /* A forked child must not write over the parent's trace. */
    g.active = 0;
    g.finished = 1;
}

/* constant_tsc and nonstop_tsc: the TSC runs at one rate in all states. */
static NOI int invariant_tsc(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[4096];
    int c = 0, n = 0;
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "flags", 5)) {
            c = strstr(line, " constant_tsc") != NULL;
            n = strstr(line, " nonstop_tsc") != NULL;
            break;
        }
    fclose(f);
    return c && n;
}

static NOI void env_path(char *dst, const char *name, const char *def)
{
    const char *v = getenv(name);
    snprintf(dst, PATH_MAX, "%s", v && *v ? v : def);
}

__attribute__((constructor)) static NOI void init(void)
{
    const char *off = getenv("TRC_CAPTURE_OFF");
    if (off && *off && strcmp(off, "0"))
        return;
    g.quiet = getenv("TRC_CAPTURE_QUIET") != NULL;
    const char *t = getenv("TRC_CAPTURE_TICK_NS");
    g.tick_ns = t && atoll(t) > 0 ? (uint64_t)atoll(t) : 10;
    env_path(g.out, "TRC_CAPTURE_OUT", "trc_capture.txt");
    const char *td = getenv("TMPDIR");
    env_path(g.tmpdir, "TRC_CAPTURE_TMPDIR", td && *td ? td : "/tmp");
    const char *sy = getenv("TRC_CAPTURE_SYMS");
    if (sy && *sy) {
        snprintf(g.syms, sizeof g.syms, "%s", sy);
    } else {
        snprintf(g.syms, sizeof g.syms, "%s", g.out);
        char *dot = strrchr(g.syms, '.');
        char *slash = strrchr(g.syms, '/');
        if (dot && (!slash || dot > slash))
            *dot = 0;
        if (strlen(g.syms) + 5 < sizeof g.syms)
            strcat(g.syms, ".sym");
    }
    const char *clk = getenv("TRC_CAPTURE_CLOCK");
    if (clk && !strcmp(clk, "tsc")) {
        if (HAVE_TSC && invariant_tsc())
            g.tsc = 1;
        else if (!g.quiet)
            fprintf(stderr, "trc-capture: no invariant TSC here; using "
                    "clock_gettime(CLOCK_MONOTONIC)\n");
    }
    if (pthread_key_create(&g.key, thread_done))
        return;
    pthread_atfork(NULL, NULL, in_child);
    atexit(at_exit);
    if (g.tsc)
        calibrate(&g.tsc0, &g.mono0);
    g.t0_ns = (g.tsc ? g.mono0 : now_ns()) / g.tick_ns * g.tick_ns;
    g.active = 1;
}
