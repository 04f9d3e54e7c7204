import FoundationEssentials

/// Decrypts one TLS connection of a capture: reads both directions' records, follows the
/// handshake in the clear as far as the ServerHello (randoms, suite, version), takes the
/// connection's secrets from the key log by its client random, and from then on opens every
/// protected record, handing on the application data of each direction in order.
///
/// TLS 1.3 (RFC 8446): the handshake records are opened with the handshake traffic secrets (for
/// ALPN in EncryptedExtensions and to see each side's Finished), application data with the first
/// traffic secrets, and a KeyUpdate moves its sender to the next secret; ChangeCipherSpec records
/// sent for middlebox compatibility are passed over; a resumed (PSK) session needs nothing more,
/// since the key log names each connection's own secrets. Without the handshake secrets, records
/// are tried with the traffic secret until one opens. TLS 1.2 (RFC 5246): the master secret gives
/// the key block, and each direction is protected from its ChangeCipherSpec on.
///
/// What it cannot decrypt it says once and passes over: a connection whose handshake the capture
/// does not hold, one with no secrets in the key log, a suite it does not know. A record that does
/// not open stops its direction (the ones after it cannot be trusted to line up), as do missing
/// bytes, which take the sequence numbers of the records after them with them.
struct TLSConnectionDecoder: Sendable {
    /// What the records of the bytes given so far amounted to.
    enum Event: Sendable {
        /// Application data, in order, from one side.
        case plaintext([UInt8], fromClient: Bool)
        /// Something decoding went on past, on the connection (its message names no connection).
        case problem(CaptureError.Code, String)
        /// The connection cannot be decrypted; nothing more of it is read.
        case passOver(CaptureError.Code, String)
    }

    private struct Direction: Sendable {
        var records = TLSRecordReader()
        var handshake = TLSHandshakeReassembler()
        /// What opens the direction's next records.
        var decryptor: TLSRecordDecryptor?
        /// TLS 1.3: what will open its application data, once its Finished is seen.
        var trafficDecryptor: TLSRecordDecryptor?
        /// Whether its records are protected now.
        var isProtected = false
        /// TLS 1.3: whether its records are still the handshake's.
        var isInHandshake = true
        /// TLS 1.3 without handshake secrets: how many records in a row did not open with the
        /// traffic secret (handshake records, taken as such up to a limit).
        var unopenedHandshakeRecords = 0
        /// Whether it is no longer read.
        var isStopped = false
    }

    private var client = Direction()
    private var server = Direction()
    /// The client random of the ClientHello, which names the connection in the key log.
    private(set) var clientRandom: [UInt8]?
    /// The suite the ServerHello chose.
    private(set) var suite: TLSCipherSuite?
    /// The protocol ALPN chose, when the handshake said.
    private(set) var alpn: String?
    /// Whether the key log held secrets for the connection.
    private(set) var foundKeys = false
    /// Whether nothing more of the connection is read.
    private(set) var isPassedOver = false
    private var deliveredApplicationData = false
    /// How many bytes the `receive` call under way was given and held from before: at most what
    /// their records' plaintext takes.
    private var receivedByteCount = 0
    /// Whether the ClientHello offered early_data: the client's 0-RTT records may follow it.
    private var clientOffersEarlyData = false
    /// Whether the client's early data was reported.
    private var reportedEarlyData = false

    /// How many handshake records in a row may fail to open with the traffic secret before that
    /// secret is taken for a wrong one: a server's handshake flight is at most a few records.
    private static let maxUnopenedHandshakeRecords = 32

    /// What the record readers hold until their records are whole.
    var bufferedByteCount: Int { client.records.bufferedByteCount + server.records.bufferedByteCount }

    /// Reads the bytes one side sent.
    mutating func receive(
        _ bytes: ArraySlice<UInt8>, fromClient: Bool, keyLog: TLSKeyLog, into events: inout [Event]
    ) {
        guard !isPassedOver else { return }
        var direction = fromClient ? client : server
        if fromClient { client = Direction() } else { server = Direction() }
        defer {
            if fromClient { client = direction } else { server = direction }
        }
        guard !direction.isStopped else { return }
        var reader = direction.records
        direction.records = TLSRecordReader()
        receivedByteCount = bytes.count + reader.bufferedByteCount
        do throws(TLSRecordReader.Malformed) {
            try reader.read(bytes) { header, fragment, number in
                guard !isPassedOver, !direction.isStopped else { return }
                handle(
                    header: header, fragment: fragment, number: number, direction: &direction,
                    fromClient: fromClient, keyLog: keyLog, into: &events)
            }
        } catch {
            direction.isStopped = true
            events.append(
                .problem(
                    .malformedTLSRecord,
                    "\(Self.side(fromClient)) record \(reader.recordCount + 1): \(error.message); the rest of what "
                        + "\(Self.side(fromClient, possessive: false)) sent is passed over"))
        }
        direction.records = reader
    }

