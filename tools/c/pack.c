/* The peer of `hysolve pack --pieces SET --board WxH` in count mode, for
 * flat pieces on boards of at most 64 cells: a plain C first-empty-cell
 * search on a 64-bit bitboard, written for `make bench` so that both run
 * side by side in one run. Cells are numbered along the board's short
 * side first; placements (a piece in one orientation at one place) are
 * listed under their lowest cell; the lowest empty cell is always covered
 * next, by an unused piece; a placement is kept only if it leaves no empty
 * cell with no empty neighbour (the one pruning rule).
 *
 * It takes hysolve's command line (`--threads 1 pack --pieces SET --board
 * WxH --json --quiet`; SET a built-in name of puzzles/src/pack/sets or a
 * .pieces file; other words ignored) and prints hysolve's summary: a text
 * line, then a JSON line with wall_s, solutions and nodes. Threads: one.
 * Run from the repository's root (built-in sets are read from there). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXP 4096
static int w, h, s, l;            /* board; short side s, long side l */
static int kinds;
static uint64_t place[64][MAXP];  /* placements under their lowest cell */
static int kind_of[64][MAXP], nplace[64];
static uint64_t full, not_first, not_last; /* masks along the short side */
static uint64_t nodes, solutions;

static void fail(const char *what) {
    fprintf(stderr, "pack-c: %s\n", what);
    exit(2);
}

/* Reads a .pieces file: '#' comments, then NAME x,y x,y ... per piece. */
static int cells[32][64][2], ncells[32];
static void read_pieces(const char *path) {
    char line[4096];
    FILE *f = fopen(path, "r");
    if (!f) fail("cannot open the pieces");
    while (fgets(line, sizeof line, f)) {
        char *save, *w0 = strtok_r(line, " \t\r\n", &save);
        if (!w0 || w0[0] == '#') continue;
        if (kinds == 32) fail("too many pieces");
        for (char *c = strtok_r(NULL, " \t\r\n", &save); c; c = strtok_r(NULL, " \t\r\n", &save)) {
            int n = ncells[kinds]++;
            if (sscanf(c, "%d,%d", &cells[kinds][n][0], &cells[kinds][n][1]) != 2) fail("bad cell");
        }
        kinds++;
    }
    fclose(f);
}

/* Every orientation of every piece at every place, under its lowest cell. */
static void placements(void) {
    for (int k = 0; k < kinds; k++) {
        uint64_t seen[8 * 64];
        int nseen = 0;
        for (int o = 0; o < 8; o++) {
            int pts[64][2], n = ncells[k], minx = 1 << 20, miny = 1 << 20;
            for (int i = 0; i < n; i++) {
                int x = cells[k][i][0], y = cells[k][i][1], t;
                if (o & 4) x = -x;               /* turned over */
                for (int r = 0; r < (o & 3); r++) { t = x; x = -y; y = t; } /* quarter turns */
                pts[i][0] = x; pts[i][1] = y;
                if (x < minx) minx = x;
                if (y < miny) miny = y;
            }
            for (int dy = 0; dy < h; dy++)
                for (int dx = 0; dx < w; dx++) {
                    uint64_t m = 0;
                    int ok = 1;
                    for (int i = 0; i < n && ok; i++) {
                        int x = pts[i][0] - minx + dx, y = pts[i][1] - miny + dy;
                        if (x >= w || y >= h) { ok = 0; break; }
                        /* along the short side first */
                        int a = w <= h ? x : y, b = w <= h ? y : x;
                        m |= 1ull << (a + s * b);
                    }
                    if (!ok) continue;
                    int dup = 0;
                    for (int j = 0; j < nseen && !dup; j++) dup = seen[j] == m;
                    if (dup) continue;
                    seen[nseen++] = m;
                    int lowest = __builtin_ctzll(m);
                    if (nplace[lowest] == MAXP) fail("too many placements");
                    place[lowest][nplace[lowest]] = m;
                    kind_of[lowest][nplace[lowest]++] = k;
                }
        }
    }
}

/* Empty cells with no empty neighbour. */
static inline uint64_t isolated(uint64_t empty) {
    uint64_t nb = ((empty & not_last) << 1) | ((empty & not_first) >> 1) | (empty << s) | (empty >> s);
    return empty & ~nb & full;
}

static void search(uint64_t empty, uint32_t used) {
    int c = __builtin_ctzll(empty);
    for (int i = 0; i < nplace[c]; i++) {
        uint64_t m = place[c][i];
        int k = kind_of[c][i];
        if ((m & ~empty) || (used >> k & 1)) continue;
        uint64_t after = empty & ~m;
        if (isolated(after)) continue;
        nodes++;
        if (!after) { solutions++; continue; }
        search(after, used | 1u << k);
    }
}

int main(int argc, char **argv) {
    const char *set = NULL, *board = NULL;
    char path[4096];
    struct timespec t0, t1, t2;
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--pieces") == 0) set = argv[i + 1];
        if (strcmp(argv[i], "--board") == 0) board = argv[i + 1];
    }
    if (!set || !board || sscanf(board, "%dx%d", &w, &h) != 2 || w < 1 || h < 1 || w * h > 64)
        fail("usage: pack-c [--threads 1] pack --pieces SET --board WxH (at most 64 cells)");
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (strchr(set, '/') || strstr(set, ".pieces")) snprintf(path, sizeof path, "%s", set);
    else if (strcmp(set, "iqfit") == 0) snprintf(path, sizeof path, "puzzles/src/pack/sets/iqfit-11x5.pieces");
    else snprintf(path, sizeof path, "puzzles/src/pack/sets/%s.pieces", set);
    read_pieces(path);
    s = w <= h ? w : h;
    l = w <= h ? h : w;
    full = s * l == 64 ? ~0ull : (1ull << (s * l)) - 1;
    /* not_first: cells not at the start of their line (may move down one
     * along it); not_last: cells not at its end (may move up one). */
    for (int b = 0; b < l; b++)
        for (int a = 0; a < s; a++) {
            if (a > 0) not_first |= 1ull << (a + s * b);
            if (a < s - 1) not_last |= 1ull << (a + s * b);
        }
    placements();
    clock_gettime(CLOCK_MONOTONIC, &t1);
    nodes = 1;
    search(full, 0);
    clock_gettime(CLOCK_MONOTONIC, &t2);
    double prepare = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    double wall = (t2.tv_sec - t1.tv_sec) + (t2.tv_nsec - t1.tv_nsec) * 1e-9;
    printf("pack %s on %s: %llu solutions (count mode, C, first empty cell, %.3f s search + %.3f s input, %llu nodes)\n",
           set, board, (unsigned long long)solutions, wall, prepare, (unsigned long long)nodes);
    printf("{\"problem\":\"pack\",\"instance\":\"%s on %s\",\"solutions\":%llu,\"nodes\":%llu,"
           "\"wall_s\":%.6f,\"prepare_s\":%.6f,\"ranks\":1,\"threads\":1}\n",
           set, board, (unsigned long long)solutions, (unsigned long long)nodes, wall, prepare);
    return 0;
}
