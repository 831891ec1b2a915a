/* wl_text.c - module "text": seeded text generator and tokenizer. */
#include <ctype.h>
#include <string.h>

#include "wl.h"

uint32_t wl_rand(wl_rng *r)
{
    r->state = r->state * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(r->state >> 33);
}

static char letter(wl_rng *r)
{
    static const char freq[] = "eeeettaaoinnsshrdlcumwfgypbvk";
    return freq[wl_rand(r) % (sizeof freq - 1)];
}

size_t wl_make_text(wl_rng *r, char *buf, size_t cap)
{
    size_t n = 0;
    while (n + 16 < cap) {
        size_t len = 1 + wl_rand(r) % 4 + wl_rand(r) % 3;
        for (size_t i = 0; i < len; i++)
            buf[n++] = letter(r);
        buf[n++] = (wl_rand(r) % 9) ? ' ' : '\n';
    }
    buf[n] = 0;
    return n;
}

size_t wl_next_word(const char *s, size_t len, size_t *pos, char *word, size_t cap)
{
    size_t p = *pos, n = 0;
    while (p < len && !isalpha((unsigned char)s[p]))
        p++;
    while (p < len && isalpha((unsigned char)s[p])) {
        if (n + 1 < cap)
            word[n++] = s[p];
        p++;
    }
    word[n] = 0;
    *pos = p;
    return n;
}
