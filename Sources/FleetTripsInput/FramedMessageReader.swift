package import FleetEngineWire

/// Reads a stream of gRPC length-prefixed messages handed over in pieces of any size, and hands
/// each message's payload on as soon as it is complete: a stream of any length goes through in
/// the memory of one message.
package struct FramedMessageReader {
    private var text: BinaryTextReader
    private var deframer: GRPCMessageDeframer
    /// Messages read so far.
    private(set) var messageCount = 0

    /// A reader of a stream in `form`, of messages of at most `maxMessageSize` bytes (before and
    /// after decompression) compressed with `encoding`.
    package init(form: BinaryForm, maxMessageSize: Int, encoding: MessageEncoding) {
        text = BinaryTextReader(form: form)
        deframer = GRPCMessageDeframer(maxMessageSize: maxMessageSize, encoding: encoding)
    }

    /// Takes the next piece of the stream and calls `body` with each message it completes: its
    /// payload, its number (from 1) and the stream offset of its frame. When the piece holds bad
    /// text, the messages wholly before the fault are handed on before the error is thrown.
    ///
    /// - Throws: ``FleetTripsError/Code/invalidInputText`` for bad base64 or hex,
    ///   ``FleetTripsError/Code/invalidFraming`` for a frame that cannot be read, and what `body`
    ///   throws.
    package mutating func read(
        _ piece: ArraySlice<UInt8>,
        _ body: (_ payload: [UInt8], _ number: Int, _ offset: Int) throws(FleetTripsError) -> Void
    ) throws(FleetTripsError) {
        var bytes: [UInt8] = []
        do {
            try text.decode(piece, into: &bytes)
        } catch {
            // The messages wholly before the fault are still printed.
            deframer.append(bytes)
            try deliverMessages(body)
            throw error
        }
        deframer.append(bytes)
        try deliverMessages(body)
    }

    /// Ends the stream: calls `body` with the messages the last of the text completes, then
    /// checks that the stream does not end inside a frame.
    ///
    /// - Throws: as ``read(_:_:)``, and ``FleetTripsError/Code/invalidFraming`` for a stream that
    ///   ends inside a frame.
    package mutating func finish(
        _ body: (_ payload: [UInt8], _ number: Int, _ offset: Int) throws(FleetTripsError) -> Void
    ) throws(FleetTripsError) {
        var bytes: [UInt8] = []
        try text.finish(into: &bytes)
        deframer.append(bytes)
        try deliverMessages(body)
        do {
            try deframer.finish()
        } catch {
            throw Self.framingFailure(error, message: messageCount + 1)
        }
    }

    private mutating func deliverMessages(
        _ body: (_ payload: [UInt8], _ number: Int, _ offset: Int) throws(FleetTripsError) -> Void
    ) throws(FleetTripsError) {
        while true {
            let offset = deframer.nextMessageOffset
            let payload: [UInt8]?
            do {
                payload = try deframer.nextPayload()
            } catch {
                throw Self.framingFailure(error, message: messageCount + 1)
            }
            guard let payload else { return }
            messageCount += 1
            try body(payload, messageCount, offset)
        }
    }

    private static func framingFailure(_ error: WireError, message number: Int) -> FleetTripsError {
        var text = "cannot read message \(number) of the gRPC stream"
        if error.code == .compressedWithoutEncoding {
            text += " (pass --encoding gzip or --encoding deflate for compressed messages)"
        }
        return FleetTripsError(code: .invalidFraming, message: text, cause: error)
    }
}
