// SPDX-License-Identifier: Apache-2.0
// The C library's pseudo-random generators with the rank's own state: rand/srand,
// random/srandom/initstate/setstate and the drand48 family. Each runs the GNU C library's
// reentrant form (random_r, drand48_r, ...) on state kept here, so a rank seeded with S
// draws the sequence a process seeded with S draws, whatever the other ranks draw.
#define _GNU_SOURCE
#include <stdlib.h>

#include "mpi/rank/rank_state.h"

// random()'s state: the GNU C library's default, a degree-31 additive generator seeded
// with 1 until the program seeds it.
static int32_t random_table[32];
static char* random_state = (char*)random_table;
static struct random_data random_data;
static int random_ready;

static void random_start(void) {
  if (random_ready) return;
  random_ready = 1;
  initstate_r(1, random_state, sizeof random_table, &random_data);
}

long random(void) {
  random_start();
  int32_t r;
  random_r(&random_data, &r);
  return r;
}

void srandom(unsigned seed) {
  random_start();
  srandom_r(seed, &random_data);
}

char* initstate(unsigned seed, char* state, size_t n) {
  random_start();
  char* old = random_state;
  // Like the C library's, the old state is left as the caller may resume it with setstate.
  if (initstate_r(seed, state, n, &random_data) != 0) return NULL;
  random_state = state;
  return old;
}

char* setstate(char* state) {
  random_start();
  char* old = random_state;
  if (setstate_r(state, &random_data) != 0) return NULL;
  random_state = state;
  return old;
}

int rand(void) { return (int)random(); }
void srand(unsigned seed) { srandom(seed); }

// The drand48 family: one 48-bit linear congruential generator (its multiplier and addend
// changed only by lcong48), zero-initialised as the C library's is.
static struct drand48_data lcg;

double drand48(void) {
  double r;
  drand48_r(&lcg, &r);
  return r;
}
double erand48(unsigned short xsubi[3]) {
  double r;
  erand48_r(xsubi, &lcg, &r);
  return r;
}
long lrand48(void) {
  long r;
  lrand48_r(&lcg, &r);
  return r;
}
long nrand48(unsigned short xsubi[3]) {
  long r;
  nrand48_r(xsubi, &lcg, &r);
  return r;
}
long mrand48(void) {
  long r;
  mrand48_r(&lcg, &r);
  return r;
}
long jrand48(unsigned short xsubi[3]) {
  long r;
  jrand48_r(xsubi, &lcg, &r);
  return r;
}
void srand48(long seed) { srand48_r(seed, &lcg); }
unsigned short* seed48(unsigned short seed[3]) {
  seed48_r(seed, &lcg);
  return lcg.__old_x;  // the state before, as the C library's seed48 returns it
}
void lcong48(unsigned short param[7]) { lcong48_r(param, &lcg); }
