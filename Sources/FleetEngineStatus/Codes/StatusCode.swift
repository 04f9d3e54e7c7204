/// A gRPC status code: the outcome of a call, as `grpc-status` carries it.
///
/// An open set, as the wire is: every integer is representable, and a value outside the 17 codes
/// gRPC defines (0 `OK` … 16 `UNAUTHENTICATED`, gRPC's doc/statuscodes.md) is kept as it arrived.
/// Wherever a decision depends on the code (its family, whether to retry, its HTTP status), an
/// unknown value counts as ``unknown``, as gRPC's status code document asks of receivers.
public struct StatusCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The number on the wire.
    public let rawValue: Int

    /// Wraps any number, named or not.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Not an error; returned on success.
    public static let ok = StatusCode(rawValue: 0)
    /// The operation was cancelled, typically by the caller.
    public static let cancelled = StatusCode(rawValue: 1)
    /// An error with no better code, or a status from another address space the receiver does not know.
    public static let unknown = StatusCode(rawValue: 2)
    /// The caller gave an argument that is wrong whatever the state of the system.
    public static let invalidArgument = StatusCode(rawValue: 3)
    /// The deadline passed before the operation could complete.
    public static let deadlineExceeded = StatusCode(rawValue: 4)
    /// A requested entity was not found.
    public static let notFound = StatusCode(rawValue: 5)
    /// The entity a client tried to create already exists.
    public static let alreadyExists = StatusCode(rawValue: 6)
    /// The caller may not perform this operation.
    public static let permissionDenied = StatusCode(rawValue: 7)
    /// A resource ran out: a quota, a rate limit, space.
    public static let resourceExhausted = StatusCode(rawValue: 8)
    /// The system is not in the state the operation needs.
    public static let failedPrecondition = StatusCode(rawValue: 9)
    /// The operation was aborted, typically by a concurrency conflict.
    public static let aborted = StatusCode(rawValue: 10)
    /// The operation went past the valid range.
    public static let outOfRange = StatusCode(rawValue: 11)
    /// The operation is not implemented or not supported by this service.
    public static let unimplemented = StatusCode(rawValue: 12)
    /// An invariant the underlying system expects was broken.
    public static let internalError = StatusCode(rawValue: 13)
    /// The service is unavailable right now; most likely transient.
    public static let unavailable = StatusCode(rawValue: 14)
    /// Unrecoverable data loss or corruption.
    public static let dataLoss = StatusCode(rawValue: 15)
    /// The request does not have valid credentials.
    public static let unauthenticated = StatusCode(rawValue: 16)

    /// The 17 codes gRPC defines, in numeric order.
    public static let allKnown: [StatusCode] = (0...16).map { StatusCode(rawValue: $0) }

    private static let canonicalNames = [
        "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
        "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED",
        "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
    ]

    /// Whether this is one of the 17 codes gRPC defines.
    public var isKnown: Bool { (0...16).contains(rawValue) }

    /// The code that decisions are made on: this one if gRPC defines it, otherwise ``unknown``.
    public var effective: StatusCode { isKnown ? self : .unknown }

    /// The canonical name (`UNAVAILABLE`), or nil for a number gRPC does not define.
    public var name: String? {
        isKnown ? Self.canonicalNames[rawValue] : nil
    }

    /// The code with this canonical name (`"NOT_FOUND"`); case and `-`/`_` are not significant,
    /// and `CANCELED` is taken for `CANCELLED`.
    public init?(name: String) {
        var normalized = name.uppercased().replacingDashes()
        if normalized == "CANCELED" { normalized = "CANCELLED" }
        guard let index = Self.canonicalNames.firstIndex(of: normalized) else { return nil }
        self.init(rawValue: index)
    }

    /// The canonical name, or `CODE_<n>` for a number gRPC does not define.
    public var description: String {
        name ?? "CODE_\(rawValue)"
    }
}

extension String {
    fileprivate func replacingDashes() -> String {
        String(self.map { $0 == "-" ? "_" : $0 })
    }
}
