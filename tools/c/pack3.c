/* The 3D peer of `hysolve pack --pieces SET --board WxHxD` in count mode:
 * a plain C counter of solid-piece packings by kept placement lists and
 * fewest-placements branching, three of the pruning rules of BCSolve (the
 * seed's Soma and Bedlam solver), for boxes of at most 64 cells, written
 * for `make bench` so that both run side by side in one run. It leaves out
 * BCSolve's parity rule (the chessboard colouring bound), which hysolve
 * has: so it is not the whole of BCSolve's method.
 *
 * The rules, as BCSolve's author describes them: every placement of a piece
 * (one of its 24 rotations at one place) is a 64-bit word; each level keeps,
 * for every piece not yet placed, the list of its placements that still
 * fit, filtered from the level above. A level is abandoned when a piece
 * has no placement left ("all pieces placeable") or when an empty cell is
 * covered by no placement left ("all cubelets coverable"). The piece with
 * the fewest placements left is placed next, and only where it covers the
 * empty cells that no other piece can ("piece must cover").
 *
 * It takes hysolve's command line (`--threads 1 pack --pieces SET --board
 * WxHxD --json --quiet`; SET a built-in name of puzzles/src/pack/sets or a
 * .pieces file of x,y,z cells, one copy of each piece; other words
 * ignored) and prints hysolve's summary: a text line, then a JSON line with
 * wall_s, solutions (every packing, no symmetry) and nodes (placements
 * made). Threads: one. Run from the repository's root. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXK 16
#define MAXM 4096
static int w, h, d, kinds;
static int cells[MAXK][64][3], ncells[MAXK];
static uint64_t moves[MAXK][MAXM];
static int nmoves[MAXK];
static uint64_t all, nodes, solutions;

static void fail(const char *what) {
    fprintf(stderr, "pack3-c: %s\n", what);
    exit(2);
}

/* Reads a .pieces file: '#' comments, then NAME x,y,z x,y,z ... per piece. */
static void read_pieces(const char *path) {
    char line[4096];
    FILE *f = fopen(path, "r");
    if (!f) fail("cannot open the pieces");
    while (fgets(line, sizeof line, f)) {
        char *save, *w0 = strtok_r(line, " \t\r\n", &save);
        if (!w0 || w0[0] == '#') continue;
        if (kinds == MAXK) fail("too many pieces");
        for (char *c = strtok_r(NULL, " \t\r\n", &save); c; c = strtok_r(NULL, " \t\r\n", &save)) {
            int n = ncells[kinds]++;
            if (n == 64) fail("piece too large");
            if (sscanf(c, "%d,%d,%d", &cells[kinds][n][0], &cells[kinds][n][1], &cells[kinds][n][2]) != 3)
                fail("bad cell (x,y,z expected)");
        }
        kinds++;
    }
    fclose(f);
}

/* Turns p by a quarter about axis a (0: x, 1: y, 2: z). */
static void quarter(int p[3], int a) {
    int i = (a + 1) % 3, j = (a + 2) % 3, t = p[i];
    p[i] = -p[j];
    p[j] = t;
}

/* Every placement of every piece: the 24 rotations (the 6 directions the
 * x axis can point to, times 4 turns about it) at every place in the box,
 * each distinct word once. */
static void placements(void) {
    for (int k = 0; k < kinds; k++) {
        for (int r = 0; r < 24; r++) {
            int pts[64][3], n = ncells[k], lo[3] = {1 << 20, 1 << 20, 1 << 20}, hi[3] = {-(1 << 20), -(1 << 20), -(1 << 20)};
            for (int i = 0; i < n; i++) {
                memcpy(pts[i], cells[k][i], sizeof pts[i]);
                /* r % 4 turns about x, then the x axis sent to direction
                 * r / 4: +x, +y, -x, -y (turns about z), +z or -z (about y) */
                for (int q = 0; q < r % 4; q++) quarter(pts[i], 0);
                int dir = r / 4;
                if (dir < 4) for (int q = 0; q < dir; q++) quarter(pts[i], 2);
                else if (dir == 4) quarter(pts[i], 1);
                else { quarter(pts[i], 1); quarter(pts[i], 1); quarter(pts[i], 1); }
                for (int a = 0; a < 3; a++) {
                    if (pts[i][a] < lo[a]) lo[a] = pts[i][a];
                    if (pts[i][a] > hi[a]) hi[a] = pts[i][a];
                }
            }
            for (int z = 0; z + hi[2] - lo[2] < d; z++)
                for (int y = 0; y + hi[1] - lo[1] < h; y++)
                    for (int x = 0; x + hi[0] - lo[0] < w; x++) {
                        uint64_t m = 0;
                        for (int i = 0; i < n; i++)
                            m |= 1ull << ((pts[i][0] - lo[0] + x) + w * ((pts[i][1] - lo[1] + y) + h * (pts[i][2] - lo[2] + z)));
                        int seen = 0;
                        for (int j = 0; j < nmoves[k] && !seen; j++) seen = moves[k][j] == m;
                        if (seen) continue;
                        if (nmoves[k] == MAXM) fail("too many placements");
                        moves[k][nmoves[k]++] = m;
                    }
        }
    }
}