    /// Bytes one side sent are missing from the capture: the records after them cannot be opened
    /// (their sequence numbers, and where they start, are lost), so that side is read no further.
    mutating func lostBytes(_ length: Int64, fromClient: Bool, into events: inout [Event]) {
        guard !isPassedOver else { return }
        var direction = fromClient ? client : server
        guard !direction.isStopped else { return }
        direction.isStopped = true
        direction.records.reset()
        if fromClient { client = direction } else { server = direction }
        events.append(
            .problem(
                .truncatedCapture,
                "\(length) bytes \(Self.side(fromClient, possessive: false)) sent are missing from the capture; "
                    + "the TLS records after them cannot be decrypted and are skipped"))
    }

    /// The connection ended. A side read without handshake secrets whose traffic secret opened
    /// none of its protected records is reported: they may all have been handshake records, but a
    /// traffic secret that is not the connection's looks the same, and would otherwise leave the
    /// side's application data out without a word (the limit on such records is not reached by a
    /// short connection).
    mutating func finish(into events: inout [Event]) {
        guard !isPassedOver else { return }
        for fromClient in [true, false] {
            let direction = fromClient ? client : server
            guard !direction.isStopped, direction.isInHandshake, direction.decryptor == nil,
                direction.trafficDecryptor != nil, direction.unopenedHandshakeRecords > 0
            else { continue }
            events.append(
                .problem(
                    .tlsDecryptionFailed,
                    "none of the \(direction.unopenedHandshakeRecords) protected records "
                        + "\(Self.side(fromClient, possessive: false)) sent opens with its traffic secret from the key "
                        + "log (no handshake secret was given): they were all handshake records, or the secret is not "
                        + "this connection's"))
        }
    }

    // MARK: Records

    private mutating func handle(
        header: ArraySlice<UInt8>, fragment: ArraySlice<UInt8>, number: Int, direction: inout Direction,
        fromClient: Bool, keyLog: TLSKeyLog, into events: inout [Event]
    ) {
        let contentType = header[header.startIndex]
        if clientRandom == nil, !(fromClient && contentType == Self.handshake) {
            passOver(
                .tlsHandshakeMissing,
                "the capture does not hold the TLS handshake (it began after the ClientHello), so the connection's "
                    + "secrets cannot be found in a key log, and its records are passed over", into: &events)
            return
        }
        if !direction.isProtected {
            switch contentType {
            case Self.handshake:
                readHandshake(
                    fragment, number: number, direction: &direction, fromClient: fromClient, keyLog: keyLog,
                    into: &events)
            case Self.changeCipherSpec:
                // TLS 1.2: the sender's records are protected from here on (RFC 5246 section 7.1).
                if let suite, !suite.isTLS13, direction.decryptor != nil { direction.isProtected = true }
            case Self.applicationData where fromClient && clientOffersEarlyData && suite == nil:
                // RFC 8446 section 4.2.10: 0-RTT data, sent before the server answered.
                skipEarlyData(number: number, into: &events)
            case Self.applicationData:
                passOver(
                    .malformedTLSRecord,
                    "\(Self.side(fromClient)) record \(number) is application data before the handshake protected "
                        + "it; the connection is passed over", into: &events)
            default:
                break  // An alert in the clear: the handshake failed, and nothing protected follows.
            }
            return
        }
        guard let suite else { return }
        if suite.isTLS13 {
            // RFC 8446 section 5: ChangeCipherSpec (compatibility mode) and alerts in the clear
            // are not protected records.
            guard contentType == Self.applicationData else { return }
            openTLS13(
                header: header, fragment: fragment, number: number, direction: &direction, fromClient: fromClient,
                into: &events)
        } else {
            guard
                let opened = open(
                    header: header, fragment: fragment, number: number, direction: &direction, fromClient: fromClient,
                    into: &events)
            else { return }
            if opened.contentType == Self.applicationData {
                deliver(opened.plaintext, fromClient: fromClient, into: &events)
            }
        }
    }

