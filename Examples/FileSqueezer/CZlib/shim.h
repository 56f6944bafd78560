#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H

#include <zlib.h>

// deflateInit2 is a C macro (it passes the header's version and the struct
// size to deflateInit2_), which Swift cannot import. This wrapper keeps the
// ABI check the macro gives C callers.
static inline int czlib_deflate_init_gzip(z_streamp stream, int level) {
    // windowBits 15 + 16 asks zlib for a gzip header and trailer; memLevel 8
    // is zlib's default.
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

#endif
