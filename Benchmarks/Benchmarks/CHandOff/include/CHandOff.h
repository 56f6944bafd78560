// The hand-off limit: two threads passing a token through one futex word,
// with or without spinning first. In C so that the spin can use the CPU's
// pause instruction, which Swift cannot emit.
#ifndef CHANDOFF_H
#define CHANDOFF_H

#include <stdint.h>

/// Runs `roundTrips` round trips of a token between the calling thread and a
/// second thread. Each side waits for its turn, spinning up to `spinLimit`
/// pause instructions (0: park at once) before it parks on the futex.
/// Returns the elapsed nanoseconds, or -1 if the thread could not start.
int64_t chandoff_ping_pong(int64_t roundTrips, int32_t spinLimit);

#endif
