import Benchmark
import BenchmarkSupport
import CRawProtobufC
import FleetEngineCodec
import SwiftProtobuf

extension CodecBenchmarks {
    /// Decode and encode of one fixture by each implementation: `decode <label>: <implementation>`
    /// and `encode <label>: <implementation>`.
    static func registerBinary<Ours: ProtobufMessage, Theirs: SwiftProtobuf.Message>(
        _ fixture: BenchmarkFixture,
        ours: Ours.Type,
        theirs: Theirs.Type,
        kind: raw_message_kind
    ) {
        let configuration = configuration(for: fixture)
        let bytes = fixture.bytes
        let label = fixture.label

        Benchmark("decode \(label): FleetEngineCodec", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try Ours(serializedBytes: bytes))
            }
        }
        Benchmark("decode \(label): swift-protobuf", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try Theirs(serializedBytes: bytes))
            }
        }
        // protobuf-c's own unpack with its default allocator (malloc and free for every
        // sub-message, string and array), then `__free_unpacked`, as a C program would call it.
        Benchmark("decode \(label): protobuf-c", configuration: configuration) { benchmark in
            bytes.withUnsafeBufferPointer { buffer in
                for _ in benchmark.scaledIterations {
                    blackHole(raw_unpack_and_free(kind, buffer.baseAddress, buffer.count))
                }
            }
        }
        // The same unpack into the bump arena FleetEngineCodec uses: the part of our decode that
        // happens in C, so the rest of our time is the copy into Swift values.
        Benchmark("decode \(label): protobuf-c arena", configuration: configuration) { benchmark in
            bytes.withUnsafeBufferPointer { buffer in
                for _ in benchmark.scaledIterations {
                    blackHole(raw_unpack_in_arena(kind, buffer.baseAddress, buffer.count))
                }
            }
        }

        // Decoding the message to encode is setup, outside the measured region.
        Benchmark(
            "encode \(label): FleetEngineCodec",
            configuration: configuration,
            closure: { benchmark, message in
                for _ in benchmark.scaledIterations {
                    blackHole(message.serializedBytes())
                }
            },
            setup: { try Ours(serializedBytes: bytes) }
        )
        Benchmark(
            "encode \(label): swift-protobuf",
            configuration: configuration,
            closure: { benchmark, message in
                for _ in benchmark.scaledIterations {
                    blackHole(try message.serializedBytes() as [UInt8])
                }
            },
            setup: { try Theirs(serializedBytes: bytes) }
        )
        // `__pack` into a buffer allocated once, as a C program that knows its sizes would.
        Benchmark(
            "encode \(label): protobuf-c",
            configuration: configuration,
            closure: { benchmark, message in
                for _ in benchmark.scaledIterations {
                    blackHole(message.packIntoOutput())
                }
            },
            setup: { try RawMessage(kind: kind, bytes: bytes, name: label) }
        )
    }
}
