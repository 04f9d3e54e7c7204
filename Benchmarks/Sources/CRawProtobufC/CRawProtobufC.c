#include "CRawProtobufC.h"

#include <CFleetEngineProtos.h>

// FleetEngineCodec starts its arena on this much stack (BinaryDecoding.initialArenaSize).
#define RAW_ARENA_STACK_SIZE (16 * 1024)

static ProtobufCMessage *unpack_with(
    raw_message_kind kind, ProtobufCAllocator *allocator, const uint8_t *data, size_t length) {
    switch (kind) {
    case RAW_MESSAGE_TRIP:
        return (ProtobufCMessage *)maps__fleetengine__v1__trip__unpack(allocator, length, data);
    case RAW_MESSAGE_SEARCH_TRIPS_RESPONSE:
        return (ProtobufCMessage *)maps__fleetengine__v1__search_trips_response__unpack(allocator, length, data);
    }
    return NULL;
}

// Something the caller can consume that depends on the unpacked message, so that no compiler can
// treat the unpack as dead. Reading one counter costs nothing next to the unpack itself.
static long consume(raw_message_kind kind, const ProtobufCMessage *message) {
    if (message == NULL) {
        return -1;
    }
    switch (kind) {
    case RAW_MESSAGE_TRIP:
        return (long)((const Maps__Fleetengine__V1__Trip *)message)->n_route;
    case RAW_MESSAGE_SEARCH_TRIPS_RESPONSE:
        return (long)((const Maps__Fleetengine__V1__SearchTripsResponse *)message)->n_trips;
    }
    return -1;
}

ProtobufCMessage *raw_unpack(raw_message_kind kind, const uint8_t *data, size_t length) {
    return unpack_with(kind, NULL, data, length);
}

void raw_free(raw_message_kind kind, ProtobufCMessage *message) {
    if (message == NULL) {
        return;
    }
    switch (kind) {
    case RAW_MESSAGE_TRIP:
        maps__fleetengine__v1__trip__free_unpacked((Maps__Fleetengine__V1__Trip *)message, NULL);
        return;
    case RAW_MESSAGE_SEARCH_TRIPS_RESPONSE:
        maps__fleetengine__v1__search_trips_response__free_unpacked(
            (Maps__Fleetengine__V1__SearchTripsResponse *)message, NULL);
        return;
    }
}

long raw_unpack_and_free(raw_message_kind kind, const uint8_t *data, size_t length) {
    ProtobufCMessage *message = raw_unpack(kind, data, length);
    long result = consume(kind, message);
    raw_free(kind, message);
    return result;
}

long raw_unpack_in_arena(raw_message_kind kind, const uint8_t *data, size_t length) {
    _Alignas(FE_ARENA_ALIGNMENT) unsigned char stack[RAW_ARENA_STACK_SIZE];
    fe_arena arena;
    // The same limit as the codec's: 64 times the input plus 1 MiB.
    fe_arena_init(&arena, stack, sizeof stack, 64 * length + 1024 * 1024);
    ProtobufCMessage *message = unpack_with(kind, &arena.allocator, data, length);
    long result = consume(kind, message);
    fe_arena_release(&arena);
    return result;
}

size_t raw_packed_size(raw_message_kind kind, const ProtobufCMessage *message) {
    switch (kind) {
    case RAW_MESSAGE_TRIP:
        return maps__fleetengine__v1__trip__get_packed_size((const Maps__Fleetengine__V1__Trip *)message);
    case RAW_MESSAGE_SEARCH_TRIPS_RESPONSE:
        return maps__fleetengine__v1__search_trips_response__get_packed_size(
            (const Maps__Fleetengine__V1__SearchTripsResponse *)message);
    }
    return 0;
}

size_t raw_pack(raw_message_kind kind, const ProtobufCMessage *message, uint8_t *output) {
    switch (kind) {
    case RAW_MESSAGE_TRIP:
        return maps__fleetengine__v1__trip__pack((const Maps__Fleetengine__V1__Trip *)message, output);
    case RAW_MESSAGE_SEARCH_TRIPS_RESPONSE:
        return maps__fleetengine__v1__search_trips_response__pack(
            (const Maps__Fleetengine__V1__SearchTripsResponse *)message, output);
    }
    return 0;
}
