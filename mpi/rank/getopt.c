// SPDX-License-Identifier: Apache-2.0
// getopt, getopt_long and getopt_long_only with the rank's own optind, optarg, opterr and
// optopt. Behaves as the GNU C library's do, so that a program prints under collnet
// mpirun what it prints under another MPI: the same permutation of the arguments (options
// first, unless the option string starts with '+' or POSIXLY_CORRECT is set, or with '-'
// for "in order"), the same long-option abbreviations, and the same error messages.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/rank/rank_state.h"

struct option {
  const char* name;
  int has_arg;
  int* flag;
  int val;
};

char* optarg = NULL;
int optind = 1;
int opterr = 1;
int optopt = '?';

enum ordering { kRequireOrder, kPermute, kReturnInOrder };

// What carries over between calls besides the four globals.
static struct {
  int initialized;
  char* nextchar;  // the rest of the element of grouped short options being scanned
  enum ordering ordering;
  int first_nonopt, last_nonopt;  // the non-options skipped so far: [first, last)
  int optopt;  // copied to optopt after each call (so it reads 0 until an error, as the C library's)
} g;

// Moves the non-options skipped, [first_nonopt, last_nonopt), after the options found
// since, [last_nonopt, optind), keeping the order within each.
static void exchange(char** argv) {
  const int nonopts = g.last_nonopt - g.first_nonopt, opts = optind - g.last_nonopt;
  if (nonopts > 0 && opts > 0) {
    char** tmp = malloc(sizeof(char*) * (size_t)nonopts);
    if (tmp) {
      memcpy(tmp, argv + g.first_nonopt, sizeof(char*) * (size_t)nonopts);
      memmove(argv + g.first_nonopt, argv + g.last_nonopt, sizeof(char*) * (size_t)opts);
      memcpy(argv + g.first_nonopt + opts, tmp, sizeof(char*) * (size_t)nonopts);
      free(tmp);
    }
  }
  g.first_nonopt += opts;
  g.last_nonopt = optind;
}

static const char* initialize(const char* optstring, int posixly_correct) {
  if (optind == 0) optind = 1;
  g.first_nonopt = g.last_nonopt = optind;
  g.nextchar = NULL;
  if (optstring[0] == '-') {
    g.ordering = kReturnInOrder;
    ++optstring;
  } else if (optstring[0] == '+') {
    g.ordering = kRequireOrder;
    ++optstring;
  } else if (posixly_correct || getenv("POSIXLY_CORRECT")) {
    g.ordering = kRequireOrder;
  } else {
    g.ordering = kPermute;
  }
  g.initialized = 1;
  return optstring;
}

static int nonoption(char** argv) { return argv[optind][0] != '-' || argv[optind][1] == '\0'; }