    private mutating func openTLS13(
        header: ArraySlice<UInt8>, fragment: ArraySlice<UInt8>, number: Int, direction: inout Direction,
        fromClient: Bool, into events: inout [Event]
    ) {
        if direction.isInHandshake, direction.decryptor == nil {
            // No handshake secret: a record that opens with the traffic secret ends the handshake.
            guard var traffic = direction.trafficDecryptor else {
                // Neither secret of this side is in the key log (or of this suite's length).
                stop(
                    &direction, fromClient: fromClient, code: .tlsKeyMissing,
                    "the key log holds no \(fromClient ? "CLIENT" : "SERVER")_TRAFFIC_SECRET_0 of "
                        + "\(suite?.hash.length ?? 0) bytes for the connection (its \(suite?.name ?? "") records "
                        + "need one), so \(Self.side(fromClient, possessive: false))'s records cannot be decrypted",
                    into: &events)
                return
            }
            guard let opened = try? traffic.open(header: header, fragment: fragment) else {
                direction.unopenedHandshakeRecords += 1
                if direction.unopenedHandshakeRecords > Self.maxUnopenedHandshakeRecords {
                    stop(
                        &direction, fromClient: fromClient, code: .tlsDecryptionFailed,
                        "\(Self.side(fromClient)) first \(direction.unopenedHandshakeRecords) protected records do "
                            + "not open with its traffic secret from the key log (no handshake secret was given); "
                            + "the secret is not this connection's, and the rest is passed over", into: &events)
                }
                return
            }
            direction.isInHandshake = false
            direction.decryptor = traffic
            direction.trafficDecryptor = nil
            received(opened, direction: &direction, fromClient: fromClient, into: &events)
            return
        }
        if fromClient, clientOffersEarlyData, direction.isInHandshake, var handshake = direction.decryptor {
            // RFC 8446 section 4.2.10: the client's 0-RTT records and its EndOfEarlyData are
            // protected with the early traffic secret, which the decoder does not use. As a server
            // that skips early data does, records that do not open with the handshake key are
            // passed over until one does (up to a limit: past it, the key is taken for a wrong one).
            if let opened = try? handshake.open(header: header, fragment: fragment) {
                direction.decryptor = handshake
                received(opened, direction: &direction, fromClient: fromClient, into: &events)
                return
            }
            if direction.unopenedHandshakeRecords < Self.maxUnopenedHandshakeRecords {
                direction.unopenedHandshakeRecords += 1
                skipEarlyData(number: number, into: &events)
                return
            }
        }
        guard
            let opened = open(
                header: header, fragment: fragment, number: number, direction: &direction, fromClient: fromClient,
                into: &events)
        else { return }
        received(opened, direction: &direction, fromClient: fromClient, into: &events)
    }

    /// What an opened TLS 1.3 record carried.
    private mutating func received(
        _ opened: (contentType: UInt8, plaintext: Data), direction: inout Direction, fromClient: Bool,
        into events: inout [Event]
    ) {
        switch opened.contentType {
        case Self.applicationData:
            deliver(opened.plaintext, fromClient: fromClient, into: &events)
        case Self.handshake:
            let messages: [TLSHandshakeMessage]
            do throws(TLSHandshakeMessage.Malformed) {
                messages = try direction.handshake.append([UInt8](opened.plaintext)[...])
            } catch {
                stop(
                    &direction, fromClient: fromClient, code: .malformedTLSRecord,
                    "\(Self.side(fromClient)) protected handshake: \(error.message)", into: &events)
                return
            }
            for message in messages {
                switch message {
                case .encryptedExtensions(let alpn) where !fromClient:
                    self.alpn = alpn
                case .finished where direction.isInHandshake:
                    direction.isInHandshake = false
                    direction.decryptor = direction.trafficDecryptor
                    direction.trafficDecryptor = nil
                    if direction.decryptor == nil {
                        stop(
                            &direction, fromClient: fromClient, code: .tlsKeyMissing,
                            "the key log holds no \(fromClient ? "CLIENT" : "SERVER")_TRAFFIC_SECRET_0 for the "
                                + "connection, so \(Self.side(fromClient, possessive: false))'s application data "
                                + "cannot be decrypted", into: &events)
                    }
                case .keyUpdate where !direction.isInHandshake:
                    direction.decryptor?.updateKeys()
                default:
                    break
                }
            }
        default:
            break  // Alerts: close_notify, or the end of a failed connection.
        }
    }

