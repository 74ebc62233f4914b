/*
 * RSTZ header layout (16 bytes):
 *
 *   0  4  magic "RSTZ"
 *   4  1  format version (currently 1)
 *   5  1  channels (1-4)
 *   6  1  bits per sample (8 or 16)
 *   7  1  compression (0 = none, 1 = RLE)
 *   8  4  width, big-endian
 *  12  4  height, big-endian
 */
#include <string.h>

#include "rz_internal.h"

static rz_status check_dimension(uint32_t value) {
  if (value == 0)
    return RZ_ERR_CORRUPT;
  if (value > RZ_MAX_DIMENSION)
    return RZ_ERR_LIMIT;
  return RZ_OK;
}

rz_status rz_header_parse(rz_reader *r, rz_info *info) {
  const uint8_t *magic;
  uint8_t version, channels, depth, compression;
  uint32_t width, height;
  rz_status st;

  magic = rz_read_bytes(r, 4);
  if (!magic)
    return RZ_ERR_TRUNCATED;
  if (memcmp(magic, RZ_MAGIC, 4) != 0)
    return RZ_ERR_MAGIC;

  if (!rz_read_u8(r, &version) || !rz_read_u8(r, &channels) ||
      !rz_read_u8(r, &depth) || !rz_read_u8(r, &compression) ||
      !rz_read_be32(r, &width) || !rz_read_be32(r, &height))
    return RZ_ERR_TRUNCATED;

  /* Version 0 files were written by pre-release tools and never shipped. */
  if (version == 0 || version > RZ_FORMAT_VERSION)
    return RZ_ERR_VERSION;
  if (channels < 1 || channels > 4)
    return RZ_ERR_UNSUPPORTED;
  if (depth != 8 && depth != 16)
    return RZ_ERR_UNSUPPORTED;
  if (compression != RZ_COMPRESSION_NONE && compression != RZ_COMPRESSION_RLE)
    return RZ_ERR_UNSUPPORTED;

  if ((st = check_dimension(width)) != RZ_OK)
    return st;
  if ((st = check_dimension(height)) != RZ_OK)
    return st;

  info->width = width;
  info->height = height;
  info->channels = channels;
  info->depth = depth;
  info->compression = (rz_compression)compression;
  return RZ_OK;
}
