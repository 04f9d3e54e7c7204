import CLibFuzzer
import CaptureFuzzing
import FleetEngineCapture

/// One libFuzzer run: a TLS connection the harness writes as a capture, from a script in the
/// input, decoded by ``CaptureDecoder`` with the connection's keys.
///
/// Byte 0 sets the connection: bits 0-2, modulo 5, the suite the ServerHello chooses
/// (``FuzzedSuite``); bits 3-4, which secrets the key log holds (``HandshakeFixture/KeyLogVariant``);
/// bit 5, the key log comes in the capture's Decryption Secrets Block (a pcapng file) instead of
/// `CaptureOptions.tlsKeyLog`; bit 6, bounds so small that open calls and partial frames are given
/// up all the time; bit 7, a HelloRetryRequest and a second ClientHello before the ServerHello.
/// The harness sends the ClientHello (fixed client random) and the ServerHello itself; the rest of
/// the input is a script of records (``RecordScript``), which the harness seals with the keys the
/// key log's secrets give (``KeyScheduleMirror``), damages and cuts into TCP segments as it says.
///
/// Checks: no crash, sanitizer report, hang or runaway memory; `decode` and `finish` never throw
/// (the harness writes a well-formed capture); every problem says what it is; no record shows a
/// secret of the key log. When the script is well formed (``RecordScript/isWellFormed``) and the
/// key log holds the connection's secrets, no problem says the keys are missing or unused, nor,
/// with every secret there, that a record does not decrypt.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    guard let settings = input.first else { return 0 }
    let suite = FuzzedSuite.allCases[Int(settings & 7) % FuzzedSuite.allCases.count]
    let variant = HandshakeFixture.KeyLogVariant(rawValue: Int(settings >> 3) & 3) ?? .full
    var script = RecordScript(suite: suite, helloRetryRequest: settings & 0x80 != 0)
    script.play(Array(input.dropFirst())[...])

    var options =
        settings & 0x40 != 0 ? CaptureOptions(maxOpenCallBytes: 2_048, maxPartialFrameBytes: 0) : CaptureOptions()
    let capture: [UInt8]
    if settings & 0x20 != 0 {
        capture = script.capture(keyLogInSecretsBlock: HandshakeFixture.keyLog(suite, variant))
    } else {
        options.tlsKeyLog = keyLogs[suite.rawValue * 4 + variant.rawValue]
        capture = script.capture(keyLogInSecretsBlock: nil)
    }

    var decoder = CaptureDecoder(options: options)
    var records: [CaptureRecord] = []
    do throws(CaptureError) {
        records += try decoder.decode(capture)
        records += try decoder.finish()
    } catch {
        fail("the capture the harness wrote did not read: \(error)")
    }
    let hasSecrets = variant == .full || variant == .trafficSecretsOnly
    for record in records {
        let line = String(decoding: record.jsonLine, as: UTF8.self)
        for secret in HandshakeFixture.secretsInHex where line.contains(secret) {
            fail("a record shows a secret of the key log: \(line)")
        }
        guard case .problem(let problem) = record else { continue }
        if problem.error.message.isEmpty {
            fail("a \(problem.error.code) problem has no message")
        }
        guard script.isWellFormed, hasSecrets else { continue }
        let code = problem.error.code
        if [.tlsKeyMissing, .keyLogUnused, .tlsHandshakeMissing, .tlsUnsupported].contains(code)
            || (variant == .full && code == .tlsDecryptionFailed)
        {
            fail("a well-formed connection whose secrets the key log holds: \(problem.error.message)")
        }
    }
    return 0
}

/// The key log of each suite and variant, read once: `keyLogs[suite * 4 + variant]`.
let keyLogs: [TLSKeyLog] = FuzzedSuite.allCases.flatMap { suite in
    (0..<4).map { number in
        let variant = HandshakeFixture.KeyLogVariant(rawValue: number) ?? .full
        do throws(CaptureError) {
            return try TLSKeyLog(parsing: HandshakeFixture.keyLog(suite, variant), source: "the harness's key log")
        } catch {
            fail("the harness's key log does not read: \(error)")
        }
    }
}

/// The program's entry: SwiftPM links `main` to this symbol; it hands control to libFuzzer.
@_cdecl("FuzzTLSRecords_main")
public func fuzzTLSRecordsMain(
    _ argumentCount: CInt,
    _ arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    var argumentCount = argumentCount
    var arguments = arguments
    return LLVMFuzzerRunDriver(&argumentCount, &arguments) { fuzz($0, $1) }
}
