#include "skeleton_png.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

struct skpng_reader {
    png_structp png;
    png_infop info;
    const uint8_t *bytes;
    size_t count;
    size_t offset;
    char error[200];
};

static void on_error(png_structp png, png_const_charp message) {
    struct skpng_reader *reader = png_get_error_ptr(png);
    snprintf(reader->error, sizeof(reader->error), "%s", message);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) {
    (void)png; (void)message;
}

/* The most compressed image data a PNG of this header can need: its filtered rows (one filter
   byte each, every interlace pass counted) stored uncompressed in deflate blocks of 65535 bytes
   (5 bytes of header each), with zlib's header and check. Anything beyond is data no row needs:
   a 16x16 picture followed by gigabytes of compressed zeros is refused before any is inflated. */
static uint64_t image_data_limit(const uint8_t *ihdr) {
    uint64_t width = (uint32_t)ihdr[0] << 24 | (uint32_t)ihdr[1] << 16 | (uint32_t)ihdr[2] << 8 | ihdr[3];
    uint64_t height = (uint32_t)ihdr[4] << 24 | (uint32_t)ihdr[5] << 16 | (uint32_t)ihdr[6] << 8 | ihdr[7];
    uint64_t depth = ihdr[8], channels;
    switch (ihdr[9]) {
    case 0: case 3: channels = 1; break;
    case 4: channels = 2; break;
    case 2: channels = 3; break;
    default: channels = 4; break;
    }
    uint64_t row = (width * channels * depth + 7) / 8 + 1;
    /* Adam7 adds at most one filter byte per row and pass and a partial byte per pass's row. */
    uint64_t raw = height * row + (ihdr[12] ? height * 14 + 14 : 0);
    return raw + (raw / 65535 + 1) * 5 + 6 + 1024;
}

/* Checks each chunk after the signature, up to IEND: that it lies inside the file and that
   IEND comes (0 and "truncated" if not), that its CRC is right (0 and "XXXX: CRC error" if
   not), and that the image data is no more than its rows can need (0 if it is). libpng checks a
   chunk's CRC only after it has used the chunk's data, so a damaged IDAT would otherwise be
   reported by zlib ("incorrect data check") before its CRC is read. */
static int chunks_sound(const uint8_t *bytes, size_t count, char *message, size_t message_size) {
    size_t offset = 8;
    uint64_t image_data = 0, limit = UINT64_MAX;
    while (offset + 8 <= count) {
        uint32_t length = (uint32_t)bytes[offset] << 24 | (uint32_t)bytes[offset + 1] << 16
                        | (uint32_t)bytes[offset + 2] << 8 | bytes[offset + 3];
        if ((size_t)length > count - offset - 8 || count - offset - 8 - length < 4) {
            snprintf(message, message_size, "truncated: a chunk claims more bytes than the file has");
            return 0;
        }
        const uint8_t *type = bytes + offset + 4, *stored = type + 4 + length;
        uint32_t expected = (uint32_t)stored[0] << 24 | (uint32_t)stored[1] << 16 | (uint32_t)stored[2] << 8 | stored[3];
        if ((uint32_t)crc32(crc32(0L, Z_NULL, 0), type, 4 + length) != expected) {
            snprintf(message, message_size, "%.4s: CRC error", (const char *)type);
            return 0;
        }
        if (memcmp(type, "IEND", 4) == 0) return 1;
        if (memcmp(type, "IHDR", 4) == 0 && length == 13) limit = image_data_limit(type + 4);
        if (memcmp(type, "IDAT", 4) == 0) {
            image_data += length;
            if (image_data > limit) {
                snprintf(message, message_size,
                         "its image data is more than the %llu bytes its size can need (data after the last row is refused, not inflated)",
                         (unsigned long long)limit);
                return 0;
            }
        }
        offset += 12 + (size_t)length;
    }
    /* The rows are read without png_read_end, so the file's end is checked here. */
    snprintf(message, message_size, "truncated: the file ends before its IEND chunk");
    return 0;
}

static void read_bytes(png_structp png, png_bytep out, size_t length) {
    struct skpng_reader *reader = png_get_io_ptr(png);
    if (length > reader->count - reader->offset) {
        png_error(png, "truncated: the file ends inside a chunk");
    }
    memcpy(out, reader->bytes + reader->offset, length);
    reader->offset += length;
}

static void report(const struct skpng_reader *reader, char *message, size_t message_size) {
    snprintf(message, message_size, "%s", reader->error);
}

skpng_reader *skpng_open(const uint8_t *bytes, size_t count, uint32_t *width, uint32_t *height,
                         char *message, size_t message_size) {
    if (count < 8 || png_sig_cmp(bytes, 0, 8) != 0) {
        snprintf(message, message_size, "no PNG signature");
        return NULL;
    }
    /* libpng allocates a chunk's whole declared length before it reads the chunk: a 57-byte
       file whose text chunk claims 2 GB would take 2 GB. The file is in memory, so every
       chunk's length is checked against what is left of it first (and its CRC with it). */
    if (!chunks_sound(bytes, count, message, message_size)) return NULL;
    struct skpng_reader *reader = calloc(1, sizeof(*reader));
    if (!reader) {
        snprintf(message, message_size, "out of memory");
        return NULL;
    }
    reader->bytes = bytes;
    reader->count = count;
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, reader, on_error, on_warning);
    if (reader->png) reader->info = png_create_info_struct(reader->png);
    if (!reader->info) {
        snprintf(message, message_size, "out of memory");
        skpng_close(reader);
        return NULL;
    }
    if (setjmp(png_jmpbuf(reader->png))) {
        report(reader, message, message_size);
        skpng_close(reader);
        return NULL;
    }
    /* By default libpng only warns about a bad CRC in an ancillary chunk and drops the chunk. */
    png_set_crc_action(reader->png, PNG_CRC_ERROR_QUIT, PNG_CRC_ERROR_QUIT);
    png_set_read_fn(reader->png, reader, read_bytes);
    png_read_info(reader->png, reader->info);
    *width = png_get_image_width(reader->png, reader->info);
    *height = png_get_image_height(reader->png, reader->info);
    return reader;
}

