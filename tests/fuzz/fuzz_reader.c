/*
 * fuzz_reader.c - libFuzzer target for the CLI's trace reader: .trc
 * containers (plain and framed, with resynchronisation), bare streams and
 * trace text, as `trc decompress` and every other subcommand read them.
 * Byte 0: bit 0 = --raw, bits 1-3 = parameter set, bits 4-7 = --from-frame.
 */
#include <stdio.h>

#include "trc_cli.h"

static const trc_params sets[8] = {
    {23, 15, 7, 16, 3, 3, 3}, {2, 1, 3, 1, 1, 1, 1},  {16, 8, 4, 8, 2, 2, 2},
    {32, 31, 16, 32, 8, 8, 8}, {20, 12, 5, 9, 5, 4, 3}, {23, 15, 7, 16, 1, 1, 1},
    {8, 4, 3, 4, 4, 3, 4},    {24, 20, 9, 24, 6, 6, 6},
};

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    if (size < 2)
        return 0;
    FILE *f = fmemopen((void *)(data + 1), size - 1, "rb");
    if (!f)
        return 0;
    cli_reader *rd = cli_reader_from(f, "fuzz", &sets[(data[0] >> 1) & 7u],
                                     data[0] & 1u);
    if (!rd)
        return 0;
    cli_reader_from_frame(rd, data[0] >> 4);
    trc_record r;
    for (long n = 0; n < (1L << 20) && cli_reader_next(rd, &r) == 1; n++)
        ;
    cli_reader_close(rd);
    return 0;
}
