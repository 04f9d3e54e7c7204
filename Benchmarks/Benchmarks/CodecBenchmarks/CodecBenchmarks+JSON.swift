import Benchmark
import BenchmarkSupport
import FleetEngineCodec
import SwiftProtobuf

extension CodecBenchmarks {
    /// JSON printing of one fixture with default options: `json <label>: <implementation>`.
    static func registerJSON<Ours: ProtobufMessage, Theirs: SwiftProtobuf.Message>(
        _ fixture: BenchmarkFixture,
        ours: Ours.Type,
        theirs: Theirs.Type
    ) {
        let configuration = configuration(for: fixture)
        let bytes = fixture.bytes
        let label = fixture.label

        Benchmark(
            "json \(label): FleetEngineCodec jsonUTF8Bytes",
            configuration: configuration,
            closure: { benchmark, message in
                for _ in benchmark.scaledIterations {
                    blackHole(try message.jsonUTF8Bytes())
                }
            },
            setup: { try Ours(serializedBytes: bytes) }
        )
        Benchmark(
            "json \(label): FleetEngineCodec jsonString",
            configuration: configuration,
            closure: { benchmark, message in
                for _ in benchmark.scaledIterations {
                    blackHole(try message.jsonString())
                }
            },
            setup: { try Ours(serializedBytes: bytes) }
        )
        Benchmark(
            "json \(label): swift-protobuf jsonString",
            configuration: configuration,
            closure: { benchmark, message in
                for _ in benchmark.scaledIterations {
                    blackHole(try message.jsonString())
                }
            },
            setup: { try Theirs(serializedBytes: bytes) }
        )
        Benchmark(
            "json \(label): swift-protobuf jsonUTF8Bytes",
            configuration: configuration,
            closure: { benchmark, message in
                for _ in benchmark.scaledIterations {
                    blackHole(try message.jsonUTF8Bytes() as [UInt8])
                }
            },
            setup: { try Theirs(serializedBytes: bytes) }
        )
    }
}
