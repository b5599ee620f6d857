// SPDX-License-Identifier: Apache-2.0
// The rank's environment: getenv, setenv, unsetenv, putenv, clearenv and secure_getenv on
// a list of its own, which mpirun starts from its own environment and the variables it
// sets for the rank (OMPI_COMM_WORLD_RANK and the others an Open MPI job has). A rank that
// sets a variable sees it; no other rank does.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpi/rank/rank_state.h"

// The entries, "NAME=VALUE". owned[i] says whether entries[i] was allocated here (setenv)
// or belongs to the program (putenv) or to mpirun (the starting list).
static char** entries;
static unsigned char* owned;
static size_t count, capacity;

static int grow(void) {
  if (count + 1 < capacity) return 0;
  const size_t n = capacity ? 2 * capacity : 64;
  char** e = realloc(entries, n * sizeof *e);
  if (!e) return -1;
  entries = e;
  unsigned char* o = realloc(owned, n);
  if (!o) return -1;
  owned = o;
  capacity = n;
  return 0;
}

static int append(char* entry, int own) {
  if (grow()) return -1;
  entries[count] = entry;
  owned[count] = (unsigned char)own;
  entries[++count] = NULL;
  return 0;
}

void collnet_rank_begin(char* const* env) {
  // A list a constructor started is this one already (mpirun loads a copy in the
  // environment it starts the rank with), and the strings getenv gave it stay valid.
  if (entries) return;
  if (grow()) return;
  entries[0] = NULL;
  for (; env && *env; ++env) {
    char* copy = strdup(*env);
    if (!copy || append(copy, 1)) {
      free(copy);
      return;
    }
  }
}

// The environment a constructor of the program's sees, before mpirun starts the rank:
// the one mpirun starts the rank with (collnet_loading_environment, the collnet
// executable's, as it loads this copy), or the process's.
static char* const* starting_environment(void) {
  char* const* (*loading)(void) = (char* const* (*)(void))dlsym(RTLD_DEFAULT, "collnet_loading_environment");
  char* const* env = loading ? loading() : NULL;
  return env ? env : environ;
}

// The index of NAME (namelen bytes), or -1.
static long find(const char* name, size_t namelen) {
  if (!entries) collnet_rank_begin(starting_environment());
  for (size_t i = 0; i < count; ++i)
    if (!strncmp(entries[i], name, namelen) && entries[i][namelen] == '=') return (long)i;
  return -1;
}

static void remove_at(size_t i) {
  if (owned[i]) free(entries[i]);
  memmove(entries + i, entries + i + 1, (count - i) * sizeof *entries);  // the NULL too
  memmove(owned + i, owned + i + 1, count - i - 1);
  --count;
}

static int bad_name(const char* name) { return !*name || strchr(name, '=') != NULL; }

char* getenv(const char* name) {
  const long i = find(name, strlen(name));
  return i < 0 ? NULL : strchr(entries[i], '=') + 1;
}

char* secure_getenv(const char* name) { return getenv(name); }

int setenv(const char* name, const char* value, int overwrite) {
  if (bad_name(name)) {
    errno = EINVAL;
    return -1;
  }
  const size_t n = strlen(name);
  const long i = find(name, n);
  if (i >= 0 && !overwrite) return 0;
  const size_t v = strlen(value);
  char* entry = malloc(n + v + 2);
  if (!entry) {
    errno = ENOMEM;
    return -1;
  }
  memcpy(entry, name, n);
  entry[n] = '=';
  memcpy(entry + n + 1, value, v + 1);
  if (i >= 0) {
    if (owned[i]) free(entries[i]);
    entries[i] = entry;
    owned[i] = 1;
    return 0;
  }
  if (append(entry, 1)) {
    free(entry);
    errno = ENOMEM;
    return -1;
  }
  return 0;
}

int unsetenv(const char* name) {
  if (bad_name(name)) {
    errno = EINVAL;
    return -1;
  }
  const size_t n = strlen(name);
  for (long i; (i = find(name, n)) >= 0;) remove_at((size_t)i);
  return 0;
}

// The program's string becomes the entry (changing it later changes the variable);
// "NAME" without '=' removes NAME, as the GNU C library does.
int putenv(char* string) {
  const char* eq = strchr(string, '=');
  if (!eq) return unsetenv(string);
  const long i = find(string, (size_t)(eq - string));
  if (i >= 0) {
    if (owned[i]) free(entries[i]);
    entries[i] = string;
    owned[i] = 0;
    return 0;
  }
  if (append(string, 0)) {  // find() made the list
    errno = ENOMEM;
    return -1;
  }
  return 0;
}

int clearenv(void) {
  if (!entries) collnet_rank_begin(NULL);
  while (count) remove_at(count - 1);
  return 0;
}
