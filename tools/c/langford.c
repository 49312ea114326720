/* The peer of `examples/custom_problem N` in count mode: a plain C
 * recursion of the same tree (Langford pairings of order N, both ways; a
 * node is a partial row, its children the numbers k, rising, that fit in
 * the first free place p and in p + k + 1), written for `make bench` so
 * that both run side by side in one run.
 *
 * It takes the example's command line as `make bench` gives it
 * (`--threads 1 N --json --quiet`; every word but N is ignored) and
 * prints the example's JSON summary: solutions, nodes and wall_s (the
 * search alone). Threads: one. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int n, places;
static uint32_t full;
static uint64_t nodes, solutions;

static void walk(uint32_t taken, uint32_t placed) {
    nodes++;
    if (taken == full) {
        solutions++;
        return;
    }
    int p = __builtin_ctz(~taken);
    /* k's second place, p + k + 1, must lie in the row. */
    int last = places - p - 2 < n ? places - p - 2 : n;
    for (int k = 1; k <= last; k++) {
        int q = p + k + 1;
        if ((placed >> k & 1) || (taken >> q & 1)) continue;
        walk(taken | 1u << p | 1u << q, placed | 1u << k);
    }
}

int main(int argc, char **argv) {
    n = 0;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-') {
            if (argv[i][1] == '-' && argv[i][2] == 't') i++; /* --threads T */
            continue;
        }
        n = atoi(argv[i]);
    }
    if (n < 1 || n > 16) {
        fprintf(stderr, "langford: the order must be 1 to 16\n");
        return 2;
    }
    places = 2 * n;
    full = places == 32 ? UINT32_MAX : (1u << places) - 1;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    walk(0, 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double wall = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("L(2,%d) = %llu (%llu nodes, %.3f s)\n", n, (unsigned long long)solutions,
           (unsigned long long)nodes, wall);
    printf("{\"solutions\":%llu,\"nodes\":%llu,\"wall_s\":%.6f}\n", (unsigned long long)solutions,
           (unsigned long long)nodes, wall);
    return 0;
}
