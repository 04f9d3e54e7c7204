#ifndef C_MALLOC_COUNTER_H
#define C_MALLOC_COUNTER_H

#include <stdint.h>

// Counts the allocations of the whole process (every thread) while counting is on. Linking this
// target into an executable replaces malloc, calloc, realloc, aligned_alloc, memalign and
// posix_memalign for every library the process loads, as ELF symbol lookup finds the
// executable's definitions first; each forwards to glibc's own (__libc_malloc and friends).
// Counting costs one relaxed load per allocation when off and one relaxed atomic add when on.
// A realloc to a non-zero size counts as an allocation, as ordo-one/benchmark's interposer
// counts it. Elsewhere than Linux with glibc nothing is replaced and nothing is counted.

// Starts counting (from the current count; see c_malloc_counter_reset).
void c_malloc_counter_start(void);
// Stops counting; the count stays readable.
void c_malloc_counter_stop(void);
// Sets the count to zero.
void c_malloc_counter_reset(void);
// The allocations counted so far.
int64_t c_malloc_counter_count(void);

#endif
