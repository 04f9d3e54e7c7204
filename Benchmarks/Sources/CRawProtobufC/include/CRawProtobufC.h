// protobuf-c called straight from C on the benchmark fixtures: the baseline that our codec's Swift
// layer adds its cost to. Each function calls the protoc-c generated function of the message kind.
#ifndef C_RAW_PROTOBUF_C_H
#define C_RAW_PROTOBUF_C_H

#include <protobuf-c/protobuf-c.h>
#include <stddef.h>
#include <stdint.h>

/// The messages the benchmarks measure.
typedef enum raw_message_kind {
    RAW_MESSAGE_TRIP = 0,
    RAW_MESSAGE_SEARCH_TRIPS_RESPONSE = 1,
} raw_message_kind;

/// Unpacks with protobuf-c's default allocator (malloc per sub-message, string and array), then
/// frees with `__free_unpacked`. Returns a count read from the message (a trip's route points, a
/// response's trips) for the caller to consume, or -1 when protobuf-c refuses the input.
long raw_unpack_and_free(raw_message_kind kind, const uint8_t *data, size_t length);

/// Unpacks into a bump arena that starts on a 16 KiB stack buffer, the way FleetEngineCodec
/// unpacks, and releases it. Returns as `raw_unpack_and_free` does.
long raw_unpack_in_arena(raw_message_kind kind, const uint8_t *data, size_t length);

/// Unpacks with the default allocator and keeps the message; free it with `raw_free`.
ProtobufCMessage *raw_unpack(raw_message_kind kind, const uint8_t *data, size_t length);

/// Frees a message from `raw_unpack`.
void raw_free(raw_message_kind kind, ProtobufCMessage *message);

/// The packed size of a message from `raw_unpack`.
size_t raw_packed_size(raw_message_kind kind, const ProtobufCMessage *message);

/// Packs a message from `raw_unpack` into `output`, which holds at least `raw_packed_size` bytes.
/// Returns the bytes written.
size_t raw_pack(raw_message_kind kind, const ProtobufCMessage *message, uint8_t *output);

#endif
