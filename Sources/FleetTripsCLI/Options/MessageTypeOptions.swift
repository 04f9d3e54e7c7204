import ArgumentParser
import FleetEngineCodec

/// The `--type` option: which message of Protos/ the input or output holds.
struct MessageTypeOptions: ParsableArguments, Sendable {
    /// The full protobuf name, e.g. `maps.fleetengine.v1.Trip`.
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The full name of the message type, e.g. maps.fleetengine.v1.Trip (`fleettrips types` lists them).",
            valueName: "message-type"))
    var type: String

    /// Arguments at their defaults; ArgumentParser sets them while parsing.
    init() {}

    /// Refuses a name Protos/ does not declare, suggesting the names closest to it.
    func validate() throws {
        guard MessageRegistry.messageType(named: type) == nil else { return }
        let suggestions = MessageTypeSuggestions.closeMatches(
            for: type, among: MessageRegistry.allMessageTypes.map { $0.protoMessageName })
        if suggestions.isEmpty {
            throw ValidationError("unknown message type '\(type)'; `fleettrips types` lists the known types")
        }
        throw ValidationError(
            "unknown message type '\(type)'; did you mean \(suggestions.joined(separator: ", "))? "
                + "(`fleettrips types` lists the known types)")
    }

    /// The message type `--type` names; ``validate()`` has checked it exists.
    var messageType: any ProtobufMessage.Type {
        get throws {
            guard let found = MessageRegistry.messageType(named: type) else {
                throw ValidationError("unknown message type '\(type)'")
            }
            return found
        }
    }
}
