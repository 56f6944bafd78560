#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H

#include <zlib.h>

// deflateInit2 is a C macro (it passes the header's version and the struct
// size to deflateInit2_), which Swift cannot import. This wrapper keeps the
// ABI check the macro gives C callers.
static inline int czlib_deflate_init_raw_memory(z_streamp stream, int level, int memLevel) {
    // windowBits -15: raw deflate (no zlib or gzip framing; File Squeezer
    // writes the gzip header and trailer itself, so that independently
    // compressed segments can be joined into one member, as pigz does).
    // memLevel 8 is zlib's default; a smaller one is for tiny inputs (see
    // ZlibStream.init(level:memoryLevel:)).
    return deflateInit2(stream, level, Z_DEFLATED, -15, memLevel, Z_DEFAULT_STRATEGY);
}

#endif
