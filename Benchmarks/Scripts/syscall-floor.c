/*
 * The per-file limit of a file compressor, for compare-file-squeezer.sh
 * --measure-limit: the least work any correct `gzip -k` of one file must do,
 * and nothing else (no threads, no progress, no summary). For each name:
 *
 *   openat(name, O_RDONLY|O_NOFOLLOW)  fstat  openat(name.gz, O_CREAT|O_EXCL)
 *   read ... read(EOF)  write  futimens  fchmod  close  close
 *
 * That is 10 system calls for a tiny file (gzip 1.12 makes 14, adding two
 * sigprocmask and two fchown). By default the bytes are deflated at level 6
 * into a real .gz with ONE z_stream reused through deflateReset (the cheapest
 * way to run zlib per file); with -s they are written as they are (the
 * system calls alone, the "kernel-time limit").
 *
 *   cc -O2 -o syscall-floor syscall-floor.c -lz
 *   find DIR -type f -print0 | xargs -0 -P 2 -n 1000 ./syscall-floor [-s]
 *
 * Run the way `xargs -P 2 gzip` runs (two processes), its wall time is the
 * limit on two cores for the same walk (find) and the same files.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

static unsigned char input[1 << 16];
static unsigned char output[(1 << 16) + 1024];

static int squeeze(const char *name, z_stream *stream, int store) {
    int in = openat(AT_FDCWD, name, O_RDONLY | O_NOCTTY | O_NOFOLLOW);
    if (in < 0) return perror(name), 1;
    struct stat info;
    if (fstat(in, &info) != 0 || !S_ISREG(info.st_mode)) return close(in), 1;
    char target[4096];
    snprintf(target, sizeof target, "%s.gz", name);
    int out = openat(AT_FDCWD, target, O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (out < 0) return perror(target), close(in), 1;
    if (!store) {
        deflateReset(stream);
        stream->next_out = output;
        stream->avail_out = sizeof output;
    }
    ssize_t got;
    int status = Z_OK;
    while ((got = read(in, input, sizeof input)) >= 0) {
        if (store) {
            if (got == 0) break;
            if (write(out, input, (size_t)got) != got) return perror(target), 1;
            continue;
        }
        /* One write per full buffer, and one at the end: a tiny file gets one. */
        stream->next_in = input;
        stream->avail_in = (uInt)got;
        do {
            if (stream->avail_out == 0) {
                if (write(out, output, sizeof output) != (ssize_t)sizeof output) return perror(target), 1;
                stream->next_out = output;
                stream->avail_out = sizeof output;
            }
            status = deflate(stream, got == 0 ? Z_FINISH : Z_NO_FLUSH);
        } while (stream->avail_out == 0 || (got == 0 && status == Z_OK));
        if (got == 0) break;
    }
    if (got < 0) return perror(name), 1;
    if (!store) {
        size_t ready = sizeof output - stream->avail_out;
        if (status != Z_STREAM_END || write(out, output, ready) != (ssize_t)ready) return perror(target), 1;
    }
    close(in);
    struct timespec times[2] = {info.st_atim, info.st_mtim};
    futimens(out, times);
    fchmod(out, info.st_mode & 07777);
    return close(out) != 0;
}

int main(int argc, char **argv) {
    int store = argc > 1 && strcmp(argv[1], "-s") == 0, failed = 0;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (deflateInit2(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return 2;
    for (int i = 1 + store; i < argc; i++) failed |= squeeze(argv[i], &stream, store);
    deflateEnd(&stream);
    return failed;
}
