import FleetEngineCapture

/// The checks a capture-file fuzzer runs on one input.
///
/// The input is read by ``CaptureFileReader`` three ways: appended whole, byte by byte (for inputs
/// up to 4 KiB), and in chunks whose sizes come from a hash of the input (so a replayed input is
/// cut the same way every time). All three must give the same packets and stop with the same
/// error (code and byte offset) at the same place: a sans-IO reader that depended on how its input
/// was cut would be a bug. Every packet then goes through ``PacketDecoder``, and the whole input
/// through ``CaptureDecoder``, the pipeline `fleettrips capture` runs (with its default bounds, and
/// again with bounds so small that open calls and partial frames are given up all the time), with
/// every record printed as a JSON line.
///
/// A thrown ``CaptureError`` is an expected outcome; a crash, a sanitizer report, an error code
/// the API does not document, or a disagreement between the ways of reading is a finding, and
/// ends the process through ``fail(_:)``.
public enum CaptureFileCheck {
    /// Runs every check on `input`.
    public static func run(_ input: UnsafeBufferPointer<UInt8>) {
        let whole = read(input, chunkSizes: nil)
        if input.count <= 4096 {
            let byteByByte = read(input, chunkSizes: ChunkSizes(constant: 1))
            compare(whole, byteByByte, "byte by byte")
        }
        let chunked = read(input, chunkSizes: ChunkSizes(seed: ChunkSizes.hash(input)))
        compare(whole, chunked, "in chunks")

        for packet in whole.packets {
            checkPacketDecoder(packet)
        }
        runPipeline(input)
    }

    /// What one way of reading gave.
    struct Outcome {
        var packets: [CapturedPacket] = []
        /// The error `nextPacket()` threw, if any: its code and byte offset.
        var readError: (code: CaptureError.Code, byteOffset: Int64?)?
        /// The error `finish()` threw, if any.
        var finishError: (code: CaptureError.Code, byteOffset: Int64?)?
        var bytesConsumed: Int64 = 0
    }

    /// Reads `input` appended in pieces of `chunkSizes` (all at once when nil).
    static func read(_ input: UnsafeBufferPointer<UInt8>, chunkSizes: ChunkSizes?) -> Outcome {
        var reader = CaptureFileReader()
        var outcome = Outcome()
        var chunkSizes = chunkSizes
        var position = 0
        reading: repeat {
            var size = input.count
            if var sizes = chunkSizes {
                size = min(sizes.next(), input.count - position)
                chunkSizes = sizes
            }
            reader.append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: input[position..<(position + size)])))
            position += size
            do throws(CaptureError) {
                while let packet = try reader.nextPacket() {
                    outcome.packets.append(packet)
                }
            } catch {
                guard error.code == .notACapture || error.code == .malformedRecord else {
                    fail("nextPacket() threw an undocumented \(error.code): \(error)")
                }
                outcome.readError = (error.code, error.byteOffset)
                // A failed reader must keep failing with the same error.
                do throws(CaptureError) {
                    _ = try reader.nextPacket()
                    fail("nextPacket() succeeded after it threw \(error)")
                } catch let again {
                    if again.code != error.code || again.byteOffset != error.byteOffset {
                        fail("nextPacket() threw \(again) after it threw \(error)")
                    }
                }
                break reading
            }
        } while position < input.count
        do throws(CaptureError) {
            try reader.finish()
        } catch {
            let documented: [CaptureError.Code] = [.notACapture, .malformedRecord, .truncatedCapture]
            guard documented.contains(error.code) else {
                fail("finish() threw an undocumented \(error.code): \(error)")
            }
            outcome.finishError = (error.code, error.byteOffset)
        }
        outcome.bytesConsumed = reader.bytesConsumed
        if outcome.bytesConsumed < 0 || outcome.bytesConsumed > Int64(input.count) {
            fail("bytesConsumed is \(outcome.bytesConsumed) for an input of \(input.count) bytes")
        }
        return outcome
    }

    /// Fails unless reading `other` way gave what reading the input whole gave.
    static func compare(_ whole: Outcome, _ other: Outcome, _ way: String) {
        if whole.readError?.code != other.readError?.code || whole.readError?.byteOffset != other.readError?.byteOffset
        {
            fail("read whole: \(String(describing: whole.readError)); \(way): \(String(describing: other.readError))")
        }
        if whole.finishError?.code != other.finishError?.code
            || whole.finishError?.byteOffset != other.finishError?.byteOffset
        {
            fail(
                "finish() whole: \(String(describing: whole.finishError)); "
                    + "\(way): \(String(describing: other.finishError))")
        }
        if whole.bytesConsumed != other.bytesConsumed {
            fail("bytesConsumed whole: \(whole.bytesConsumed); \(way): \(other.bytesConsumed)")
        }
        guard whole.packets.count == other.packets.count else {
            fail("read whole: \(whole.packets.count) packets; \(way): \(other.packets.count)")
        }
        for (index, (one, two)) in zip(whole.packets, other.packets).enumerated() {
            guard one.timestamp == two.timestamp, one.linkType == two.linkType, one.bytes.elementsEqual(two.bytes),
                one.originalLength == two.originalLength, one.interfaceID == two.interfaceID,
                one.byteOffset == two.byteOffset
            else {
                fail("packet \(index) differs when read whole and \(way)")
            }
        }
    }

    /// Decodes the packet's TCP segment and checks that its payload lies within the packet.
    static func checkPacketDecoder(_ packet: CapturedPacket) {
        do throws(CaptureError) {
            guard let segment = try PacketDecoder.tcpSegment(in: packet) else { return }
            let payload = segment.payload
            guard payload.startIndex >= packet.bytes.startIndex, payload.endIndex <= packet.bytes.endIndex else {
                fail(
                    "the payload \(payload.startIndex)..<\(payload.endIndex) lies outside the packet "
                        + "\(packet.bytes.startIndex)..<\(packet.bytes.endIndex)")
            }
            let expectedOffset = packet.byteOffset + Int64(payload.startIndex - packet.bytes.startIndex)
            if segment.byteOffset != expectedOffset {
                fail("the payload's byte offset is \(segment.byteOffset), not \(expectedOffset)")
            }
            _ = segment.source.description + segment.destination.description
        } catch {
            guard error.code == .malformedPacket || error.code == .unsupportedLinkType else {
                fail("tcpSegment(in:) threw an undocumented \(error.code): \(error)")
            }
        }
    }

    /// Runs the whole pipeline over the input and prints every record: with the default options,
    /// and with bounds so small that open calls and partial frames are given up all the time.
    static func runPipeline(_ input: UnsafeBufferPointer<UInt8>) {
        runPipeline(input, options: CaptureOptions())
        runPipeline(input, options: CaptureOptions(maxOpenCallBytes: 2_048, maxPartialFrameBytes: 0))
    }

    static func runPipeline(_ input: UnsafeBufferPointer<UInt8>, options: CaptureOptions) {
        var decoder = CaptureDecoder(options: options)
        var records: [CaptureRecord] = []
        do throws(CaptureError) {
            records += try decoder.decode(input)
            records += try decoder.finish()
        } catch {
            // The capture file itself is unreadable: an expected outcome.
        }
        for record in records {
            _ = record.jsonLine
        }
    }
}
