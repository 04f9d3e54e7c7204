// A bump allocator for protobuf-c.
//
// protobuf-c calls its allocator once for every sub-message, repeated field and string it
// unpacks. Serving those calls from a few large blocks, and releasing the blocks all at once,
// costs far less than one malloc/free pair per call. The first block is usually memory the
// caller already has (a stack buffer); further blocks come from malloc and are freed by
// `fe_arena_release`. `limit` bounds the bytes handed out, so a hostile message cannot make
// the decoder take unbounded memory: past it, allocation fails and protobuf-c reports failure.
#ifndef C_FLEET_ENGINE_ARENA_H
#define C_FLEET_ENGINE_ARENA_H

#include <protobuf-c/protobuf-c.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct fe_arena_block {
    struct fe_arena_block *next;
} fe_arena_block;

typedef struct fe_arena {
    ProtobufCAllocator allocator;
    unsigned char *cursor;
    unsigned char *end;
    fe_arena_block *blocks;
    size_t handed_out;
    size_t limit;
    int exhausted;
} fe_arena;

#define FE_ARENA_ALIGNMENT 16
#define FE_ARENA_BLOCK_SIZE 65536

static inline void *fe_arena_allocate(void *allocator_data, size_t size) {
    fe_arena *arena = (fe_arena *)allocator_data;
    size_t rounded = (size + (FE_ARENA_ALIGNMENT - 1)) & ~(size_t)(FE_ARENA_ALIGNMENT - 1);
    // Written so that no sum can wrap: `handed_out` never exceeds `limit`, so the subtraction is
    // exact, where `handed_out + rounded` could pass SIZE_MAX and compare as small.
    if (rounded < size || rounded > arena->limit - arena->handed_out) {
        arena->exhausted = 1;
        return NULL;
    }
    if ((size_t)(arena->end - arena->cursor) < rounded) {
        size_t payload = rounded > FE_ARENA_BLOCK_SIZE ? rounded : FE_ARENA_BLOCK_SIZE;
        size_t header = (sizeof(fe_arena_block) + (FE_ARENA_ALIGNMENT - 1)) & ~(size_t)(FE_ARENA_ALIGNMENT - 1);
        // A limit near SIZE_MAX would let `header + payload` wrap and malloc a small block.
        unsigned char *raw = payload > SIZE_MAX - header ? NULL : (unsigned char *)malloc(header + payload);
        if (raw == NULL) {
            arena->exhausted = 1;
            return NULL;
        }
        fe_arena_block *block = (fe_arena_block *)raw;
        block->next = arena->blocks;
        arena->blocks = block;
        arena->cursor = raw + header;
        arena->end = raw + header + payload;
    }
    void *result = arena->cursor;
    arena->cursor += rounded;
    arena->handed_out += rounded;
    return result;
}

// Memory goes back all at once in fe_arena_release; single frees are no-ops.
static inline void fe_arena_free_nothing(void *allocator_data, void *pointer) {
    (void)allocator_data;
    (void)pointer;
}

// `initial` may be NULL (then every block comes from malloc); it must be 16-byte aligned.
static inline void fe_arena_init(fe_arena *arena, void *initial, size_t initial_size, size_t limit) {
    arena->allocator.alloc = fe_arena_allocate;
    arena->allocator.free = fe_arena_free_nothing;
    arena->allocator.allocator_data = arena;
    arena->cursor = (unsigned char *)initial;
    arena->end = initial == NULL ? (unsigned char *)initial : (unsigned char *)initial + initial_size;
    arena->blocks = NULL;
    arena->handed_out = 0;
    arena->limit = limit;
    arena->exhausted = 0;
}

static inline void fe_arena_release(fe_arena *arena) {
    fe_arena_block *block = arena->blocks;
    while (block != NULL) {
        fe_arena_block *next = block->next;
        free(block);
        block = next;
    }
    arena->blocks = NULL;
    arena->cursor = NULL;
    arena->end = NULL;
}

#endif
