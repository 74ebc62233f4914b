/*
 * Quoted-printable decoding (RFC 2045, section 6.7).
 *
 * The decoder follows the RFC's advice for receiving agents and is lenient:
 * an '=' that starts neither a valid "=XX" escape nor a soft line break is
 * kept literally instead of rejecting the whole part, since mail software
 * in the wild routinely forgets to encode it (URLs with query strings are
 * the usual culprit).
 */
#include "internal.h"

int mimedec_hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  /* Lower-case hex is not allowed by the RFC but several encoders emit it. */
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

/*
 * If in[i] is an '=' that starts a soft line break, returns the number of
 * input bytes the break occupies, otherwise 0. The '=' may be followed by
 * transport padding (spaces and tabs) before the line ending, and an '=' at
 * the very end of the body is treated as a break with no line ending.
 */
size_t mimedec_qp_soft_break(const char *in, size_t len, size_t i) {
  size_t j = i + 1;

  while (j < len && (in[j] == ' ' || in[j] == '\t')) j++;
  if (j == len) return j - i;
  if (in[j] == '\n') return j + 1 - i;
  if (in[j] == '\r' && j + 1 < len && in[j + 1] == '\n') return j + 2 - i;
  return 0;
}

/*
 * Decodes in[0..len) into out, which must have room for the length computed
 * by the body measuring pass. Returns the number of bytes written. Line
 * endings are passed through unchanged.
 */
size_t mimedec_qp_decode(const char *in, size_t len, uint8_t *out) {
  size_t i = 0, o = 0;

  while (i < len) {
    unsigned char c = (unsigned char)in[i];

    if (c == '=') {
      size_t brk = mimedec_qp_soft_break(in, len, i);
      if (brk != 0) {
        i += brk;
        continue;
      }
      if (i + 2 < len) {
        int hi = mimedec_hexval((unsigned char)in[i + 1]);
        int lo = mimedec_hexval((unsigned char)in[i + 2]);
        if (hi >= 0 && lo >= 0) {
          out[o++] = (uint8_t)(hi << 4 | lo);
          i += 3;
          continue;
        }
      }
      /* Not an escape: fall through and keep the '=' as data. */
    }
    out[o++] = c;
    i++;
  }
  return o;
}
