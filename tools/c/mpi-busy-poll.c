/* When a busy receiver sees a message: rank 1 works (spins) for POLL_US
 * between looks, as a hysolve worker walks between its polls, and at each
 * look calls MPI_Improbe once (`once`) or, where that finds nothing, a
 * second time (`twice`, as hysolve's transport does). Rank 0 sends a
 * small message carrying its send time every 50 to 150 µs (spun, so the
 * sends fall at every phase of the receiver's polls); rank 1 takes the
 * one-way time from the send to the look that matched it (both ranks on
 * one host read one monotonic clock).
 *
 *   mpirun -np 2 target/bench-c/mpi-busy-poll POLL_US once|twice
 *
 * prints one line: the interval, the probes, and the one-way time's 10th
 * percentile, median, 90th percentile and longest over 2,000 messages.
 * A look that comes a uniform time after the arrival would see it after
 * half an interval, median; Open MPI's probe matches before it progresses
 * its shared-memory queues, so with one probe a look sees only what the
 * look before it pulled in (src/cluster/mpi_transport.rs; `make
 * pingpong`; src/cluster/README.md, "Noticing a message"). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MESSAGES = 2000 };

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void spin_us(double us) {
    double end = now_us() + us;
    while (now_us() < end) {
    }
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 3 || (strcmp(argv[2], "once") != 0 && strcmp(argv[2], "twice") != 0)) {
        fprintf(stderr, "usage: mpi-busy-poll POLL_US once|twice\n");
        return 2;
    }
    double poll_us = atof(argv[1]);
    int twice = strcmp(argv[2], "twice") == 0;
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "mpi-busy-poll: needs exactly 2 ranks, got %d\n", size);
        MPI_Finalize();
        return 2;
    }
    if (rank == 0) {
        srand(1);
        for (int i = 0; i < MESSAGES; i++) {
            spin_us(50 + rand() % 100);
            double sent = now_us();
            MPI_Send(&sent, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
        }
    } else {
        double *one_way = malloc(MESSAGES * sizeof *one_way);
        if (!one_way) {
            MPI_Abort(MPI_COMM_WORLD, 1);
            return 1;
        }
        int got = 0;
        while (got < MESSAGES) {
            int flag = 0;
            MPI_Message message;
            MPI_Status status;
            MPI_Improbe(0, 0, MPI_COMM_WORLD, &flag, &message, &status);
            if (!flag && twice)
                MPI_Improbe(0, 0, MPI_COMM_WORLD, &flag, &message, &status);
            if (flag) {
                double sent;
                MPI_Mrecv(&sent, 1, MPI_DOUBLE, &message, &status);
                one_way[got++] = now_us() - sent;
            } else {
                spin_us(poll_us);
            }
        }
        qsort(one_way, MESSAGES, sizeof *one_way, by_value);
        printf("busy %.0f us between looks, probing %s: one way 10th percentile %.1f us, "
               "median %.1f us, 90th percentile %.1f us, longest %.1f us\n",
               poll_us, argv[2], one_way[MESSAGES / 10], one_way[MESSAGES / 2],
               one_way[MESSAGES * 9 / 10], one_way[MESSAGES - 1]);
        free(one_way);
    }
    MPI_Finalize();
    return 0;
}
