#include "CMallocCounter.h"

#include <stdatomic.h>
#include <stdbool.h>

static atomic_bool counting = false;
static atomic_llong allocations = 0;

void c_malloc_counter_start(void) { atomic_store(&counting, true); }

void c_malloc_counter_stop(void) { atomic_store(&counting, false); }

void c_malloc_counter_reset(void) { atomic_store(&allocations, 0); }

int64_t c_malloc_counter_count(void) { return (int64_t)atomic_load(&allocations); }

#if defined(__linux__) && defined(__GLIBC__)

#include <errno.h>
#include <stddef.h>

// glibc's allocator under its exported internal names, so the replacements below can reach it
// without dlsym (which itself allocates).
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static inline void count_allocation(void) {
    if (atomic_load_explicit(&counting, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    }
}

void *malloc(size_t size) {
    count_allocation();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    count_allocation();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    if (size != 0) {
        count_allocation();
    }
    return __libc_realloc(pointer, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count_allocation();
    return __libc_memalign(alignment, size);
}

void *memalign(size_t alignment, size_t size) {
    count_allocation();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    // POSIX: a power of two that is a multiple of sizeof(void *), else EINVAL.
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) {
        return EINVAL;
    }
    count_allocation();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) {
        return ENOMEM;
    }
    *result = pointer;
    return 0;
}

#endif