// The long option at g.nextchar (after `prefix`, "--", "-" or "-W "). Returns -1 in
// long-only mode for a name that is no long option but whose first letter is a short one.
static int long_option(int argc, char** argv, const char* optstring, const struct option* longopts, int* longind,
                       int long_only, int print_errors, const char* prefix) {
  char* nameend = g.nextchar;
  while (*nameend && *nameend != '=') ++nameend;
  const size_t namelen = (size_t)(nameend - g.nextchar);

  const struct option* found = NULL;
  int found_index = -1, n_options = 0;
  for (const struct option* p = longopts; p->name; ++p, ++n_options)
    if (!strncmp(p->name, g.nextchar, namelen) && namelen == strlen(p->name)) {
      found = p;
      found_index = n_options;
      break;
    }
  if (!found) {
    // An abbreviation: unique, or ambiguous only between options that do the same.
    unsigned char* ambiguous = NULL;
    int any_ambiguous = 0, index = 0;
    for (const struct option* p = longopts; p->name; ++p, ++index) {
      if (strncmp(p->name, g.nextchar, namelen)) continue;
      if (!found) {
        found = p;
        found_index = index;
      } else if (long_only || found->has_arg != p->has_arg || found->flag != p->flag || found->val != p->val) {
        if (!ambiguous) ambiguous = calloc((size_t)n_options, 1);
        if (ambiguous) ambiguous[found_index] = ambiguous[index] = 1;
        any_ambiguous = 1;
      }
    }
    if (any_ambiguous) {
      if (print_errors) {
        if (ambiguous) {
          fprintf(stderr, "%s: option '%s%s' is ambiguous; possibilities:", argv[0], prefix, g.nextchar);
          for (int i = 0; i < n_options; ++i)
            if (ambiguous[i]) fprintf(stderr, " '%s%s'", prefix, longopts[i].name);
          fprintf(stderr, "\n");
        } else {
          fprintf(stderr, "%s: option '%s%s' is ambiguous\n", argv[0], prefix, g.nextchar);
        }
      }
      free(ambiguous);
      g.nextchar += strlen(g.nextchar);
      ++optind;
      g.optopt = 0;
      return '?';
    }
  }
  if (!found) {
    if (long_only && argv[optind][1] != '-' && strchr(optstring, *g.nextchar)) return -1;
    if (print_errors) fprintf(stderr, "%s: unrecognized option '%s%s'\n", argv[0], prefix, g.nextchar);
    g.nextchar = NULL;
    ++optind;
    g.optopt = 0;
    return '?';
  }

  ++optind;
  g.nextchar = NULL;
  if (*nameend) {
    if (found->has_arg) {
      optarg = nameend + 1;
    } else {
      if (print_errors)
        fprintf(stderr, "%s: option '%s%s' doesn't allow an argument\n", argv[0], prefix, found->name);
      g.optopt = found->val;
      return '?';
    }
  } else if (found->has_arg == 1) {
    if (optind < argc) {
      optarg = argv[optind++];
    } else {
      if (print_errors) fprintf(stderr, "%s: option '%s%s' requires an argument\n", argv[0], prefix, found->name);
      g.optopt = found->val;
      return optstring[0] == ':' ? ':' : '?';
    }
  }
  if (longind) *longind = found_index;
  if (found->flag) {
    *found->flag = found->val;
    return 0;
  }
  return found->val;
}

// Moves to the next element of argv when the last one is used up. Returns 0 when an option
// element is next (g.nextchar set), or what getopt returns (-1, 1 for an in-order
// non-option, or a long option's result).
static int next_element(int argc, char** argv, const char* optstring, const struct option* longopts, int* longind,
                        int long_only, int print_errors, int* result) {
  if (g.last_nonopt > optind) g.last_nonopt = optind;
  if (g.first_nonopt > optind) g.first_nonopt = optind;
  if (g.ordering == kPermute) {
    if (g.first_nonopt != g.last_nonopt && g.last_nonopt != optind)
      exchange(argv);
    else if (g.last_nonopt != optind)
      g.first_nonopt = optind;
    while (optind < argc && nonoption(argv)) ++optind;
    g.last_nonopt = optind;
  }
  if (optind != argc && !strcmp(argv[optind], "--")) {
    ++optind;
    if (g.first_nonopt != g.last_nonopt && g.last_nonopt != optind)
      exchange(argv);
    else if (g.first_nonopt == g.last_nonopt)
      g.first_nonopt = optind;
    g.last_nonopt = argc;
    optind = argc;
  }
  if (optind == argc) {
    if (g.first_nonopt != g.last_nonopt) optind = g.first_nonopt;
    *result = -1;
    return 1;
  }
  if (nonoption(argv)) {
    if (g.ordering == kRequireOrder) {
      *result = -1;
      return 1;
    }
    optarg = argv[optind++];
    *result = 1;
    return 1;
  }
  if (longopts) {
    if (argv[optind][1] == '-') {
      g.nextchar = argv[optind] + 2;
      *result = long_option(argc, argv, optstring, longopts, longind, long_only, print_errors, "--");
      return 1;
    }
    if (long_only && (argv[optind][2] || !strchr(optstring, argv[optind][1]))) {
      g.nextchar = argv[optind] + 1;
      const int code = long_option(argc, argv, optstring, longopts, longind, long_only, print_errors, "-");
      if (code != -1) {
        *result = code;
        return 1;
      }
    }
  }
  g.nextchar = argv[optind] + 1;
  return 0;
}