/* Multiplies each pixel's colour by its alpha, rounded to nearest. Done once all rows are
   read: libpng fills a row of an interlaced image over several passes. */
static void premultiply(uint32_t *pixels, size_t stride, uint32_t width, uint32_t height) {
    for (uint32_t y = 0; y < height; y++) {
        uint32_t *row = pixels + (size_t)y * stride;
        for (uint32_t x = 0; x < width; x++) {
            uint32_t p = row[x], a = p >> 24;
            if (a == 255) continue;
            uint32_t r = ((p >> 16 & 0xFF) * a + 127) / 255;
            uint32_t g = ((p >> 8 & 0xFF) * a + 127) / 255;
            uint32_t b = ((p & 0xFF) * a + 127) / 255;
            row[x] = a << 24 | r << 16 | g << 8 | b;
        }
    }
}

int skpng_read(skpng_reader *reader, uint32_t *pixels, size_t stride, skpng_format format,
               char *message, size_t message_size) {
    png_structp png = reader->png;
    png_infop info = reader->info;
    if (setjmp(png_jmpbuf(png))) {
        report(reader, message, message_size);
        return -1;
    }
    /* To 8-bit B, G, R, then 0 or alpha bytes: one little-endian XRGB8888 or ARGB8888 word
       per pixel (tRNS becomes alpha through png_set_expand). */
    png_set_expand(png);
    png_set_scale_16(png);
    png_set_gray_to_rgb(png);
    if (format == SKPNG_XRGB) {
        png_set_strip_alpha(png);
        png_set_filler(png, 0, PNG_FILLER_AFTER);
    } else {
        png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    }
    png_set_bgr(png);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    uint32_t width = png_get_image_width(png, info);
    uint32_t height = png_get_image_height(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) {
        png_error(png, "unexpected row size after conversion");
    }
    for (int pass = 0; pass < passes; pass++) {
        for (uint32_t y = 0; y < height; y++) {
            png_read_row(png, (png_bytep)(pixels + (size_t)y * stride), NULL);
        }
    }
    /* No png_read_end: what follows the last row (more image data, trailing chunks) is not
       inflated or read; the pixels are all there. */
    if (format == SKPNG_PREMULTIPLIED_ARGB) premultiply(pixels, stride, width, height);
    return 0;
}

void skpng_close(skpng_reader *reader) {
    if (!reader) return;
    if (reader->png) png_destroy_read_struct(&reader->png, reader->info ? &reader->info : NULL, NULL);
    free(reader);
}

/* The growing buffer that skpng_write's PNG goes into. */
struct skpng_output {
    uint8_t *bytes;
    size_t count;
    size_t capacity;
    char error[200];
};

static void on_write_error(png_structp png, png_const_charp message) {
    struct skpng_output *output = png_get_error_ptr(png);
    snprintf(output->error, sizeof(output->error), "%s", message);
    png_longjmp(png, 1);
}

static void write_bytes(png_structp png, png_bytep data, size_t length) {
    struct skpng_output *output = png_get_io_ptr(png);
    if (length > output->capacity - output->count) {
        size_t capacity = output->capacity ? output->capacity : 65536;
        while (length > capacity - output->count) {
            if (capacity > SIZE_MAX / 2) png_error(png, "the PNG is too large for memory");
            capacity *= 2;
        }
        uint8_t *grown = realloc(output->bytes, capacity);
        if (!grown) png_error(png, "out of memory");
        output->bytes = grown;
        output->capacity = capacity;
    }
    memcpy(output->bytes + output->count, data, length);
    output->count += length;
}

static void flush_nothing(png_structp png) { (void)png; }

int skpng_write(const uint32_t *pixels, size_t stride, uint32_t width, uint32_t height,
                uint8_t **bytes, size_t *count, char *message, size_t message_size) {
    struct skpng_output output = {0};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &output, on_write_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        snprintf(message, message_size, "out of memory");
        if (png) png_destroy_write_struct(&png, NULL);
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        snprintf(message, message_size, "%s", output.error);
        png_destroy_write_struct(&png, &info);
        free(output.bytes);
        return -1;
    }
    png_set_write_fn(png, &output, write_bytes, flush_nothing);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
    png_set_compression_level(png, 6);
    png_write_info(png, info);
    /* Rows are B, G, R, X bytes in memory: libpng swaps to R, G, B and drops the X. */
    png_set_bgr(png);
    png_set_filler(png, 0, PNG_FILLER_AFTER);
    for (uint32_t y = 0; y < height; y++) {
        png_write_row(png, (png_const_bytep)(pixels + (size_t)y * stride));
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    *bytes = output.bytes;
    *count = output.count;
    return 0;
}

void skpng_free(uint8_t *bytes) { free(bytes); }
