#define _GNU_SOURCE
#include "CHandOff.h"

#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

// The word: bit 0 is whose turn it is (0: the main thread, 1: the partner),
// bit 1 says the waiting side is parked on the futex and must be woken.
enum { TURN = 1, PARKED = 2 };

typedef struct {
    _Atomic uint32_t word;
    int64_t roundTrips;
    int32_t spinLimit;
} Game;

static inline void cpu_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static void wait_for_turn(Game *game, uint32_t me) {
    int32_t spins = 0;
    for (;;) {
        uint32_t word = atomic_load_explicit(&game->word, memory_order_acquire);
        if ((word & TURN) == me) return;
        if (spins < game->spinLimit) {
            spins++;
            cpu_pause();
            continue;
        }
        if (!(word & PARKED)) {
            if (!atomic_compare_exchange_weak_explicit(
                    &game->word, &word, word | PARKED, memory_order_acquire, memory_order_relaxed))
                continue;
            word |= PARKED;
        }
        syscall(SYS_futex, &game->word, FUTEX_WAIT_PRIVATE, word, NULL, NULL, 0);
    }
}

static void pass_turn(Game *game, uint32_t to) {
    uint32_t old = atomic_exchange_explicit(&game->word, to, memory_order_release);
    if (old & PARKED) syscall(SYS_futex, &game->word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void *partner(void *argument) {
    Game *game = argument;
    for (int64_t i = 0; i < game->roundTrips; i++) {
        wait_for_turn(game, 1);
        pass_turn(game, 0);
    }
    return NULL;
}

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t chandoff_ping_pong(int64_t roundTrips, int32_t spinLimit) {
    Game game = {.word = 0, .roundTrips = roundTrips, .spinLimit = spinLimit};
    pthread_t thread;
    if (pthread_create(&thread, NULL, partner, &game) != 0) return -1;
    int64_t start = now_ns();
    for (int64_t i = 0; i < roundTrips; i++) {
        pass_turn(&game, 1);
        wait_for_turn(&game, 0);
    }
    int64_t elapsed = now_ns() - start;
    pthread_join(thread, NULL);
    return elapsed;
}
