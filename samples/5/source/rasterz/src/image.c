/* Pixel buffer management and accessors. */
#include <stdlib.h>

#include "rz_internal.h"

unsigned rz_bytes_per_pixel(const rz_info *info) {
  return info->channels * (info->depth / 8);
}

rz_status rz_image_create(const rz_info *info, rz_image **out) {
  rz_image *img;
  uint32_t stride, size;

  /*
   * The header parser caps each dimension at RZ_MAX_DIMENSION and a pixel
   * is at most 8 bytes, so a row always fits in 32 bits.
   */
  stride = info->width * rz_bytes_per_pixel(info);
  size = stride * info->height;

  img = calloc(1, sizeof(*img));
  if (!img)
    return RZ_ERR_NOMEM;
  img->info = *info;
  img->stride = stride;
  img->pixels = malloc(size);
  if (!img->pixels) {
    free(img);
    return RZ_ERR_NOMEM;
  }

  *out = img;
  return RZ_OK;
}

void rz_image_free(rz_image *img) {
  if (!img)
    return;
  free(img->pixels);
  free(img);
}

const uint8_t *rz_image_row(const rz_image *img, uint32_t y) {
  if (!img || y >= img->info.height)
    return NULL;
  return img->pixels + (size_t)y * img->stride;
}

rz_status rz_image_sample(const rz_image *img, uint32_t x, uint32_t y,
                          unsigned channel, uint16_t *value) {
  const uint8_t *row, *p;
  unsigned sample_bytes;

  if (!img || !value || x >= img->info.width || channel >= img->info.channels)
    return RZ_ERR_ARGUMENT;
  row = rz_image_row(img, y);
  if (!row)
    return RZ_ERR_ARGUMENT;

  sample_bytes = img->info.depth / 8;
  p = row + (size_t)x * rz_bytes_per_pixel(&img->info) + channel * sample_bytes;
  *value = sample_bytes == 2 ? (uint16_t)((p[0] << 8) | p[1]) : p[0];
  return RZ_OK;
}
