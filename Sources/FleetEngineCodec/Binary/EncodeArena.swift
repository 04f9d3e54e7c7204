import CFleetEngineProtos
import CProtobufC

/// Memory for the protoc-c structs an encode builds, all released at once when the encode ends.
struct EncodeArena {
    let arena: UnsafeMutablePointer<fe_arena>

    func allocateBytes(_ count: Int) -> UnsafeMutableRawPointer {
        guard let memory = fe_arena_allocate(UnsafeMutableRawPointer(arena), max(count, 1)) else {
            // Only malloc failing gets here: an encode's arena has no limit of its own.
            preconditionFailure("out of memory while encoding a message")
        }
        return memory
    }

    func allocate<T>(_ type: T.Type) -> UnsafeMutablePointer<T> {
        allocateBytes(MemoryLayout<T>.stride).bindMemory(to: T.self, capacity: 1)
    }

    func allocatePointers<T>(to type: T.Type, count: Int) -> UnsafeMutablePointer<UnsafeMutablePointer<T>?> {
        allocateBytes(MemoryLayout<UnsafeMutablePointer<T>?>.stride * count)
            .bindMemory(to: UnsafeMutablePointer<T>?.self, capacity: count)
    }

    func binaryData(_ text: String) -> ProtobufCBinaryData {
        if text.isEmpty { return ProtobufCBinaryData(len: 0, data: nil) }
        var text = text
        return text.withUTF8 { copy($0) }
    }

    func binaryData(_ bytes: [UInt8]) -> ProtobufCBinaryData {
        if bytes.isEmpty { return ProtobufCBinaryData(len: 0, data: nil) }
        return bytes.withUnsafeBufferPointer { copy($0) }
    }

    private func copy(_ source: UnsafeBufferPointer<UInt8>) -> ProtobufCBinaryData {
        let target = allocateBytes(source.count).bindMemory(to: UInt8.self, capacity: source.count)
        if let base = source.baseAddress {
            target.update(from: base, count: source.count)
        }
        return ProtobufCBinaryData(len: source.count, data: target)
    }

    func binaryDataArray(_ texts: [String]) -> UnsafeMutablePointer<ProtobufCBinaryData> {
        values(texts) { binaryData($0) }
    }

    func binaryDataArray(_ blobs: [[UInt8]]) -> UnsafeMutablePointer<ProtobufCBinaryData> {
        values(blobs) { binaryData($0) }
    }

    func values<Element, CElement>(
        _ elements: [Element],
        _ convert: (Element) -> CElement
    ) -> UnsafeMutablePointer<CElement> {
        let target = allocateBytes(MemoryLayout<CElement>.stride * elements.count)
            .bindMemory(to: CElement.self, capacity: elements.count)
        for (index, element) in elements.enumerated() {
            (target + index).initialize(to: convert(element))
        }
        return target
    }

    func message<M: CBackedMessage>(_ value: M) -> UnsafeMutablePointer<M.CMessage> {
        let c = allocate(M.CMessage.self)
        value.fillC(c, arena: self)
        return c
    }

    /// A one-element array of pointers, for singular message fields (rendered repeated for protobuf-c).
    func single<T>(_ element: UnsafeMutablePointer<T>) -> UnsafeMutablePointer<UnsafeMutablePointer<T>?> {
        let pointers = allocatePointers(to: T.self, count: 1)
        pointers[0] = element
        return pointers
    }

    func messages<M: CBackedMessage>(_ elements: [M]) -> UnsafeMutablePointer<UnsafeMutablePointer<M.CMessage>?> {
        let pointers = allocatePointers(to: M.CMessage.self, count: elements.count)
        for (index, element) in elements.enumerated() {
            pointers[index] = message(element)
        }
        return pointers
    }

    /// Splits unknown fields into protobuf-c's entries (tag number, wire type, value bytes), which
    /// protobuf-c packs after the known fields exactly as given.
    func attach(_ unknown: UnknownFields, to base: inout ProtobufCMessage) {
        unknown.bytes.withUnsafeBufferPointer { buffer in
            let stored = copy(buffer)
            guard let data = stored.data else { return }
            let fields = UnsafeBufferPointer(start: data, count: stored.len)
            var spans: [(tag: UInt64, value: Range<Int>)] = []
            var position = 0
            while position < fields.count {
                let tag = WireReading.varint(in: fields, at: &position)
                let start = position
                WireReading.skipValue(wireType: UInt8(tag & 7), fieldNumber: tag >> 3, in: fields, at: &position)
                spans.append((tag, start..<position))
            }
            let entries = values(spans) { span in
                ProtobufCMessageUnknownField(
                    tag: UInt32(truncatingIfNeeded: span.tag >> 3),
                    wire_type: ProtobufCWireType(rawValue: UInt32(span.tag & 7)),
                    len: span.value.count,
                    data: data + span.value.lowerBound
                )
            }
            base.n_unknown_fields = UInt32(spans.count)
            base.unknown_fields = entries
        }
    }
}
