/*
 * Base64 decoding (RFC 2045, section 6.8).
 *
 * Characters outside the base64 alphabet (line breaks, stray whitespace)
 * are ignored, as the RFC requires. The first '=' marks the end of the
 * encoded data; anything after it is discarded. A final group that lacks
 * its padding is still decoded as far as it carries whole octets.
 */
#include "internal.h"

int mimedec_b64val(int c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

/*
 * Decodes in[0..len) into out, which must have room for the length computed
 * by the body measuring pass. Returns the number of bytes written.
 */
size_t mimedec_b64_decode(const char *in, size_t len, uint8_t *out) {
  uint32_t acc = 0;
  unsigned bits = 0;
  size_t o = 0;

  for (size_t i = 0; i < len; i++) {
    int v;

    if (in[i] == '=') break;
    v = mimedec_b64val((unsigned char)in[i]);
    if (v < 0) continue;

    acc = (acc << 6) | (uint32_t)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (uint8_t)(acc >> bits);
      acc &= (1u << bits) - 1; /* keep only the bits not yet emitted */
    }
  }
  /* Leftover bits (fewer than 8) are padding bits and are dropped. */
  return o;
}
