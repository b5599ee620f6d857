// SPDX-License-Identifier: Apache-2.0
/*
 * process_state.c - the C library state each process of an MPI job owns, used as
 * programs use it, with every rank stopping in a barrier in the middle of each use so
 * that the ranks' uses interleave: getopt_long and getopt on the command line (run it as
 * `process_state -s 64 --iters=5 input.dat -v --name=x -- -i`), rand, random and drand48
 * seeded per rank, strtok, the environment (setenv, putenv, unsetenv, and the variables
 * mpirun sets), errno, strerror's buffer, and atexit/on_exit handlers run at the rank's
 * exit, last registered first. Every rank prints what it saw.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static int rank, size;

static void pause_all(void) { MPI_Barrier(MPI_COMM_WORLD); }

static void first_handler(void) { printf("rank %d: atexit handler registered first\n", rank); }
static void second_handler(void) { printf("rank %d: atexit handler registered second\n", rank); }
static void status_handler(int status, void *arg) {
    printf("rank %d: on_exit handler, status %d, argument %s\n", rank, status, (const char *)arg);
}

static void options(int argc, char **argv) {
    static const struct option longopts[] = {{"size", required_argument, NULL, 's'},
                                              {"iters", required_argument, NULL, 'i'},
                                              {"verbose", no_argument, NULL, 'v'},
                                              {"name", optional_argument, NULL, 'n'},
                                              {NULL, 0, NULL, 0}};
    int c, index = -1, size_opt = 0, iters = 0, verbose = 0;
    while ((c = getopt_long(argc, argv, "s:i:vn::", longopts, &index)) != -1) {
        pause_all(); /* every rank parses the same arguments, so every rank gets here as often */
        printf("rank %d: option %c, argument %s, optind %d\n", rank, c, optarg ? optarg : "(none)", optind);
        if (c == 's') size_opt = atoi(optarg);
        if (c == 'i') iters = atoi(optarg);
        if (c == 'v') verbose = 1;
    }
    printf("rank %d: size %d, iterations %d, verbose %d\n", rank, size_opt, iters, verbose);
    for (int i = optind; i < argc; i++) printf("rank %d: operand %s\n", rank, argv[i]);
    CHECK(size_opt == 64 && iters == 5 && verbose == 1, "the options reach every rank");

    /* Parse a list of its own with POSIX getopt, starting over (optind = 0). */
    char a0[] = "tool", a1[] = "-ab", a2[] = "value", a3[] = "-q", a4[] = "last";
    char *list[] = {a0, a1, a2, a3, a4, NULL};
    optind = 0;
    opterr = 0;
    while ((c = getopt(5, list, "ab:")) != -1) {
        pause_all();
        printf("rank %d: getopt %c, optopt %d, optarg %s, optind %d\n", rank, c, optopt, optarg ? optarg : "-",
               optind);
    }
}

static void random_numbers(void) {
    srand(rank + 1);
    int r1 = rand();
    pause_all();
    int r2 = rand();
    printf("rank %d: rand %d %d\n", rank, r1, r2);
    srandom(100 + rank);
    long q1 = random();
    pause_all();
    printf("rank %d: random %ld %ld\n", rank, q1, random());
    srand48(rank);
    double d = drand48();
    pause_all();
    printf("rank %d: drand48 %.17g lrand48 %ld\n", rank, d, lrand48());
}

static void tokens(void) {
    char text[64];
    snprintf(text, sizeof text, "rank %d,of;%d ranks", rank, size);
    int n = 0;
    for (char *t = strtok(text, " ,;"); t; t = strtok(NULL, " ,;")) {
        pause_all();
        printf("rank %d: token %d '%s'\n", rank, n++, t);
    }
}

static void environment(void) {
    char value[32];
    snprintf(value, sizeof value, "value of rank %d", rank);
    CHECK(setenv("PROCESS_STATE_VAR", value, 1) == 0, "setenv");
    static char put[32];
    snprintf(put, sizeof put, "PROCESS_STATE_PUT=%d", rank * 10);
    CHECK(putenv(put) == 0, "putenv");
    pause_all();
    printf("rank %d: PROCESS_STATE_VAR=%s PROCESS_STATE_PUT=%s\n", rank, getenv("PROCESS_STATE_VAR"),
           getenv("PROCESS_STATE_PUT"));
    const char *world = getenv("OMPI_COMM_WORLD_RANK"), *world_size = getenv("OMPI_COMM_WORLD_SIZE");
    printf("rank %d: OMPI_COMM_WORLD_RANK=%s OMPI_COMM_WORLD_SIZE=%s\n", rank, world ? world : "(unset)",
           world_size ? world_size : "(unset)");
    CHECK(world && atoi(world) == rank, "OMPI_COMM_WORLD_RANK names the rank");
    if (rank % 2) unsetenv("PROCESS_STATE_VAR");
    CHECK(setenv("PROCESS_STATE_VAR", "kept", 0) == 0, "setenv without overwrite");
    pause_all();
    printf("rank %d: after unsetenv on odd ranks: %s\n", rank, getenv("PROCESS_STATE_VAR"));
}

static void error_state(void) {
    errno = 100 + rank;
    pause_all();
    CHECK(errno == 100 + rank, "errno kept across a barrier: %d", errno);
    const char *text = strerror(rank % 5 + 1);
    pause_all();
    printf("rank %d: strerror(%d) = %s\n", rank, rank % 5 + 1, text);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(atexit(first_handler) == 0 && atexit(second_handler) == 0, "atexit");
    static char argument[16];
    snprintf(argument, sizeof argument, "r%d", rank);
    CHECK(on_exit(status_handler, argument) == 0, "on_exit");
    options(argc, argv);
    random_numbers();
    tokens();
    environment();
    error_state();
    check_report("process_state");
    MPI_Finalize();
    return 0;
}
