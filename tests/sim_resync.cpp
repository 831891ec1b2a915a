// sim_resync.cpp - the encoder harness's checked-stream reader
// (sim/trc_sim_enc_inject.h) on a stream of the C model, without the RTL:
//   sim_resync STREAM   STREAM: a bare checked stream at paper parameters
//                       (`trc compress --raw --check --sync-every N`)
// 1. A stale unit: a whole unit from early in the stream written again over
//    a later one (a trace buffer that still holds an earlier lap). Its CRC
//    checks and the resync search finds it first, but its count word tells
//    a loss that could not fit in the bytes skipped: the reader must pass
//    over it, resume at the next unit, and count decoded + lost = every
//    record of the stream.
// 2. --inject's own check on the model's stream: seeded bit errors, each
//    caught, and each read back to the same total.
// Prints what it found; exits 0 when both hold, 1 otherwise.
#include <cstdio>
#include <vector>

#define TRC_P_CHECK 1
#include "trc_sim_enc_inject.h"

struct Unit {
    size_t at, end;
};

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: sim_resync STREAM\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    std::vector<uint8_t> wire;
    for (int c; (c = getc(f)) != EOF;)
        wire.push_back((uint8_t)c);
    fclose(f);
    trc_params p = trc_params_paper();

    Resync ref = resync_decode(p, wire);
    if (ref.damaged || ref.open_end || ref.decoded == 0) {
        printf("%s: the undamaged stream reads as damaged or empty\n", argv[1]);
        return 1;
    }
    // its units, in order (each starts where the last ended)
    std::vector<Unit> units;
    size_t c, end, from = 0;
    uint64_t recs;
    uint32_t count;
    while (trc_check_find(&p, wire.data(), wire.size(), from, &c, &end, &recs, &count) ==
               TRC_OK && c == from && end - c > 8u) {
        units.push_back({c, end});
        from = end;
    }
    if (units.size() < 8) {
        printf("%s: %zu units in a row from the start, 8 needed\n", argv[1], units.size());
        return 1;
    }
    const Unit stale = units[1], hit = units[units.size() / 2];
    std::vector<uint8_t> s = wire;
    size_t at = hit.at + 8u; // the damaged unit keeps its first word
    if (at + (stale.end - stale.at) > s.size()) {
        printf("%s: the stale unit does not fit\n", argv[1]);
        return 1;
    }
    std::copy(wire.begin() + (long)stale.at, wire.begin() + (long)stale.end,
              s.begin() + (long)at);
    // the search from the damaged unit finds the stale copy first, and it checks
    if (trc_check_find(&p, s.data(), s.size(), hit.at + 8u, &c, &end, &recs, &count) !=
            TRC_OK || c != at) {
        printf("the stale unit at byte %zu is not what the search finds first\n", at);
        return 1;
    }
    Resync r = resync_decode(p, s);
    printf("stale unit (bytes %zu..%zu) over byte %zu: %llu units damaged, %llu decoded "
           "+ %llu lost = %llu, the stream has %llu records\n", stale.at, stale.end, at,
           (unsigned long long)r.damaged, (unsigned long long)r.decoded,
           (unsigned long long)r.lost, (unsigned long long)(r.decoded + r.lost),
           (unsigned long long)ref.decoded);
    int rc = 0;
    if (!r.damaged || r.open_end || r.decoded + r.lost != ref.decoded) {
        printf("STALE UNIT BELIEVED: decoded + lost differs from the records\n");
        rc = 1;
    }
    return inject_check(p, wire, 400, 1) | rc;
}
