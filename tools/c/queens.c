/* The peer of `hysolve queens N` in count mode: a plain C counter of the
 * N-Queens solutions by Takaken's method (one board of each symmetry class,
 * counted 2, 4 or 8 times; see puzzles/src/queens/symmetry.rs), written
 * for `make bench` so that both run side by side in one run.
 *
 * It takes hysolve's command line (`--threads 1 queens N --json --quiet`;
 * every word but N is ignored) and prints hysolve's summary: a text line,
 * then a JSON line with wall_s, solutions and nodes (0: not counted, to
 * keep the loop as plain as the method's usual C code). Threads: one. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int n, last, bound1, bound2;
static uint32_t all, sidemask, lastmask, topbit, endbit;
static uint32_t board[32];
static uint64_t count2, count4, count8;

/* Weighs a complete Side board by the rotation that maps it to itself,
 * or drops it when a rotation of it is smaller. */
static void check(void) {
    int own, you;
    uint32_t bit, ptn;
    if (board[bound2] == 1) { /* 90 degrees */
        for (own = 1, ptn = 2; own <= last; own++, ptn <<= 1) {
            for (bit = 1, you = last; board[you] != ptn && board[own] >= bit; you--) bit <<= 1;
            if (board[own] > bit) return;
            if (board[own] < bit) break;
        }
        if (own > last) { count2++; return; }
    }
    if (board[last] == endbit) { /* 180 degrees */
        for (own = 1, you = last - 1; own <= last; own++, you--) {
            for (bit = 1, ptn = topbit; board[you] != ptn && board[own] >= bit; ptn >>= 1) bit <<= 1;
            if (board[own] > bit) return;
            if (board[own] < bit) break;
        }
        if (own > last) { count4++; return; }
    }
    if (board[bound1] == topbit) { /* 270 degrees */
        for (own = 1, ptn = topbit >> 1; own <= last; own++, ptn >>= 1) {
            for (bit = 1, you = 0; board[you] != ptn && board[own] >= bit; you++) bit <<= 1;
            if (board[own] > bit) return;
            if (board[own] < bit) break;
        }
    }
    count8++;
}

/* First queen in the corner: every class has 8 boards. */
static void corner(int y, uint32_t left, uint32_t down, uint32_t right) {
    uint32_t free = all & ~(left | down | right), bit;
    if (y == last) {
        if (free) count8++;
        return;
    }
    if (y < bound1) free &= ~2u;
    while (free) {
        bit = free & -free;
        free ^= bit;
        corner(y + 1, ((left | bit) << 1) & all, down | bit, (right | bit) >> 1);
    }
}

/* First queen in column bound1: complete boards are weighed by check(). */
static void side(int y, uint32_t left, uint32_t down, uint32_t right) {
    uint32_t free = all & ~(left | down | right), bit;
    if (y == last) {
        if (free && !(free & lastmask)) {
            board[y] = free;
            check();
        }
        return;
    }
    if (y < bound1) {
        free &= ~sidemask;
    } else if (y == bound2) {
        if (!(down & sidemask)) return;
        if ((down & sidemask) != sidemask) free &= sidemask;
    }
    while (free) {
        bit = free & -free;
        free ^= bit;
        board[y] = bit;
        side(y + 1, ((left | bit) << 1) & all, down | bit, (right | bit) >> 1);
    }
}

int main(int argc, char **argv) {
    struct timespec t0, t1;
    uint64_t total;
    double wall;
    uint32_t bit;
    int i;
    n = 0;
    for (i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "queens") == 0) n = atoi(argv[i + 1]);
    if (n < 4 || n > 31) {
        fprintf(stderr, "queens-c: usage: queens-c [--threads 1] queens N (4 <= N <= 31)\n");
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    last = n - 1;
    all = (1u << n) - 1;
    topbit = 1u << last;
    board[0] = 1;
    for (bound1 = 2; bound1 < last; bound1++) {
        bit = 1u << bound1;
        board[1] = bit;
        corner(2, ((2 | bit) << 1) & all, 1 | bit, bit >> 1);
    }
    sidemask = lastmask = topbit | 1;
    endbit = topbit >> 1;
    for (bound1 = 1, bound2 = last - 1; bound1 < bound2; bound1++, bound2--) {
        board[0] = bit = 1u << bound1;
        side(1, (bit << 1) & all, bit, bit >> 1);
        lastmask |= lastmask >> 1 | lastmask << 1;
        endbit >>= 1;
    }
    total = count2 * 2 + count4 * 4 + count8 * 8;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    wall = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    printf("queens %d: %llu solutions (count mode, C, Takaken's method, %.3f s)\n", n,
           (unsigned long long)total, wall);
    printf("{\"problem\":\"queens\",\"instance\":\"%d\",\"solutions\":%llu,\"nodes\":0,"
           "\"wall_s\":%.6f,\"prepare_s\":0,\"ranks\":1,\"threads\":1}\n",
           n, (unsigned long long)total, wall);
    return 0;
}
