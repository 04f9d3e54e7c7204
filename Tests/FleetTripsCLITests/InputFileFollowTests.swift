import Dispatch
import Testing

@testable import FleetTripsCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Reading input with --follow")
struct InputFileFollowTests {
    /// What `readChunks(follow: true)` read from a path, once it returned, or nil while it is still
    /// waiting for more after `patience` (so that a read that never ends fails the test instead of
    /// hanging it).
    static func followed(
        _ path: String, idleLimit: Duration? = nil, patience: DispatchTimeInterval = .seconds(120)
    ) -> [UInt8]? {
        final class Outcome: @unchecked Sendable {
            // @unchecked: written by the reading thread before `done` is signalled, read after.
            var bytes: [UInt8] = []
            let done = DispatchSemaphore(value: 0)
        }
        let outcome = Outcome()
        DispatchQueue.global().async {
            var bytes: [UInt8] = []
            try? InputFile(path: path).readChunks(follow: true, idleLimit: idleLimit) { bytes += $0 }
            outcome.bytes = bytes
            outcome.done.signal()
        }
        guard outcome.done.wait(timeout: .now() + patience) == .success else { return nil }
        return outcome.bytes
    }

    @Test("--follow ends at the end of a pipe whose writer closed it, since a pipe can never grow again")
    func pipeEndsFollowing() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let bytes: [UInt8] = Array("a capture that a finished writer left in the pipe".utf8)
        let written = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
        close(ends[1])
        #expect(written == bytes.count)
        #expect(Self.followed("/dev/fd/\(ends[0])") == bytes)
    }

    @Test("--follow-idle-seconds ends following a pipe whose writer is still there but sends nothing")
    func idlePipeEndsFollowing() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer {
            close(ends[1])
            close(ends[0])
        }
        let bytes: [UInt8] = Array("the start of a capture from a writer that then goes quiet".utf8)
        let written = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
        #expect(written == bytes.count)
        // The writer (ends[1]) stays open: only the idle limit can end the read.
        #expect(Self.followed("/dev/fd/\(ends[0])", idleLimit: .milliseconds(200), patience: .seconds(60)) == bytes)
    }
}
