/* The peer of `hysolve xc FILE` in count mode: a plain C exact-cover
 * counter by dancing links with colours (Knuth's Algorithm C, TAOCP
 * 7.2.2.1; the method of his DLX1/DLX2 programs), reading the same files,
 * written for `make bench` so that both run side by side in one run.
 * Branches on the primary item with fewest options (first on ties), as
 * hysolve does, so both visit the same nodes.
 *
 * It takes hysolve's command line (`--threads 1 xc [--engine E] FILE
 * --json --quiet`; every word but FILE is ignored) and prints hysolve's
 * summary: a text line, then a JSON line with wall_s, solutions and nodes.
 * Threads: one. Input errors: a message and exit 2, without the care of
 * hysolve's parser. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct { int up, down, top, color; } cell;

static cell *nd;          /* headers 1..items, then options between spacers */
static int *llink, *rlink, *len;
static int items, primary, cells, cap;
static char (*names)[9];
static char colours[256];
static int ncolours;

static void fail(const char *what) {
    fprintf(stderr, "dlx-c: %s\n", what);
    exit(2);
}

static int item_of(const char *name) {
    for (int i = 1; i <= items; i++)
        if (strcmp(names[i], name) == 0) return i;
    fail("unknown item");
    return 0;
}

static void push(cell c) {
    if (cells == cap) {
        cap = cap ? 2 * cap : 1024;
        nd = realloc(nd, cap * sizeof *nd);
        if (!nd) fail("out of memory");
    }
    nd[cells++] = c;
}

