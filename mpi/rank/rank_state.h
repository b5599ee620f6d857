/* SPDX-License-Identifier: Apache-2.0 */
/* The process state a rank owns (docs/mpi.md#what-each-rank-owns): collnet-mpicc links
   this library into every program, and mpirun loads a copy of the program per rank, so
   each rank has its own copy of what these files keep. mpirun calls the hooks below in
   each copy (it finds them by name): one as it loads the copy, one before the rank's
   main, one when the rank ends. */
#ifndef COLLNET_MPI_RANK_STATE_H
#define COLLNET_MPI_RANK_STATE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Starts the rank: its environment is `env` (NAME=VALUE strings, null-terminated: the
   environment mpirun was started with and the variables it sets for the rank), unless a
   constructor of the program's already started it from that environment as mpirun loaded
   the copy (collnet_loading_environment). */
void collnet_rank_begin(char* const* env);
/* Ends the rank with exit status `status`: runs the handlers registered with atexit and
   on_exit, last registered first. */
void collnet_rank_end(int status);
/* Gives the copy the machine's clock, as it is loaded: `now` returns the running rank's
   MPI_Wtime, or a negative number outside a rank's run; the C and C++ clocks read it
   (clock.c). */
void collnet_rank_clock(double (*now)(void));

#ifdef __cplusplus
}
#endif

#endif
