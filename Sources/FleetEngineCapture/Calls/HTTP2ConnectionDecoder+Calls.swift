import FleetEngineCodec
import FleetEngineStatus
import FleetEngineWire

extension HTTP2ConnectionDecoder {
    /// The messages complete in a deframer after `bytes`; a message that breaks the framing ends
    /// the reading of that side (its results so far are kept).
    static func drain(_ deframer: inout GRPCMessageDeframer, _ bytes: ArraySlice<UInt8>) -> [Result<
        [UInt8], WireError
    >] {
        // Past a framing fault no message boundary can be found again, and the fault was reported
        // when it was found: the stream's later DATA adds nothing to report.
        if deframer.framingFault != nil { return [] }
        deframer.append(bytes)
        var results: [Result<[UInt8], WireError>] = []
        while true {
            do throws(WireError) {
                guard let message = try deframer.next() else { return results }
                if message.isCompressed {
                    // Without the header block there is no `grpc-encoding` to decompress with.
                    results.append(
                        .failure(
                            WireError(
                                code: .compressedWithoutEncoding,
                                message: "a compressed message on a stream whose headers were not decoded")))
                } else {
                    results.append(.success(message.payload))
                }
            } catch {
                results.append(.failure(error))
                return results
            }
        }
    }

    mutating func rawMessage(
        _ result: Result<[UInt8], WireError>, direction: CallDirection, frame: CapturedHTTP2Frame,
        into records: inout [CaptureRecord]
    ) {
        switch result {
        case .success(let payload):
            message(
                payload, direction: direction, streamID: frame.streamID, timestamp: frame.timestamp,
                byteOffset: frame.byteOffset, into: &records)
        case .failure(let error):
            problem(.malformedFrame, "\(direction) message: \(error)", frame: frame, into: &records)
        }
    }

    // MARK: Calls

    /// The call on `streamID`, taken out of the table (the caller puts it back, changed; taking it out
    /// keeps its buffers unshared, so that changing them does not copy them), or made when the
    /// capture shows a stream it did not see begin.
    mutating func existingCall(_ streamID: UInt32) -> Call? {
        if let call = calls.removeValue(forKey: streamID) { return call }
        guard !endedStreams.contains(streamID) else { return nil }
        highestStreamID = max(highestStreamID, streamID)
        var call = Call(maxMessageSize: options.maxMessageSize)
        if let override = options.methodOverride { call.setMethod(override, inferred: true) }
        return call
    }

    mutating func requestEvents(
        _ events: [GRPCRequestReader.Event], streamID: UInt32, timestamp: CaptureTimestamp, byteOffset: Int64,
        into records: inout [CaptureRecord]
    ) {
        for event in events {
            switch event {
            case .message(let payload):
                message(
                    payload, direction: .request, streamID: streamID, timestamp: timestamp, byteOffset: byteOffset,
                    into: &records)
            case .failed(let error):
                records.append(
                    .problem(
                        CaptureProblem(
                            timestamp: timestamp, connection: connection, streamID: streamID,
                            error: CaptureError(
                                code: .malformedFrame, message: "the request of stream \(streamID): \(error.message)",
                                byteOffset: byteOffset, cause: error))))
            case .requestHead, .end, .reset:
                break
            }
        }
    }

    mutating func responseEvents(
        _ events: [GRPCResponseReader.Event], streamID: UInt32, timestamp: CaptureTimestamp, byteOffset: Int64?,
        into records: inout [CaptureRecord]
    ) {
        for event in events {
            switch event {
            case .message(let payload):
                message(
                    payload, direction: .response, streamID: streamID, timestamp: timestamp,
                    byteOffset: byteOffset ?? 0, into: &records)
            case .end(let status, _):
                guard let call = calls.removeValue(forKey: streamID) else { continue }
                heldHeaderBytes -= call.headerBytes
                heldMessageBytes -= call.messageBytes
                endedStreams.insert(streamID)
                if endedStreams.count > 8_192 {
                    // Client stream ids only grow (RFC 9113 section 5.1.1): old ones do not return.
                    let horizon = highestStreamID > 16_384 ? highestStreamID - 16_384 : 0
                    endedStreams = endedStreams.filter { $0 >= horizon }
                }
                records.append(
                    .callEnd(
                        CapturedCallEnd(
                            timestamp: timestamp, connection: connection, streamID: streamID, method: call.method,
                            methodInferred: call.methodInferred, status: status,
                            latencyNanoseconds: call.started.map { timestamp.nanoseconds(since: $0) },
                            requestMessageCount: call.requestMessages, responseMessageCount: call.responseMessages,
                            headersUncertain: call.headersUncertain)))
            case .responseHead:
                break
            }
        }
    }

    mutating func message(
        _ payload: [UInt8], direction: CallDirection, streamID: UInt32, timestamp: CaptureTimestamp, byteOffset: Int64,
        into records: inout [CaptureRecord]
    ) {
        guard var call = existingCall(streamID) else { return }
        if call.method == nil, direction == .request,
            let inferred = TripServiceSchema.inferMethod(fromRequest: payload[...])
        {
            call.setMethod(inferred.path, inferred: true)
        }
        var type = direction == .request ? call.requestType : call.responseType
        if type == nil, call.method == nil, direction == .response {
            type = TripServiceSchema.inferResponseType(payload[...])
        }
        var decoded: (any ProtobufMessage)?
        var decodingError: CodecError?
        if let type {
            do throws(CodecError) {
                decoded = try type.init(
                    serializedBytes: payload, options: DecodingOptions(maxDecodedSize: options.maxDecodedMessageSize))
            } catch {
                decodingError = error
            }
        }
        if direction == .request { call.requestMessages += 1 } else { call.responseMessages += 1 }
        calls[streamID] = call
        records.append(
            .message(
                CapturedMessage(
                    timestamp: timestamp, connection: connection, streamID: streamID, direction: direction,
                    method: call.method, methodInferred: call.methodInferred, message: decoded, payload: payload,
                    decodingError: decodingError, byteOffset: byteOffset, headersUncertain: call.headersUncertain)))
    }

    func problem(
        _ code: CaptureError.Code, _ message: String, frame: CapturedHTTP2Frame, byteOffset: Int64? = nil,
        into records: inout [CaptureRecord]
    ) {
        records.append(
            .problem(
                CaptureProblem(
                    timestamp: frame.timestamp, connection: connection, streamID: frame.streamID,
                    error: CaptureError(code: code, message: message, byteOffset: byteOffset ?? frame.byteOffset))))
    }
}
