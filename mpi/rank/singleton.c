/* SPDX-License-Identifier: Apache-2.0 */
/* A program collnet-mpicc linked is a shared object that `collnet mpirun` loads once per
   rank; run directly (`./prog args`, as build systems run what they compile, and as MPI
   allows a program to start without mpirun), it runs as one rank: its entry point, which
   only a direct run reaches, replaces the process with `collnet mpirun -n 1 --quiet --
   PROG ARGS` (no report: the program's output only, and why a run ended early).
   collnet is the one this library was built with, else $COLLNET, else `collnet` on PATH. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The dynamic linker the kernel starts a direct run with (a shared object has none). */
#if defined(__x86_64__)
const char collnet_interp[] __attribute__((section(".interp"))) = "/lib64/ld-linux-x86-64.so.2";
#elif defined(__aarch64__)
const char collnet_interp[] __attribute__((section(".interp"))) = "/lib/ld-linux-aarch64.so.1";
#endif

#ifndef COLLNET_EXECUTABLE
#define COLLNET_EXECUTABLE "collnet"
#endif

/* The process's command line (NUL-separated, as /proc/self/cmdline holds it), or NULL. */
static char* command_line(size_t* length) {
  FILE* f = fopen("/proc/self/cmdline", "r");
  if (!f) return NULL;
  size_t size = 4096, used = 0;
  char* text = malloc(size + 1);
  for (size_t got; text && (got = fread(text + used, 1, size - used, f)) > 0;) {
    used += got;
    if (used == size) {
      char* bigger = realloc(text, 2 * size + 1);
      if (!bigger) {
        free(text);
        text = NULL;
        break;
      }
      text = bigger;
      size *= 2;
    }
  }
  fclose(f);
  if (text) text[used] = '\0';
  *length = used;
  return text;
}

/* The entry point (the stack is as the kernel left it: realigned for C). */
__attribute__((force_align_arg_pointer, noreturn)) void collnet_singleton_entry(void) {
  size_t length = 0;
  char* text = command_line(&length);
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (!text || n <= 0) {
    fprintf(stderr, "collnet-mpicc program: cannot read its own command line; run it with collnet mpirun\n");
    _exit(127);
  }
  self[n] = '\0';
  size_t words = 0;
  for (size_t i = 0; i < length; i += strlen(text + i) + 1) ++words;
  char** argv = calloc(words + 7, sizeof *argv);
  if (!argv) _exit(127);
  size_t a = 0;
  argv[a++] = "collnet";
  argv[a++] = "mpirun";
  argv[a++] = "-n";
  argv[a++] = "1";
  argv[a++] = "--quiet";  // the program's own output only, as a program started without mpirun
  argv[a++] = "--";
  argv[a++] = self;
  size_t i = strlen(text) + 1;  // past argv[0]
  for (; i < length; i += strlen(text + i) + 1) argv[a++] = text + i;
  argv[a] = NULL;
  const char* chosen = getenv("COLLNET");
  if (chosen && *chosen) execv(chosen, argv);
  if (access(COLLNET_EXECUTABLE, X_OK) == 0) execv(COLLNET_EXECUTABLE, argv);
  execvp("collnet", argv);
  fprintf(stderr, "collnet-mpicc program: cannot start collnet mpirun (set COLLNET to the collnet executable): ");
  perror("");
  _exit(127);
}
