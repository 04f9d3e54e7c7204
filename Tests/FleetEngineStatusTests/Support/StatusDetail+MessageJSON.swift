import FleetEngineCodec
import FleetEngineStatus

extension StatusDetail {
    /// The typed message's own proto3 JSON (without `@type`), or nil for ``other`` and ``undecodable``.
    func messageJSONString() throws -> String? {
        switch self {
        case .errorInfo(let message): try message.jsonString()
        case .retryInfo(let message): try message.jsonString()
        case .badRequest(let message): try message.jsonString()
        case .quotaFailure(let message): try message.jsonString()
        case .preconditionFailure(let message): try message.jsonString()
        case .resourceInfo(let message): try message.jsonString()
        case .help(let message): try message.jsonString()
        case .localizedMessage(let message): try message.jsonString()
        case .debugInfo(let message): try message.jsonString()
        case .requestInfo(let message): try message.jsonString()
        case .other, .undecodable: nil
        }
    }

    /// The case's name, for comparing the kind of a detail without its payload.
    var caseName: String {
        switch self {
        case .errorInfo: "errorInfo"
        case .retryInfo: "retryInfo"
        case .badRequest: "badRequest"
        case .quotaFailure: "quotaFailure"
        case .preconditionFailure: "preconditionFailure"
        case .resourceInfo: "resourceInfo"
        case .help: "help"
        case .localizedMessage: "localizedMessage"
        case .debugInfo: "debugInfo"
        case .requestInfo: "requestInfo"
        case .other: "other"
        case .undecodable: "undecodable"
        }
    }
}

/// A failure of a test helper, for input the helper does not handle.
struct TestHelperError: Error, CustomStringConvertible {
    var description: String
}

extension StatusDetail {
    /// Parses the proto3 JSON of one of the ten standard detail types, named by its full name.
    static func parse(typeName: String, json: String) throws -> StatusDetail {
        switch typeName {
        case ErrorInfo.protoMessageName: .errorInfo(try ErrorInfo(jsonString: json))
        case RetryInfo.protoMessageName: .retryInfo(try RetryInfo(jsonString: json))
        case BadRequest.protoMessageName: .badRequest(try BadRequest(jsonString: json))
        case QuotaFailure.protoMessageName: .quotaFailure(try QuotaFailure(jsonString: json))
        case PreconditionFailure.protoMessageName: .preconditionFailure(try PreconditionFailure(jsonString: json))
        case ResourceInfo.protoMessageName: .resourceInfo(try ResourceInfo(jsonString: json))
        case Help.protoMessageName: .help(try Help(jsonString: json))
        case LocalizedMessage.protoMessageName: .localizedMessage(try LocalizedMessage(jsonString: json))
        case DebugInfo.protoMessageName: .debugInfo(try DebugInfo(jsonString: json))
        case RequestInfo.protoMessageName: .requestInfo(try RequestInfo(jsonString: json))
        default: throw TestHelperError(description: "\(typeName) is not a standard detail type")
        }
    }
}