    /// Opens the next record of a direction, or reports why it did not open and stops the direction.
    private mutating func open(
        header: ArraySlice<UInt8>, fragment: ArraySlice<UInt8>, number: Int,
        direction: inout Direction, fromClient: Bool, into events: inout [Event]
    ) -> (contentType: UInt8, plaintext: Data)? {
        guard var opener = direction.decryptor else { return nil }
        direction.decryptor = nil
        do throws(TLSRecordDecryptor.Failure) {
            let opened = try opener.open(header: header, fragment: fragment)
            direction.decryptor = opener
            return opened
        } catch {
            let reason =
                switch error {
                case .tooShort(let length):
                    "it carries \(length) bytes, too few for the \(opener.suite.name) nonce and tag"
                case .authenticationFailed:
                    "its authentication tag does not match (a key log entry that is not this connection's, or "
                        + "damaged bytes)"
                case .noContentType: "its plaintext is all padding, with no content type"
                }
            stop(
                &direction, fromClient: fromClient, code: .tlsDecryptionFailed,
                "\(Self.side(fromClient)) record \(number) (sequence number \(opener.sequenceNumber), "
                    + "\(opener.suite.name)) does not decrypt: \(reason); the records after it from "
                    + "\(Self.side(fromClient, possessive: false)) are passed over", into: &events)
            return nil
        }
    }

    // MARK: Handshake in the clear

    private mutating func readHandshake(
        _ fragment: ArraySlice<UInt8>, number: Int, direction: inout Direction, fromClient: Bool, keyLog: TLSKeyLog,
        into events: inout [Event]
    ) {
        let messages: [TLSHandshakeMessage]
        do throws(TLSHandshakeMessage.Malformed) {
            messages = try direction.handshake.append(fragment)
        } catch {
            passOver(.malformedTLSRecord, "\(Self.side(fromClient)) record \(number): \(error.message)", into: &events)
            return
        }
        for message in messages {
            switch message {
            case .clientHello(let random, let offersEarlyData) where fromClient:
                // After a HelloRetryRequest the second ClientHello keeps the first one's random.
                if clientRandom == nil {
                    clientRandom = random
                    clientOffersEarlyData = offersEarlyData
                }
            case .serverHello(let hello) where !fromClient && !hello.isHelloRetryRequest:
                start(hello, server: &direction, keyLog: keyLog, into: &events)
                if isPassedOver { return }
            default:
                break
            }
        }
        // A ClientHello may span records (RFC 8446 section 5.1): while one is unfinished, wait.
        if clientRandom == nil, !direction.handshake.isHoldingPartialMessage {
            passOver(
                .tlsHandshakeMissing,
                "the client's first TLS record holds no ClientHello, so the connection's secrets cannot be found "
                    + "in a key log; its records are passed over", into: &events)
        }
    }

    /// Sets up decryption as the ServerHello says, with the secrets the key log has for the
    /// connection. `server` is the server's direction, which ``receive(_:fromClient:keyLog:into:)``
    /// holds while it reads the ServerHello: what is set up for the server goes there, or it would
    /// be overwritten when that direction is put back.
    private mutating func start(
        _ hello: TLSHandshakeMessage.ServerHello, server: inout Direction, keyLog: TLSKeyLog, into events: inout [Event]
    ) {
        guard let clientRandom else { return }
        guard hello.version == 0x0303 || hello.version == 0x0304,
            let suite = TLSCipherSuite.named(hello.cipherSuite), suite.isTLS13 == (hello.version == 0x0304)
        else {
            passOver(
                .tlsUnsupported,
                "the server chose \(Self.versionName(hello.version)) with cipher suite "
                    + "\(PcapFormat.hex(hello.cipherSuite)), which the decoder does not decrypt (it reads TLS 1.3's "
                    + "AES-GCM and ChaCha20-Poly1305 suites and TLS 1.2's ECDHE suites with them)", into: &events)
            return
        }
        self.suite = suite
        alpn = hello.alpn
        let secrets = keyLog.secrets(forClientRandom: clientRandom)
        let missing =
            "the key log holds no secrets for the TLS connection (client random "
            + "\(TLSHex.string(clientRandom))), so its \(suite.name) records cannot be decrypted and are passed "
            + "over; give the key log its client wrote (SSLKEYLOGFILE)"
        if suite.isTLS13 {
            guard let secrets, secrets.clientTrafficSecret0 != nil || secrets.serverTrafficSecret0 != nil else {
                passOver(.tlsKeyMissing, missing, into: &events)
                return
            }
            foundKeys = true
            func decryptor(_ secret: [UInt8]?) -> TLSRecordDecryptor? {
                guard let secret, secret.count == suite.hash.length else { return nil }
                return TLSRecordDecryptor(tls13: suite, trafficSecret: secret)
            }
            client.decryptor = decryptor(secrets.clientHandshakeTrafficSecret)
            client.trafficDecryptor = decryptor(secrets.clientTrafficSecret0)
            server.decryptor = decryptor(secrets.serverHandshakeTrafficSecret)
            server.trafficDecryptor = decryptor(secrets.serverTrafficSecret0)
            // RFC 8446 section 2: everything after the ServerHello is protected, both ways.
            client.isProtected = true
            server.isProtected = true
        } else {
            guard let masterSecret = secrets?.masterSecret else {
                passOver(.tlsKeyMissing, missing, into: &events)
                return
            }
            foundKeys = true
            let keys = TLSKeySchedule.tls12Keys(
                suite, masterSecret: masterSecret, clientRandom: clientRandom, serverRandom: hello.random)
            client.decryptor = TLSRecordDecryptor(tls12: suite, key: keys.clientKey, iv: keys.clientIV)
            server.decryptor = TLSRecordDecryptor(tls12: suite, key: keys.serverKey, iv: keys.serverIV)
        }
    }

