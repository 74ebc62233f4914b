/*
 * rasterz - decoder for the RSTZ raster image format.
 *
 * An RSTZ file is a fixed 16-byte header followed by the pixel rows, top to
 * bottom, either stored verbatim or compressed row by row with a PackBits
 * style run-length scheme that operates on whole pixels.
 */
#ifndef RASTERZ_H
#define RASTERZ_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RZ_VERSION_MAJOR 1
#define RZ_VERSION_MINOR 2

/* Largest width or height accepted by the decoder. */
#define RZ_MAX_DIMENSION (1u << 24)

typedef enum rz_status {
  RZ_OK = 0,
  RZ_ERR_ARGUMENT,    /* NULL pointer or out-of-range argument */
  RZ_ERR_MAGIC,       /* not an RSTZ file */
  RZ_ERR_VERSION,     /* file version newer than this decoder */
  RZ_ERR_UNSUPPORTED, /* channel count, depth or compression not supported */
  RZ_ERR_LIMIT,       /* image exceeds the decoder's limits */
  RZ_ERR_TRUNCATED,   /* input ended before the image was complete */
  RZ_ERR_CORRUPT,     /* malformed compressed data */
  RZ_ERR_NOMEM        /* allocation failure */
} rz_status;

typedef enum rz_compression {
  RZ_COMPRESSION_NONE = 0,
  RZ_COMPRESSION_RLE = 1
} rz_compression;

/* Header fields, as returned by rz_probe(). */
typedef struct rz_info {
  uint32_t width;
  uint32_t height;
  unsigned channels;  /* 1 (gray), 2 (gray+alpha), 3 (RGB), 4 (RGBA) */
  unsigned depth;     /* bits per sample: 8 or 16 */
  rz_compression compression;
} rz_info;

/*
 * A decoded image. Rows are stored contiguously, `stride` bytes apart.
 * 16-bit samples are kept in the file's big-endian byte order; use
 * rz_image_sample() to read them portably.
 */
typedef struct rz_image {
  rz_info info;
  size_t stride;
  uint8_t *pixels;
} rz_image;

/* Parses only the header of `data`. */
rz_status rz_probe(const uint8_t *data, size_t size, rz_info *info);

/* Decodes a whole image. On success *out must be released with rz_image_free(). */
rz_status rz_decode(const uint8_t *data, size_t size, rz_image **out);

void rz_image_free(rz_image *img);

/* Returns a pointer to the first byte of row `y`, or NULL if out of range. */
const uint8_t *rz_image_row(const rz_image *img, uint32_t y);

/* Reads one sample; returns RZ_ERR_ARGUMENT for coordinates outside the image. */
rz_status rz_image_sample(const rz_image *img, uint32_t x, uint32_t y,
                          unsigned channel, uint16_t *value);

const char *rz_strerror(rz_status status);

#ifdef __cplusplus
}
#endif

#endif /* RASTERZ_H */
