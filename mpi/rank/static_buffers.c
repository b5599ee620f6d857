// SPDX-License-Identifier: Apache-2.0
// The C library calls that return a static buffer or keep a position between calls, with
// the rank's own: strtok, strerror, ctime, asctime, localtime, gmtime. (A rank waiting in
// an MPI call lets the others run, so a buffer shared by all would change under it.)
#define _GNU_SOURCE
#include <string.h>
#include <time.h>

#include "mpi/rank/rank_state.h"

static char* strtok_next;

char* strtok(char* s, const char* delim) { return strtok_r(s, delim, &strtok_next); }

static char error_text[1024];

char* strerror(int code) {
  // The GNU strerror_r returns its own constant text or fills the buffer.
  char* text = strerror_r(code, error_text, sizeof error_text);
  if (text != error_text) {
    strncpy(error_text, text, sizeof error_text - 1);
    error_text[sizeof error_text - 1] = '\0';
  }
  return error_text;
}

static struct tm broken_down;
static char time_text[64];

struct tm* localtime(const time_t* t) { return localtime_r(t, &broken_down); }
struct tm* gmtime(const time_t* t) { return gmtime_r(t, &broken_down); }
char* asctime(const struct tm* tm) { return asctime_r(tm, time_text); }
char* ctime(const time_t* t) {
  struct tm tm;
  return localtime_r(t, &tm) ? asctime_r(&tm, time_text) : NULL;
}
