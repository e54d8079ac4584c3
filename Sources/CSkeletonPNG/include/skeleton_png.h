#ifndef SKELETON_PNG_H
#define SKELETON_PNG_H

#include <stddef.h>
#include <stdint.h>

/* Reading a PNG from memory with libpng. libpng reports errors by longjmp, which must not cross
   Swift frames, so every libpng call happens in these C functions. */

typedef struct skpng_reader skpng_reader;

/* Starts reading: checks the signature and reads every chunk up to the image data (CRC errors
   in any chunk are errors). On success stores the size and returns a reader; on failure returns
   NULL with the reason in message. The bytes must outlive the reader. */
skpng_reader *skpng_open(const uint8_t *bytes, size_t count, uint32_t *width, uint32_t *height,
                         char *message, size_t message_size);

/* Decodes every pixel as XRGB8888 (any bit depth, colour type and interlacing; alpha dropped)
   into rows of stride pixels, then reads to IEND. 0 on success, -1 with the reason in message. */
int skpng_read(skpng_reader *reader, uint32_t *pixels, size_t stride, char *message, size_t message_size);

void skpng_close(skpng_reader *reader);

#endif
