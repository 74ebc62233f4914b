/* Internal interfaces shared by the rasterz sources. Not installed. */
#ifndef RZ_INTERNAL_H
#define RZ_INTERNAL_H

#include "rasterz.h"

#define RZ_MAGIC "RSTZ"
#define RZ_HEADER_SIZE 16
#define RZ_FORMAT_VERSION 1

/* Bounds-checked cursor over the input buffer. */
typedef struct rz_reader {
  const uint8_t *data;
  size_t size;
  size_t pos;
} rz_reader;

void rz_reader_init(rz_reader *r, const uint8_t *data, size_t size);
size_t rz_reader_remaining(const rz_reader *r);
int rz_read_u8(rz_reader *r, uint8_t *v);
int rz_read_be32(rz_reader *r, uint32_t *v);
/* Returns a pointer to the next `n` bytes and consumes them, or NULL. */
const uint8_t *rz_read_bytes(rz_reader *r, size_t n);

/* header.c */
rz_status rz_header_parse(rz_reader *r, rz_info *info);

/* image.c */
unsigned rz_bytes_per_pixel(const rz_info *info);
rz_status rz_image_create(const rz_info *info, rz_image **out);

/* rle.c */
rz_status rz_rle_decode_row(rz_reader *r, uint8_t *dst, uint32_t width,
                            unsigned pixel_size);
rz_status rz_raw_decode_row(rz_reader *r, uint8_t *dst, size_t row_bytes);

#endif /* RZ_INTERNAL_H */
