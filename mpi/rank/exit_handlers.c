// SPDX-License-Identifier: Apache-2.0
// atexit and on_exit with the rank's own list: the handlers a rank registers run when that
// rank ends (it returns from main or calls exit), last registered first, with its output
// still tagged as its own. C++ destructors of static objects are not these: they run when
// mpirun unloads the program's copies, at the end of the run.
#define _GNU_SOURCE
#include <stdlib.h>

#include "mpi/rank/rank_state.h"

struct handler {
  void (*plain)(void);               // atexit
  void (*with_status)(int, void*);   // on_exit
  void* arg;
};

static struct handler* handlers;
static size_t count, capacity;

static int add(struct handler h) {
  if (count == capacity) {
    const size_t n = capacity ? 2 * capacity : 32;
    struct handler* p = realloc(handlers, n * sizeof *p);
    if (!p) return -1;
    handlers = p;
    capacity = n;
  }
  handlers[count++] = h;
  return 0;
}

int atexit(void (*f)(void)) { return add((struct handler){f, NULL, NULL}); }
int on_exit(void (*f)(int, void*), void* arg) { return add((struct handler){NULL, f, arg}); }

void collnet_rank_end(int status) {
  // A handler may register another: it runs next, as the C library runs it.
  while (count) {
    const struct handler h = handlers[--count];
    if (h.plain)
      h.plain();
    else
      h.with_status(status, h.arg);
  }
}