static void read_file(const char *path) {
    FILE *f = fopen(path, "r");
    char line[1 << 16];
    int have_items = 0, spacer, k = 0;
    if (!f) fail("cannot open the file");
    while (fgets(line, sizeof line, f)) {
        char *w, *save;
        if (line[0] == '|') continue;
        if (strspn(line, " \t\r\n") == strlen(line)) continue;
        if (!have_items) {
            int n = 0, sec = -1;
            names = malloc((strlen(line) + 2) * sizeof *names);
            for (w = strtok_r(line, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
                if (strcmp(w, "|") == 0) { sec = n; continue; }
                if (strlen(w) > 8) fail("item name too long");
                strcpy(names[++n], w);
            }
            items = n;
            primary = sec < 0 ? n : sec;
            llink = calloc(items + 2, sizeof *llink);
            rlink = calloc(items + 2, sizeof *rlink);
            len = calloc(items + 2, sizeof *len);
            for (int i = 0; i <= items; i++) push((cell){i, i, 0, 0});
            for (int i = 1; i <= primary; i++) { llink[i] = i - 1; rlink[i - 1] = i; }
            rlink[primary] = 0; llink[0] = primary;
            /* the secondary items, in a list of their own headed by items + 1 */
            int h = items + 1, prev = h;
            for (int i = primary + 1; i <= items; i++) { llink[i] = prev; rlink[prev] = i; prev = i; }
            rlink[prev] = h; llink[h] = prev;
            spacer = cells;
            push((cell){0, 0, 0, 0});
            have_items = 1;
            continue;
        }
        int start = cells, has_primary = 0;
        for (w = strtok_r(line, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
            char *colon = strchr(w, ':');
            int c = 0;
            if (colon) {
                *colon = 0;
                for (c = 0; c < ncolours && colours[c] != colon[1]; c++) {}
                if (c == ncolours) colours[ncolours++] = colon[1];
                c++;
            }
            int i = item_of(w);
            if (i <= primary) has_primary = 1;
            int last = nd[i].up;
            push((cell){last, i, i, c});
            nd[last].down = cells - 1;
            nd[i].up = cells - 1;
            len[i]++;
        }
        if (!has_primary) fail("an option with no primary item");
        nd[spacer].down = cells - 1;
        k++;
        spacer = cells;
        push((cell){start, 0, -k, 0});
    }
    fclose(f);
    if (!have_items) fail("no items line");
}

static void hide(int p) {
    for (int q = p + 1; q != p;) {
        int x = nd[q].top;
        if (x <= 0) { q = nd[q].up; continue; }
        if (nd[q].color >= 0) {
            int u = nd[q].up, d = nd[q].down;
            nd[u].down = d; nd[d].up = u; len[x]--;
        }
        q++;
    }
}

static void unhide(int p) {
    for (int q = p - 1; q != p;) {
        int x = nd[q].top;
        if (x <= 0) { q = nd[q].down; continue; }
        if (nd[q].color >= 0) {
            int u = nd[q].up, d = nd[q].down;
            nd[u].down = q; nd[d].up = q; len[x]++;
        }
        q--;
    }
}

static void cover(int i) {
    for (int p = nd[i].down; p != i; p = nd[p].down) hide(p);
    int l = llink[i], r = rlink[i];
    rlink[l] = r; llink[r] = l;
}

static void uncover(int i) {
    int l = llink[i], r = rlink[i];
    rlink[l] = i; llink[r] = i;
    for (int p = nd[i].up; p != i; p = nd[p].up) unhide(p);
}

static void purify(int p) {
    int c = nd[p].color, i = nd[p].top;
    for (int q = nd[i].down; q != i; q = nd[q].down)
        if (nd[q].color == c) nd[q].color = -1; else hide(q);
}

static void unpurify(int p) {
    int c = nd[p].color, i = nd[p].top;
    for (int q = nd[i].up; q != i; q = nd[q].up)
        if (nd[q].color < 0) nd[q].color = c; else unhide(q);
}

static void commit(int p) {
    if (nd[p].color == 0) cover(nd[p].top);
    else if (nd[p].color > 0) purify(p);
}

static void uncommit(int p) {
    if (nd[p].color == 0) uncover(nd[p].top);
    else if (nd[p].color > 0) unpurify(p);
}

static uint64_t nodes, solutions;

static void search(void) {
    if (rlink[0] == 0) { solutions++; return; }
    int best = rlink[0], fewest = len[best];
    for (int i = rlink[best]; i != 0 && fewest > 0; i = rlink[i])
        if (len[i] < fewest) { fewest = len[i]; best = i; }
    if (fewest == 0) return;
    cover(best);
    for (int x = nd[best].down; x != best; x = nd[x].down) {
        nodes++;
        for (int p = x + 1; p != x;) {
            if (nd[p].top <= 0) { p = nd[p].up; continue; }
            commit(p++);
        }
        search();
        for (int p = x - 1; p != x;) {
            if (nd[p].top <= 0) { p = nd[p].down; continue; }
            uncommit(p--);
        }
    }
    uncover(best);
}

int main(int argc, char **argv) {
    const char *path = NULL;
    struct timespec t0, t1;
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "xc") == 0) {
            int j = i + 1;
            while (j + 1 < argc && strcmp(argv[j], "--engine") == 0) j += 2;
            path = argv[j];
        }
    if (!path) fail("usage: dlx-c [--threads 1] xc FILE");
    clock_gettime(CLOCK_MONOTONIC, &t0);
    read_file(path);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double prepare = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    nodes = 1;
    search();
    clock_gettime(CLOCK_MONOTONIC, &t0);
    double wall = (t0.tv_sec - t1.tv_sec) + (t0.tv_nsec - t1.tv_nsec) * 1e-9;
    printf("xc %s: %llu solutions (count mode, C, dancing links, %.3f s search + %.3f s input, %llu nodes)\n",
           path, (unsigned long long)solutions, wall, prepare, (unsigned long long)nodes);
    printf("{\"problem\":\"xc\",\"instance\":\"%s\",\"solutions\":%llu,\"nodes\":%llu,"
           "\"wall_s\":%.6f,\"prepare_s\":%.6f,\"ranks\":1,\"threads\":1}\n",
           path, (unsigned long long)solutions, (unsigned long long)nodes, wall, prepare);
    return 0;
}
