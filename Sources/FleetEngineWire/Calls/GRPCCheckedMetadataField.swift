/// One custom metadata field, checked once as ``GRPCRequestHead/appendMetadata(name:value:)``
/// checks a field, so that it can go on any number of requests without being checked again: for
/// a value sent with many calls, such as a bearer token.
public struct GRPCCheckedMetadataField: Hashable, Sendable {
    /// The field.
    public let field: GRPCMetadata.Field

    /// Checks `name` and `value`.
    ///
    /// - Throws: what ``GRPCRequestHead/appendMetadata(name:value:)`` throws for them. The errors
    ///   name the field, the offending byte (one that may not be sent there: a control, a space at
    ///   either end, a character outside base64's alphabet) and its position, never the rest of the
    ///   value, which may be a credential.
    public init(name: String, value: String) throws(WireError) {
        if let problem = HeaderFieldRules.metadataNameProblem(name) {
            throw WireError(code: problem.code, message: "metadata name \"\(name)\" \(problem.reason)")
        }
        if let reason = HeaderFieldRules.metadataValueProblem(value, name: name) {
            throw WireError(code: .invalidMetadata, message: "the value of metadata \"\(name)\" \(reason)")
        }
        field = GRPCMetadata.Field(name: name, value: value)
    }
}
