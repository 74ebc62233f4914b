/*
 * Row decoders.
 *
 * RLE rows use a PackBits-style scheme on whole pixels. Each packet starts
 * with a control byte n:
 *
 *   0..127    n + 1 literal pixels follow
 *   128       no-op, kept for compatibility with PackBits encoders
 *   129..255  the following single pixel is repeated 257 - n times
 *
 * Every row is compressed independently; a packet may not run past the end
 * of its row.
 */
#include <string.h>

#include "rz_internal.h"

rz_status rz_rle_decode_row(rz_reader *r, uint8_t *dst, uint32_t width,
                            unsigned pixel_size) {
  uint32_t x = 0;

  while (x < width) {
    const uint8_t *src;
    uint8_t ctrl;
    uint32_t count, i;
    unsigned b;

    if (!rz_read_u8(r, &ctrl))
      return RZ_ERR_TRUNCATED;
    if (ctrl == 128)
      continue;

    count = ctrl < 128 ? (uint32_t)ctrl + 1 : 257u - ctrl;
    if (count > width - x)
      return RZ_ERR_CORRUPT;

    if (ctrl < 128) {
      src = rz_read_bytes(r, (size_t)count * pixel_size);
      if (!src)
        return RZ_ERR_TRUNCATED;
      memcpy(dst, src, (size_t)count * pixel_size);
      dst += (size_t)count * pixel_size;
    } else {
      src = rz_read_bytes(r, pixel_size);
      if (!src)
        return RZ_ERR_TRUNCATED;
      for (i = 0; i < count; i++) {
        for (b = 0; b < pixel_size; b++)
          dst[b] = src[b];
        dst += pixel_size;
      }
    }
    x += count;
  }
  return RZ_OK;
}

rz_status rz_raw_decode_row(rz_reader *r, uint8_t *dst, size_t row_bytes) {
  const uint8_t *src = rz_read_bytes(r, row_bytes);

  if (!src)
    return RZ_ERR_TRUNCATED;
  memcpy(dst, src, row_bytes);
  return RZ_OK;
}