    // MARK: Helpers

    /// Hands on a record's application data. What the records of one `receive` call carry becomes
    /// one ``Event/plaintext(_:fromClient:)``, as the bytes of a segment in the clear would: the
    /// HTTP/2 reader then meets frames cut by record boundaries no more often than by segments.
    private mutating func deliver(_ plaintext: Data, fromClient: Bool, into events: inout [Event]) {
        if !deliveredApplicationData {
            deliveredApplicationData = true
            if let alpn, alpn != "h2" {
                passOver(
                    .notHTTP2,
                    "ALPN chose \"\(alpn)\", not \"h2\": the TLS connection does not carry HTTP/2, and its "
                        + "records are passed over", into: &events)
                return
            }
        }
        guard !plaintext.isEmpty else { return }
        var merged: [UInt8]
        if case .plaintext(_, fromClient)? = events.last, case .plaintext(let earlier, _) = events.removeLast() {
            merged = earlier
        } else {
            merged = []
            merged.reserveCapacity(max(plaintext.count, receivedByteCount))
        }
        plaintext.withUnsafeBytes { merged.append(contentsOf: $0.assumingMemoryBound(to: UInt8.self)) }
        events.append(.plaintext(merged, fromClient: fromClient))
    }

    /// Passes over a record of the client's 0-RTT early data, saying so once.
    private mutating func skipEarlyData(number: Int, into events: inout [Event]) {
        guard !reportedEarlyData else { return }
        reportedEarlyData = true
        events.append(
            .problem(
                .tlsUnsupported,
                "the client's record \(number) is 0-RTT early data, which the decoder does not decrypt (it reads a "
                    + "connection from its handshake on); the client's early data is passed over"))
    }

    private mutating func stop(
        _ direction: inout Direction, fromClient: Bool, code: CaptureError.Code, _ message: String,
        into events: inout [Event]
    ) {
        direction.isStopped = true
        direction.decryptor = nil
        direction.trafficDecryptor = nil
        events.append(.problem(code, message))
    }

    private mutating func passOver(_ code: CaptureError.Code, _ message: String, into events: inout [Event]) {
        guard !isPassedOver else { return }
        isPassedOver = true
        client = Direction()
        server = Direction()
        events.append(.passOver(code, message))
    }

    private static func side(_ fromClient: Bool, possessive: Bool = true) -> String {
        switch (fromClient, possessive) {
        case (true, true): "the client's"
        case (false, true): "the server's"
        case (true, false): "the client"
        case (false, false): "the server"
        }
    }

    private static func versionName(_ version: UInt16) -> String {
        switch version {
        case 0x0301: "TLS 1.0"
        case 0x0302: "TLS 1.1"
        case 0x0303: "TLS 1.2"
        case 0x0304: "TLS 1.3"
        default: "version \(PcapFormat.hex(version))"
        }
    }

    private static let changeCipherSpec: UInt8 = 20
    private static let handshake: UInt8 = 22
    private static let applicationData: UInt8 = 23
}