// A short option whose argument is missing (the last element ended with it).
static int missing_argument(char** argv, char c, const char* optstring, int print_errors) {
  if (print_errors) fprintf(stderr, "%s: option requires an argument -- '%c'\n", argv[0], c);
  g.optopt = c;
  g.nextchar = NULL;
  return optstring[0] == ':' ? ':' : '?';
}

static int getopt_step(int argc, char** argv, const char* optstring, const struct option* longopts,
                           int* longind, int long_only, int posixly_correct) {
  if (argc < 1) return -1;
  optarg = NULL;
  if (optind == 0 || !g.initialized)
    optstring = initialize(optstring, posixly_correct);
  else if (optstring[0] == '-' || optstring[0] == '+')
    ++optstring;
  const int print_errors = opterr && optstring[0] != ':';

  if (g.nextchar == NULL || *g.nextchar == '\0') {
    int result;
    if (next_element(argc, argv, optstring, longopts, longind, long_only, print_errors, &result)) return result;
  }

  // A short option, maybe one of several grouped in one element.
  const char c = *g.nextchar++;
  const char* spec = strchr(optstring, c);
  if (*g.nextchar == '\0') ++optind;
  if (spec == NULL || c == ':' || c == ';') {
    if (print_errors) fprintf(stderr, "%s: invalid option -- '%c'\n", argv[0], c);
    g.optopt = c;
    return '?';
  }
  if (spec[0] == 'W' && spec[1] == ';' && longopts) {
    // -W foo is --foo.
    if (*g.nextchar != '\0') {
      optarg = g.nextchar;
    } else if (optind == argc) {
      return missing_argument(argv, c, optstring, print_errors);
    } else {
      optarg = argv[optind];
    }
    g.nextchar = optarg;
    optarg = NULL;
    return long_option(argc, argv, optstring, longopts, longind, 0, print_errors, "-W ");
  }
  if (spec[1] == ':') {
    if (spec[2] == ':') {  // an optional argument: only in the same element
      if (*g.nextchar != '\0') {
        optarg = g.nextchar;
        ++optind;
      } else {
        optarg = NULL;
      }
    } else if (*g.nextchar != '\0') {
      optarg = g.nextchar;
      ++optind;
    } else if (optind == argc) {
      return missing_argument(argv, c, optstring, print_errors);
    } else {
      optarg = argv[optind++];
    }
    g.nextchar = NULL;
  }
  return c;
}

static int getopt_internal(int argc, char** argv, const char* optstring, const struct option* longopts,
                           int* longind, int long_only, int posixly_correct) {
  const int c = getopt_step(argc, argv, optstring, longopts, longind, long_only, posixly_correct);
  optopt = g.optopt;
  return c;
}

int getopt(int argc, char* const* argv, const char* optstring) {
  return getopt_internal(argc, (char**)argv, optstring, NULL, NULL, 0, 0);
}

// What <unistd.h> names getopt in a program compiled for strict POSIX (no permutation).
int __posix_getopt(int argc, char* const* argv, const char* optstring) {
  return getopt_internal(argc, (char**)argv, optstring, NULL, NULL, 0, 1);
}

int getopt_long(int argc, char* const* argv, const char* optstring, const struct option* longopts, int* longind) {
  return getopt_internal(argc, (char**)argv, optstring, longopts, longind, 0, 0);
}

int getopt_long_only(int argc, char* const* argv, const char* optstring, const struct option* longopts,
                     int* longind) {
  return getopt_internal(argc, (char**)argv, optstring, longopts, longind, 1, 0);
}
