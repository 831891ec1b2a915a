/*
 * trc_crc.c - CRC-32 (IEEE 802.3, reflected, as zlib's crc32()), sliced by 8
 * with the tables of trc_crc32_tab.h: the frame headers of framed containers
 * (docs/format.md 5.1) and the units of checked streams (4.10).
 */
#include "trc.h"
#include "trc_crc32_tab.h"

static uint32_t le32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
           (uint32_t)b[3] << 24;
}

uint32_t trc_crc32(uint32_t crc, const uint8_t *buf, size_t len)
{
    const uint32_t(*t)[256] = trc_crc32_tab;
    crc = ~crc;
    for (; len >= 8; len -= 8, buf += 8) {
        uint32_t lo = crc ^ le32(buf), hi = le32(buf + 4);
        crc = t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff] ^
              t[5][(lo >> 16) & 0xff] ^ t[4][lo >> 24] ^ t[3][hi & 0xff] ^
              t[2][(hi >> 8) & 0xff] ^ t[1][(hi >> 16) & 0xff] ^ t[0][hi >> 24];
    }
    for (; len; len--, buf++)
        crc = (crc >> 8) ^ t[0][(crc ^ *buf) & 0xff];
    return ~crc;
}
