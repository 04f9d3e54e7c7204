import ArgumentParser
import FleetEngineCapture
import FleetEngineCodec
import FleetEngineStatus

/// `fleettrips capture`: a packet capture (or raw HTTP/2) of Fleet Engine gRPC traffic in, one JSON
/// line per message and per call end out.
struct CaptureCommand: ParsableCommand {
    /// The command's name and help text.
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract: "Decode captured gRPC traffic (pcap, pcapng, or raw HTTP/2) into one JSON line per message.",
        discussion: """
            Each message line has time, connection (client -> server), stream, direction (request or \
            response), method, type and message (proto3 JSON; without a schema for methods other than \
            TripService's: field numbers, wire types and values); a message that does not decode as its \
            type has type null, its fields without a schema, and "decodingError" saying why. The line that \
            ends a call has its status (code, name, message), when it failed the typed error, "latencyMicros" \
            when both its ends were seen, and "requestMessages" and "responseMessages" (how many messages \
            each way). Problems with the capture (missing \
            bytes, frames that break HTTP/2, header blocks that do not decode, calls left open past \
            --max-open-call-mib, frames given up past --max-partial-frame-mib) are lines with "problem", and \
            decoding goes on after them. A capture that began mid-connection still yields its DATA: the \
            method is inferred from the messages (or taken from --method) and marked "methodInferred". \
            After missing bytes, a call whose header blocks named HPACK table entries from before them \
            is marked "headersUncertain": its method and status are likely right, not certain. A message \
            holding fields its type does not define, which proto3 JSON cannot show, gets a note on standard \
            error saying how many and where.

            TLS: with --keylog-file (an NSS key log, as SSLKEYLOGFILE makes curl, browsers and the other \
            fleettrips commands write it), or with the secrets a pcapng file carries in Decryption Secrets \
            Blocks (editcap --inject-secrets tls,KEYS), TLS 1.3 and TLS 1.2 connections are decrypted and \
            their calls printed as for cleartext ones. A TLS connection without secrets, or whose handshake \
            the capture does not hold, gets a problem line and a note on standard error, and nothing of it \
            is printed. The key log holds secrets: keep it as you keep the traffic it decrypts.
            """
    )

    /// The capture, or the client's bytes with --h2.
    @Argument(help: ArgumentHelp("The capture file; - reads standard input.", valueName: "file"))
    var file: String = "-"

    /// With --h2, the server's bytes.
    @Argument(
        help: ArgumentHelp(
            "With --h2: the server's bytes (the first file is then the client's).", valueName: "server-file"))
    var serverFile: String?

    /// Raw HTTP/2 instead of packets.
    @Flag(
        name: .customLong("h2"), help: "The input is raw HTTP/2: one file per direction, or one with both interleaved.")
    var rawHTTP2 = false

    /// The method of calls whose headers could not be read.
    @Option(
        name: .customLong("method"),
        help: ArgumentHelp(
            "The :path to assume for calls whose header blocks could not be decoded, instead of inferring it.",
            valueName: "path"))
    var assumedMethod: String?

    /// Keep only calls of this method.
    @Option(
        name: .customLong("only-method"),
        help: ArgumentHelp("Keep only calls of this method (a :path, or a name such as GetTrip).", valueName: "method"))
    var onlyMethod: String?

    /// Keep only calls about this trip.
    @Option(help: ArgumentHelp("Keep only calls whose messages carry this trip name or id.", valueName: "name"))
    var trip: String?

    /// Keep only calls that ended with these statuses.
    @Option(
        name: .customLong("status"),
        help: ArgumentHelp(
            "Keep only calls that ended with this status (name or number); repeatable.", valueName: "code"))
    var statuses: [String] = []

    /// Print counts instead of records.
    @Flag(help: "Print one JSON summary instead of the records: calls per method, statuses, latency.")
    var summary = false

    /// Wait for more input at the end.
    @Flag(
        help: ArgumentHelp(
            "At the end of the file, wait for more (a capture still being written, e.g. by tcpdump -w); a pipe "
                + "ends when its writer closes it."))
    var follow = false

    /// With --follow, stop after this long without new bytes.
    @Option(
        name: .customLong("follow-idle-seconds"),
        help: ArgumentHelp("With --follow: stop after this many seconds without new bytes.", valueName: "seconds"))
    var followIdleSeconds: Double?

    /// NSS key logs whose secrets decrypt the capture's TLS connections.
    @Option(
        name: .customLong("keylog-file"),
        help: ArgumentHelp(
            "An NSS key log (what SSLKEYLOGFILE names) whose secrets decrypt the capture's TLS connections; "
                + "repeatable. A pcapng file's Decryption Secrets Blocks are used without it.",
            valueName: "path"))
    var keyLogFiles: [String] = []

    /// The memory the calls left open may hold, in MiB.
    @Option(
        name: .customLong("max-open-call-mib"),
        help: ArgumentHelp(
            "The most memory the calls still open may hold, in MiB (their header fields, unfinished messages "
                + "and about 1 KiB each); past it the oldest open calls are given up, each reported as a problem. (default: 64)",
            valueName: "MiB"))
    var maxOpenCallMiB: Int?

    /// The memory the frames still arriving may hold, in MiB.
    @Option(
        name: .customLong("max-partial-frame-mib"),
        help: ArgumentHelp(
            "The most memory the frames still arriving on all connections of a packet capture may hold, in MiB; "
                + "past it the largest is given up with its call, each reported as a problem. (default: 128)",
            valueName: "MiB"))
    var maxPartialFrameMiB: Int?

    /// No progress line on the terminal.
    @Flag(
        help: ArgumentHelp(
            "Show no progress line. Without it, while standard error is a terminal (and the records do not go to "
                + "the same one), a line there shows the bytes read, of the file's size when known, the messages "
                + "decoded and the rate, and is erased at the end."))
    var noProgress = false

    /// Arguments at their defaults; ArgumentParser sets them while parsing.
    init() {}

    func validate() throws {
        if serverFile != nil, !rawHTTP2 { throw ValidationError("a second file is only read with --h2") }
        // Standard input read for the client's bytes is at its end when the server's are read.
        if serverFile == "-", InputFile(path: file).isStandardInput {
            throw ValidationError(
                "standard input can hold one direction's bytes only; give the other direction as a file")
        }
        // An empty filter would keep the calls with any empty string field (--trip) or none at all.
        if trip?.isEmpty == true { throw ValidationError("--trip needs a trip name or id") }
        if onlyMethod?.isEmpty == true {
            throw ValidationError("--only-method needs a method: a :path or a name such as GetTrip")
        }
        if assumedMethod?.isEmpty == true {
            throw ValidationError("--method needs a :path, such as /maps.fleetengine.v1.TripService/GetTrip")
        }
        // Options that would otherwise be ignored without a word.
        if followIdleSeconds != nil, !follow { throw ValidationError("--follow-idle-seconds needs --follow") }
        if follow, serverFile != nil {
            throw ValidationError("--follow reads one growing file; with two --h2 files, give the finished files")
        }
        if let followIdleSeconds, !(0...86_400).contains(followIdleSeconds) {
            throw ValidationError("--follow-idle-seconds must be a number of seconds from 0 to 86400")
        }
        for status in statuses { _ = try StatusCode.parsingArgument(status) }
        if rawHTTP2, !keyLogFiles.isEmpty {
            throw ValidationError("--keylog-file decrypts TLS in packet captures; --h2 input is HTTP/2 already")
        }
        if keyLogFiles.contains(where: \.isEmpty) { throw ValidationError("--keylog-file needs a path") }
        if keyLogFiles.contains("-"), InputFile(path: file).isStandardInput {
            throw ValidationError("the capture is read from standard input; give --keylog-file as a file")
        }
        if let maxOpenCallMiB, !(1...(1 << 20)).contains(maxOpenCallMiB) {
            throw ValidationError("--max-open-call-mib must be between 1 and 1048576")
        }
        if let maxPartialFrameMiB, !(1...(1 << 20)).contains(maxPartialFrameMiB) {
            throw ValidationError("--max-partial-frame-mib must be between 1 and 1048576")
        }
    }

    /// Decodes the input as the arguments say and writes the lines to `output`, and to standard
    /// error the notes of ``run(output:notices:)``.
    func run(output: inout some ByteSink) throws {
        var notices = StandardError()
        try run(output: &output, notices: &notices)
    }

    /// Decodes the input as the arguments say and writes the lines to `output`; a message that
    /// holds fields its schema does not define, which its JSON cannot show, gets a `note:` line on
    /// `notices`, as `fleettrips decode` writes. With `progress`, it is kept up to date and erased
    /// before each note and once decoding ends, before the last lines and the summary are written.
    func run(output: inout some ByteSink, notices: inout some ByteSink, progress: CaptureProgress? = nil) throws {
        var options = CaptureOptions(methodOverride: assumedMethod)
        if let maxOpenCallMiB { options.maxOpenCallBytes = maxOpenCallMiB << 20 }
        if let maxPartialFrameMiB { options.maxPartialFrameBytes = maxPartialFrameMiB << 20 }
        options.tlsKeyLog = try readKeyLogs()
        // Each status as the filter compares it: the canonical name, or the number of a code
        // without one (any spelling `fleettrips status` takes, checked in validate()).
        let codes = try statuses.map { try StatusCode.parsingArgument($0) }
        var filter = CaptureFilter(
            method: onlyMethod, trip: trip, statuses: Set(codes.map { $0.name ?? String($0.rawValue) }))
        var counts = CaptureSummary()
        let renderer = PipelinedLineRenderer()
        func emit(_ records: [CaptureRecord]) throws {
            progress?.decoded(records)
            let kept = filter.filter(records)
            if summary {
                counts.add(kept)
            } else {
                try renderer.submit(kept) { try output.write($0) }
                for record in kept {
                    if let notice = Self.unknownFieldsNotice(record) {
                        progress?.clear()
                        try notices.write(notice)
                    }
                }
            }
            for record in kept {
                if let notice = Self.tlsNotice(record) { try notices.write(notice) }
            }
        }
        do {
            try decode(options: options, progress: progress, emit: emit)
        } catch {
            progress?.finish()
            // What was decoded before the damage is written first, then the error says what and
            // where (tcpdump and tshark do the same with a capture cut short).
            try renderer.finish { try output.write($0) }
            if summary { try output.write(counts.jsonLine) }
            throw error
        }
        progress?.finish()
        try renderer.finish { try output.write($0) }
        if summary { try output.write(counts.jsonLine) }
    }

    /// Decodes the input as the arguments say, handing each batch of records to `emit`.
    private func decode(
        options: CaptureOptions, progress: CaptureProgress?, emit: ([CaptureRecord]) throws -> Void
    ) throws {
        let idle = followIdleSeconds.map { Duration.seconds($0) }
        if rawHTTP2 {
            var decoder = HTTP2StreamDecoder(options: options)
            if let serverFile {
                for (path, fromClient) in [(file, true), (serverFile, false)] {
                    var offset: Int64 = 0
                    try InputFile(path: path).readChunks { chunk in
                        progress?.read(chunk.count)
                        try emit(decoder.receive(chunk, fromClient: fromClient, byteOffset: offset))
                        offset += Int64(chunk.count)
                    }
                }
            } else {
                var offset: Int64 = 0
                try InputFile(path: file).readChunks(follow: follow, idleLimit: idle) { chunk in
                    progress?.read(chunk.count)
                    try emit(decoder.receiveInterleaved(chunk, byteOffset: offset))
                    offset += Int64(chunk.count)
                }
            }
            try emit(decoder.finish())
        } else {
            var decoder = CaptureDecoder(options: options)
            try InputFile(path: file).readChunks(follow: follow, idleLimit: idle) { chunk in
                progress?.read(chunk.count)
                try emit(decoder.decode(chunk))
            }
            try emit(decoder.finish())
        }
    }

    /// The key logs of `--keylog-file`, merged.
    private func readKeyLogs() throws -> TLSKeyLog {
        var keyLog = TLSKeyLog()
        for path in keyLogFiles {
            // A key log is a text file of a few lines per connection; 256 MiB is far past any real one.
            let limit = 256 << 20
            let bytes = try InputFile(path: path).readAll(atMost: limit)
            guard bytes.count <= limit else {
                throw ValidationError("--keylog-file \(path) is over 256 MiB: it is not a key log")
            }
            keyLog.merge(try TLSKeyLog(parsing: bytes, source: path))
        }
        return keyLog
    }

    /// The note on standard error for a TLS connection that was not decrypted, or a key log that
    /// matched no connection; nil for any other record.
    static func tlsNotice(_ record: CaptureRecord) -> [UInt8]? {
        guard case .problem(let problem) = record else { return nil }
        let advice: String
        switch problem.error.code {
        case .tlsKeyMissing:
            advice = ", with --keylog-file KEYS"
        case .tlsHandshakeMissing:
            advice = "; a key log cannot help here: capture the connection from its start"
        case .keyLogUnused:
            advice = "; check that --keylog-file names the key log written while this capture was taken"
        default:
            return nil
        }
        // The message can quote the capture (a server name, a protocol): escaped for the terminal.
        return Array("note: \(TerminalText.escaped(problem.error.message))\(advice)\n".utf8)
    }

    /// The note for a message decoded with its schema that holds fields the schema does not define,
    /// with their byte offsets in the message; nil for any other record.
    static func unknownFieldsNotice(_ record: CaptureRecord) -> [UInt8]? {
        // Checked on the decoded message first: scanning every payload again cost more than decoding it.
        guard case .message(let captured) = record, let message = captured.message, message.containsUnknownFields
        else { return nil }
        let type = Swift.type(of: message)
        // The payload decoded with this schema, so its structure scans.
        guard let unknown = try? type.unknownFieldLocations(in: captured.payload), !unknown.isEmpty else {
            return nil
        }
        let context =
            "the \(captured.direction.rawValue) message of stream \(captured.streamID) on connection "
            + "\(captured.connection.id) (DATA frame at byte \(captured.byteOffset) of the input)"
        return Array(MessageDecoder.notice(unknown, context: context, type: type.protoMessageName).utf8)
    }

    /// Runs the command, writing to standard output, with progress on standard error when it is a
    /// terminal (``CaptureProgress/standardError(for:)``).
    func run() throws {
        var output = StandardOutput()
        var notices = StandardError()
        try run(output: &output, notices: &notices, progress: CaptureProgress.standardError(for: self))
    }
}
