/// The method a gRPC call invokes, as its `:path` pseudo-header names it:
/// `/maps.fleetengine.v1.TripService/GetTrip`.
///
/// gRPC PROTOCOL-HTTP2, "Requests": Path → ":path" "/" Service-Name "/" {method name}, where the
/// service name is the fully qualified protobuf service (package, dot, service). The path is
/// case-sensitive and is compared exactly.
public struct GRPCMethodPath: Hashable, Sendable, CustomStringConvertible {
    /// The fully qualified service name: `maps.fleetengine.v1.TripService`.
    public let service: String
    /// The method name: `GetTrip`.
    public let method: String
    /// The `:path` value: `/` service `/` method.
    public let path: String

    /// The path of `method` on `service`.
    ///
    /// The names are taken as given, for names the program itself holds (generated constants);
    /// text from outside goes through ``init(path:)``, which checks it.
    public init(service: String, method: String) {
        self.service = service
        self.method = method
        self.path = "/" + service + "/" + method
    }

    /// Reads a `:path` value.
    ///
    /// - Throws: ``WireError/Code/invalidMethodPath`` unless the value is `/`, a non-empty service
    ///   name, `/`, a non-empty method name, with no other `/` and only visible ASCII (a query
    ///   string or a space has no place in a gRPC path).
    public init(path: String) throws(WireError) {
        let bytes = path.utf8
        guard bytes.first == UInt8(ascii: "/") else {
            throw Self.invalid(path, "does not start with '/'")
        }
        var separator: String.Index?
        for index in bytes.indices.dropFirst() {
            let byte = bytes[index]
            guard byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "?"), byte != UInt8(ascii: "#") else {
                throw Self.invalid(
                    path,
                    "has \(HeaderFieldRules.describe(byte)) at byte \(bytes.distance(from: bytes.startIndex, to: index))"
                )
            }
            guard byte == UInt8(ascii: "/") else { continue }
            guard separator == nil else {
                throw Self.invalid(path, "has more than two '/'; a gRPC path is /Service/Method")
            }
            separator = index
        }
        guard let separator else {
            throw Self.invalid(path, "has no '/' between service and method")
        }
        let service = path[path.index(after: path.startIndex)..<separator]
        let method = path[path.index(after: separator)...]
        guard !service.isEmpty else { throw Self.invalid(path, "has an empty service name") }
        guard !method.isEmpty else { throw Self.invalid(path, "has an empty method name") }
        self.service = String(service)
        self.method = String(method)
        self.path = path
    }

    /// The `:path` value.
    public var description: String { path }

    private static func invalid(_ path: String, _ problem: String) -> WireError {
        WireError(code: .invalidMethodPath, message: ":path \"\(path)\" \(problem)")
    }
}
