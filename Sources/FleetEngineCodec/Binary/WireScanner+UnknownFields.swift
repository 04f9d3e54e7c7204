extension WireScanner {
    /// The fields from the top-level message down to the one being read: names with an index for
    /// repeated fields. Turned into a path only where one is needed, so that a message of many
    /// sub-messages (a trip's points) is walked without a string made per sub-message.
    private typealias PathSegments = [(name: String, index: Int?)]

    /// Every field of the input that `schema` does not define, at any depth, in input order; a
    /// known field that came with another wire type counts too, as decoding keeps it unknown, and
    /// so does a map entry holding more than its key and value, which decoding keeps whole.
    func unknownFields(_ schema: WireSchema) throws(CodecError) -> [UnknownFieldLocation] {
        var found: [UnknownFieldLocation] = []
        var segments: PathSegments = [(schema.messageName, nil)]
        do throws(CodecError) {
            try collectUnknownFields(schema, 0..<bytes.count, segments: &segments, depth: 0, into: &found)
        } catch {
            var located = error
            located.fieldPath = Self.path(segments)
            throw located
        }
        return found
    }

    private static func path(_ segments: PathSegments) -> String {
        var path = ""
        for (position, segment) in segments.enumerated() {
            if position > 0 { path += "." }
            path += segment.name
            if let index = segment.index { path += "[\(index)]" }
        }
        return path
    }

    /// Walks one message's fields; on a fault, `segments` is left naming the message it was in.
    private func collectUnknownFields(
        _ schema: WireSchema, _ range: Range<Int>, segments: inout PathSegments, depth: Int,
        into found: inout [UnknownFieldLocation]
    ) throws(CodecError) {
        // The path is filled in by the caller, from the segments left as they were.
        guard depth <= options.maxNestingDepth else { throw nestingTooDeep(at: range.lowerBound, path: "") }
        var position = range.lowerBound
        var occurrences: [Int: Int] = [:]
        while position < range.upperBound {
            let tagOffset = position
            let (number, wireType) = try readTag(at: &position, limit: range.upperBound, path: "")
            if wireType == .endGroup { throw Self.unopenedGroupEnd(number, at: tagOffset, path: nil) }
            guard let field = schema.field(number: number), field.accepts(wireType) else {
                found.append(
                    UnknownFieldLocation(path: Self.path(segments), fieldNumber: number, byteOffset: tagOffset))
                try skipValue(wireType, number: number, at: &position, limit: range.upperBound, path: "", depth: depth)
                continue
            }
            let index = occurrences[number, default: 0]
            occurrences[number] = index + 1
            guard case .message(let nested) = field.kind, wireType == .lengthDelimited else {
                try skipValue(wireType, number: number, at: &position, limit: range.upperBound, path: "", depth: depth)
                continue
            }
            let body = try readLength(at: &position, limit: range.upperBound, number: number, path: "")
            let nestedSchema = nested()
            if nestedSchema.isMapEntry, try !isPlainMapEntry(nestedSchema, body) {
                found.append(
                    UnknownFieldLocation(path: Self.path(segments), fieldNumber: number, byteOffset: tagOffset))
            } else {
                segments.append((field.name, field.isRepeated ? index : nil))
                try collectUnknownFields(nestedSchema, body, segments: &segments, depth: depth + 1, into: &found)
                segments.removeLast()
            }
            position = body.upperBound
        }
    }
}
