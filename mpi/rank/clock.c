/* SPDX-License-Identifier: Apache-2.0 */
/* The clocks a rank reads are its simulated machine's: the C library's (gettimeofday,
   clock_gettime, time, clock, timespec_get), C++'s (std::chrono's system_clock,
   steady_clock and high_resolution_clock) and OpenMP's (omp_get_wtime) give MPI_Wtime's time, so that a program timing
   its work with them measures what MPI_Wtime measures, its computation between calls
   included (--compute-scale). The real-time clocks start from the host's time when the
   rank first reads one (intervals are simulated); the others count from the machine's
   cycle 0. Outside the rank's run (the program's static constructors and destructors),
   and for clocks of other kinds (another process's or thread's, by clockid), they are the
   host's. They are weak: a program that defines a function of one of these names itself
   keeps its own. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "mpi/rank/rank_state.h"

/* The host's clock, past anything of this file's. */
static int host_clock(clockid_t id, struct timespec* tp) { return (int)syscall(SYS_clock_gettime, id, tp); }

static int64_t host_ns(clockid_t id) {
  struct timespec t;
  host_clock(id, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* The machine's clock mpirun gave this copy of the program: the running rank's MPI_Wtime,
   negative outside its run (in the program's constructors, say). */
static double (*machine_clock)(void);

void collnet_rank_clock(double (*now)(void)) { machine_clock = now; }

/* Nanoseconds of the machine's time, or -1 outside the rank's run (whole nanoseconds: a
   double of seconds since 1970 would keep only a quarter of a microsecond). */
static int64_t machine_ns(void) {
  const double s = machine_clock ? machine_clock() : -1;
  return s < 0 ? -1 : (int64_t)(s * 1e9);
}

/* The host's epoch at which, for this rank, the machine's cycle 0 lies. */
static int64_t epoch_ns(int64_t machine) {
  static int set;
  static int64_t at;
  if (!set) {
    at = host_ns(CLOCK_REALTIME) - machine;
    set = 1;
  }
  return at;
}

static int64_t realtime_ns(void) {
  const int64_t m = machine_ns();
  return m < 0 ? host_ns(CLOCK_REALTIME) : epoch_ns(m) + m;
}

static int64_t monotonic_ns(clockid_t id) {
  const int64_t m = machine_ns();
  return m < 0 ? host_ns(id) : m;
}

static struct timespec as_timespec(int64_t ns) {
  struct timespec t;
  t.tv_sec = (time_t)(ns / 1000000000);
  t.tv_nsec = (long)(ns % 1000000000);
  return t;
}

__attribute__((weak)) int clock_gettime(clockid_t id, struct timespec* tp) {
  switch (id) {
    case CLOCK_REALTIME:
    case CLOCK_REALTIME_COARSE:
    case CLOCK_TAI:
      *tp = as_timespec(realtime_ns());
      return 0;
    case CLOCK_MONOTONIC:
    case CLOCK_MONOTONIC_RAW:
    case CLOCK_MONOTONIC_COARSE:
    case CLOCK_BOOTTIME:
    case CLOCK_PROCESS_CPUTIME_ID:
    case CLOCK_THREAD_CPUTIME_ID:  /* the rank's processor runs nothing else */
      *tp = as_timespec(monotonic_ns(id));
      return 0;
    default:
      return host_clock(id, tp);
  }
}

__attribute__((weak)) int gettimeofday(struct timeval* restrict tv, void* restrict tz) {
  (void)tz;
  const struct timespec t = as_timespec(realtime_ns());
  tv->tv_sec = t.tv_sec;
  tv->tv_usec = t.tv_nsec / 1000;
  return 0;
}

__attribute__((weak)) time_t time(time_t* out) {
  const time_t t = (time_t)(realtime_ns() / 1000000000);
  if (out) *out = t;
  return t;
}

__attribute__((weak)) clock_t clock(void) { return (clock_t)(monotonic_ns(CLOCK_PROCESS_CPUTIME_ID) / (1000000000 / CLOCKS_PER_SEC)); }

__attribute__((weak)) int timespec_get(struct timespec* ts, int base) {
  if (base != TIME_UTC) return 0;
  *ts = as_timespec(realtime_ns());
  return base;
}

/* OpenMP's clock, for hybrid programs: seconds of the machine's time. */
__attribute__((weak)) double omp_get_wtime(void) { return (double)monotonic_ns(CLOCK_MONOTONIC) * 1e-9; }
__attribute__((weak)) double omp_get_wtick(void) { return 1e-9; }

/* std::chrono's clocks (libstdc++'s ABI: now() returns the count of nanoseconds). */
__attribute__((weak)) int64_t _ZNSt6chrono3_V212system_clock3nowEv(void) { return realtime_ns(); }
__attribute__((weak)) int64_t _ZNSt6chrono3_V212steady_clock3nowEv(void) { return monotonic_ns(CLOCK_MONOTONIC); }
