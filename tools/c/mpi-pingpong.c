/* What one message costs between two ranks whose receiver polls the way
 * hysolve's manager does: `MPI_Improbe`, and when nothing is there, a
 * sleep of SLEEP_US before the next look (0: spin). Rank 0 sends 64 bytes,
 * rank 1 polls for them and sends them back, rank 0 polls for the reply;
 * half the round trip is the one-way time. With `slack` as the second
 * argument each rank first sets its thread's timer slack to 1 ns (Linux
 * ends a sleep up to the slack late, 50 µs by default).
 *
 *   mpirun -np 2 target/bench-c/mpi-pingpong SLEEP_US [slack]
 *
 * prints one line: the sleep, the slack, and the one-way median and 90th
 * percentile over 2,000 round trips. `make pingpong` runs it for 0, 20 and
 * 100 µs with and without the slack (bench-results/log/2026-11-to-12-groups.md,
 * "The simulator on 16 real cores again"). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

enum { TRIPS = 2000, BYTES = 64 };

static void poll_receive(int from, int sleep_us, char *buf) {
    int flag = 0;
    MPI_Message message;
    MPI_Status status;
    for (;;) {
        MPI_Improbe(from, 0, MPI_COMM_WORLD, &flag, &message, &status);
        if (flag)
            break;
        if (sleep_us > 0)
            usleep((useconds_t)sleep_us);
    }
    MPI_Mrecv(buf, BYTES, MPI_BYTE, &message, &status);
}

static void send_to(int to, char *buf) {
    MPI_Request request;
    MPI_Isend(buf, BYTES, MPI_BYTE, to, 0, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: mpi-pingpong SLEEP_US [slack]\n");
        return 2;
    }
    int sleep_us = atoi(argv[1]);
    int slack = argc > 2 && strcmp(argv[2], "slack") == 0;
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "mpi-pingpong: needs exactly 2 ranks, got %d\n", size);
        MPI_Finalize();
        return 2;
    }
#ifdef __linux__
    if (slack)
        prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
#endif
    char buf[BYTES];
    memset(buf, 0, sizeof buf);
    double *one_way = malloc(TRIPS * sizeof *one_way);
    if (!one_way) {
        MPI_Abort(MPI_COMM_WORLD, 1);
        return 1;
    }
    for (int i = 0; i < TRIPS; i++) {
        if (rank == 0) {
            double start = MPI_Wtime();
            send_to(1, buf);
            poll_receive(1, sleep_us, buf);
            one_way[i] = (MPI_Wtime() - start) * 1e6 / 2;
        } else {
            poll_receive(0, sleep_us, buf);
            send_to(0, buf);
        }
    }
    if (rank == 0) {
        qsort(one_way, TRIPS, sizeof *one_way, by_value);
        printf("sleep %d us between polls, timer slack %s: one way median %.1f us, "
               "90th percentile %.1f us\n",
               sleep_us, slack ? "1 ns" : "default", one_way[TRIPS / 2],
               one_way[TRIPS * 9 / 10]);
    }
    free(one_way);
    MPI_Finalize();
    return 0;
}
