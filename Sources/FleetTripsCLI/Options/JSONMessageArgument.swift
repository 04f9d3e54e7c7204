import ArgumentParser
import FleetEngineCodec
import FleetTripsInput

/// A message given as an option's value in proto3 JSON: the JSON text itself, or `@path` of a
/// file that holds it.
enum JSONMessageArgument {
    /// The largest `@file` read, as `fleettrips encode` reads one message: a larger file (or
    /// `/dev/zero`) is refused after reading just past this, rather than held whole.
    static let maxFileBytes = MessageEncoder.maxMessageJSONBytes

    /// Parses `text`, the value of `option`, as a `Message`.
    ///
    /// - Throws: `ValidationError` naming the option (and the file) and saying what is wrong and
    ///   where: the codec's reason with its byte offset and field path, why the file cannot be read,
    ///   or that it holds more than ``maxFileBytes``.
    static func parse<Message: ProtobufMessage>(
        _ text: String, option: String, as type: Message.Type = Message.self
    ) throws(ValidationError) -> Message {
        let json: [UInt8]
        let source: String
        if text.hasPrefix("@") {
            let path = String(text.dropFirst())
            guard !path.isEmpty, path != "-" else {
                throw ValidationError("\(option) @ takes a file's path, e.g. \(option) @trip.json")
            }
            do throws(FleetTripsError) {
                json = try InputFile(path: path).readAll(atMost: maxFileBytes)
            } catch {
                throw ValidationError("\(option): \(error.message)")
            }
            guard json.count <= maxFileBytes else {
                throw ValidationError("\(option) @\(path) holds more than \(maxFileBytes) bytes, more than any message")
            }
            source = "\(option) @\(path)"
        } else {
            json = Array(text.utf8)
            source = option
        }
        do throws(CodecError) {
            return try Message(jsonUTF8Bytes: json)
        } catch {
            throw ValidationError("\(source) is not a \(Message.protoMessageName) in proto3 JSON: \(error)")
        }
    }
}
