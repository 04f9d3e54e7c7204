import FleetEngineWire

/// Feeds one stream to fresh deframers cut into pieces in many ways, so a test states the
/// messages a stream holds once and every way of cutting it is checked against them.
///
/// The cuts are the ones an incremental decoder gets wrong: everything at once, one byte at a
/// time, two pieces split at every offset, and pieces of every fixed size up to nine bytes (which
/// put a cut at every position inside the 5-byte prefix).
struct DeframerVerifier {
    /// A name for a cut, shown when an expectation fails.
    struct Cut: CustomStringConvertible {
        var description: String
        var pieces: [ArraySlice<UInt8>]
    }

    var maxMessageSize = GRPCMessageDeframer.defaultMaxMessageSize

    /// Every cut of `stream` this verifier tries.
    static func cuts(of stream: [UInt8]) -> [Cut] {
        var cuts = [Cut(description: "all at once", pieces: [stream[...]])]
        cuts.append(Cut(description: "byte by byte", pieces: stream.indices.map { stream[$0..<($0 + 1)] }))
        for split in 0...stream.count {
            cuts.append(Cut(description: "split at \(split)", pieces: [stream[..<split], stream[split...]]))
        }
        for size in 2...9 where size < stream.count {
            let pieces = stride(from: 0, to: stream.count, by: size).map {
                stream[$0..<min($0 + size, stream.count)]
            }
            cuts.append(Cut(description: "pieces of \(size)", pieces: pieces))
        }
        return cuts
    }

    /// The messages a deframer returns for `cut`, draining after every piece, and the error
    /// ``GRPCMessageDeframer/next()`` or ``GRPCMessageDeframer/finish()`` threw, if any.
    func deframe(_ cut: Cut) -> (messages: [GRPCMessage], error: WireError?) {
        var deframer = GRPCMessageDeframer(maxMessageSize: maxMessageSize)
        var messages: [GRPCMessage] = []
        do {
            for piece in cut.pieces {
                deframer.append(piece)
                while let message = try deframer.next() {
                    messages.append(message)
                }
            }
            try deframer.finish()
            return (messages, nil)
        } catch {
            return (messages, error)
        }
    }
}
