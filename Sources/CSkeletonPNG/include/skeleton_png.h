#ifndef SKELETON_PNG_H
#define SKELETON_PNG_H

#include <stddef.h>
#include <stdint.h>

/* Reading and writing PNGs in memory with libpng. libpng reports errors by longjmp, which must not cross
   Swift frames, so every libpng call happens in these C functions. */

typedef struct skpng_reader skpng_reader;

/* Starts reading: checks the signature and reads every chunk up to the image data (CRC errors
   in any chunk are errors). On success stores the size and returns a reader; on failure returns
   NULL with the reason in message. The bytes must outlive the reader. */
skpng_reader *skpng_open(const uint8_t *bytes, size_t count, uint32_t *width, uint32_t *height,
                         char *message, size_t message_size);

/* What skpng_read produces: one little-endian 32-bit word per pixel either way. */
typedef enum skpng_format {
    /* XRGB8888, alpha dropped (the top byte 0): screens and golden images. */
    SKPNG_XRGB = 0,
    /* ARGB8888 with the colour premultiplied by alpha (round(c * a / 255)); an image without
       alpha is opaque (0xFF). Pictures drawn over the skeleton. */
    SKPNG_PREMULTIPLIED_ARGB = 1,
} skpng_format;

/* Decodes every pixel (any bit depth, colour type and interlacing) in `format` into rows of
   stride pixels, then reads to IEND. 0 on success, -1 with the reason in message. */
int skpng_read(skpng_reader *reader, uint32_t *pixels, size_t stride, skpng_format format,
               char *message, size_t message_size);

void skpng_close(skpng_reader *reader);

/* Encodes rows of XRGB8888 (stride pixels apart; the top byte ignored) as an 8-bit RGB PNG,
   non-interlaced, every row with the Sub filter and zlib level 6. On success stores a buffer
   from malloc (free it with skpng_free) and its length and returns 0; on failure returns -1
   with the reason in message. */
int skpng_write(const uint32_t *pixels, size_t stride, uint32_t width, uint32_t height,
                uint8_t **bytes, size_t *count, char *message, size_t message_size);

void skpng_free(uint8_t *bytes);

#endif
