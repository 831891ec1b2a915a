// trc_vec.cpp - writes the Icarus directed test's vectors with the C model:
//   OUTDIR/rec.hex   raw records in the s_axis_tdata layout, one per line
//   OUTDIR/exp.hex   the model's stream, one byte per line
//   OUTDIR/last.hex  per byte: 1 where a word must end with tlast (END/SYNC)
//   OUTDIR/cnt.hex   record count, byte count
// usage: trc_vec TRACE N OUTDIR   (paper parameters; a SYNC after every 97
// raw records, an END after every 61, the trace's first N records)
#include "trc_sim_util.h"

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: trc_vec TRACE N OUTDIR\n");
        return 2;
    }
    const trc_params p = sim_params();
    std::vector<trc_record> tr, low, raw;
    std::vector<size_t> l2t;
    std::string err;
    if (!sim_load_trace(argv[1], p, strtoull(argv[2], nullptr, 0), false, tr, err)) {
        fprintf(stderr, "trc_vec: %s\n", err.c_str());
        return 1;
    }
    sim_lower(p, tr, low, l2t);
    for (size_t i = 0; i < low.size(); i++) {
        raw.push_back(low[i]);
        if ((i + 1) % 97 == 0)
            raw.push_back(sim_marker(p, TRC_TYPE_SYNC(&p)));
        if ((i + 1) % 61 == 0)
            raw.push_back(sim_marker(p, TRC_TYPE_END(&p)));
    }
    raw.push_back(sim_marker(p, TRC_TYPE_END(&p)));

    std::string dir = argv[3];
    FILE *fr = fopen((dir + "/rec.hex").c_str(), "w");
    FILE *fe = fopen((dir + "/exp.hex").c_str(), "w");
    FILE *fl = fopen((dir + "/last.hex").c_str(), "w");
    FILE *fc = fopen((dir + "/cnt.hex").c_str(), "w");
    if (!fr || !fe || !fl || !fc) {
        fprintf(stderr, "trc_vec: cannot write in %s\n", dir.c_str());
        return 1;
    }
    trc_encoder e;
    trc_encoder_init(&e, &p);
    size_t nbytes = 0;
    for (const trc_record &r : raw) {
        uint8_t buf[TRC_MAX_RECORD_BYTES];
        size_t n = 0;
        if (trc_encode_raw(&e, &r, buf, sizeof buf, &n) != TRC_OK) {
            fprintf(stderr, "trc_vec: model refused a record\n");
            return 1;
        }
        fprintf(fr, "%llx\n", (unsigned long long)sim_pack(p, r));
        bool flush = r.kind == TRC_OS && (r.a == TRC_TYPE_END(&p) || r.a == TRC_TYPE_SYNC(&p));
        for (size_t k = 0; k < n; k++) {
            fprintf(fe, "%02x\n", buf[k]);
            fprintf(fl, "%d\n", flush && k + 1 == n);
        }
        nbytes += n;
    }
    fprintf(fc, "%08zx\n%08zx\n", raw.size(), nbytes);
    fclose(fr);
    fclose(fe);
    fclose(fl);
    fclose(fc);
    printf("%zu records, %zu bytes\n", raw.size(), nbytes);
    return 0;
}
