/* Public entry points. */
#include <stdlib.h>

#include "rz_internal.h"

rz_status rz_probe(const uint8_t *data, size_t size, rz_info *info) {
  rz_reader r;

  if (!data || !info)
    return RZ_ERR_ARGUMENT;
  rz_reader_init(&r, data, size);
  return rz_header_parse(&r, info);
}

static rz_status decode_rows(rz_reader *r, rz_image *img) {
  unsigned pixel_size = rz_bytes_per_pixel(&img->info);
  uint32_t y;
  rz_status st = RZ_OK;

  for (y = 0; y < img->info.height && st == RZ_OK; y++) {
    uint8_t *row = img->pixels + (size_t)y * img->stride;

    if (img->info.compression == RZ_COMPRESSION_RLE)
      st = rz_rle_decode_row(r, row, img->info.width, pixel_size);
    else
      st = rz_raw_decode_row(r, row, img->stride);
  }
  return st;
}

rz_status rz_decode(const uint8_t *data, size_t size, rz_image **out) {
  rz_reader r;
  rz_info info;
  rz_image *img = NULL;
  rz_status st;

  if (!data || !out)
    return RZ_ERR_ARGUMENT;
  *out = NULL;

  rz_reader_init(&r, data, size);
  if ((st = rz_header_parse(&r, &info)) != RZ_OK)
    return st;
  if ((st = rz_image_create(&info, &img)) != RZ_OK)
    return st;

  if ((st = decode_rows(&r, img)) != RZ_OK) {
    rz_image_free(img);
    return st;
  }

  *out = img;
  return RZ_OK;
}

const char *rz_strerror(rz_status status) {
  switch (status) {
  case RZ_OK: return "success";
  case RZ_ERR_ARGUMENT: return "invalid argument";
  case RZ_ERR_MAGIC: return "not an RSTZ image";
  case RZ_ERR_VERSION: return "unsupported format version";
  case RZ_ERR_UNSUPPORTED: return "unsupported image parameters";
  case RZ_ERR_LIMIT: return "image exceeds decoder limits";
  case RZ_ERR_TRUNCATED: return "unexpected end of data";
  case RZ_ERR_CORRUPT: return "corrupt image data";
  case RZ_ERR_NOMEM: return "out of memory";
  }
  return "unknown error";
}