/* The placements still fitting at each level: piece k's list at level l
 * is lists[l][k][0 .. count[l][k]). */
static uint64_t *lists[MAXK + 1][MAXK];
static int count[MAXK + 1][MAXK];

static void search(int level, uint64_t full, unsigned left) {
    if (!left) {
        solutions++;
        return;
    }
    /* Filter every piece left against the cells now full. */
    uint64_t once = 0, twice = 0;
    int best = -1;
    for (int k = 0; k < kinds; k++) {
        if (!(left >> k & 1)) continue;
        const uint64_t *from = lists[level - 1][k];
        uint64_t *to = lists[level][k], cover = 0;
        int n = 0;
        for (int i = 0, m = count[level - 1][k]; i < m; i++)
            if (!(from[i] & full)) {
                to[n++] = from[i];
                cover |= from[i];
            }
        if (!n) return; /* all pieces placeable */
        count[level][k] = n;
        twice |= once & cover;
        once |= cover;
        if (best < 0 || n < count[level][best]) best = k;
    }
    if ((once | full) != all) return; /* all cubelets coverable */
    /* Cells only the chosen piece can still cover: it must cover them. */
    uint64_t mine = 0;
    for (int i = 0; i < count[level][best]; i++) mine |= lists[level][best][i];
    uint64_t must = mine & ~twice & ~full;
    for (int i = 0; i < count[level][best]; i++) {
        uint64_t m = lists[level][best][i];
        if ((m & must) != must) continue;
        nodes++;
        search(level + 1, full | m, left & ~(1u << best));
    }
}

int main(int argc, char **argv) {
    const char *set = NULL, *board = NULL;
    char path[4096];
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--pieces") == 0) set = argv[i + 1];
        if (strcmp(argv[i], "--board") == 0) board = argv[i + 1];
    }
    if (!set || !board || sscanf(board, "%dx%dx%d", &w, &h, &d) != 3)
        fail("usage: pack3-c [--threads 1] pack --pieces SET --board WxHxD");
    if (w < 1 || h < 1 || d < 1 || w * h * d > 64) fail("the box must have 1 to 64 cells");
    if (strchr(set, '/') || strstr(set, ".pieces"))
        snprintf(path, sizeof path, "%s", set);
    else
        snprintf(path, sizeof path, "puzzles/src/pack/sets/%s.pieces", set);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    read_pieces(path);
    int total = 0;
    for (int k = 0; k < kinds; k++) total += ncells[k];
    if (total != w * h * d) fail("the pieces do not cover the box exactly");
    all = w * h * d == 64 ? ~0ull : (1ull << (w * h * d)) - 1;
    placements();
    for (int l = 0; l <= kinds; l++)
        for (int k = 0; k < kinds; k++) {
            lists[l][k] = malloc(sizeof(uint64_t) * (nmoves[k] ? nmoves[k] : 1));
            if (!lists[l][k]) fail("out of memory");
        }
    for (int k = 0; k < kinds; k++) {
        memcpy(lists[0][k], moves[k], sizeof(uint64_t) * nmoves[k]);
        count[0][k] = nmoves[k];
    }
    search(1, 0, (1u << kinds) - 1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double wall = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    printf("pack %s on %s: %llu solutions (count mode, C, BCSolve's method, %.3f s)\n", set, board,
           (unsigned long long)solutions, wall);
    printf("{\"problem\":\"pack\",\"instance\":\"%s on %s\",\"solutions\":%llu,\"nodes\":%llu,"
           "\"wall_s\":%.6f,\"prepare_s\":0,\"ranks\":1,\"threads\":1}\n",
           set, board, (unsigned long long)solutions, (unsigned long long)nodes, wall);
    return 0;
}
