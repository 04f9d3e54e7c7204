/// How messages are printed as proto3 JSON.
public struct JSONEncodingOptions: Sendable, Hashable {
    /// Print the schema's field names (`trip_status`) instead of lowerCamelCase (`tripStatus`).
    public var preservingProtoFieldNames: Bool
    /// Indent nested objects and arrays by two spaces, one member per line.
    public var prettyPrinted: Bool

    public init(preservingProtoFieldNames: Bool = false, prettyPrinted: Bool = false) {
        self.preservingProtoFieldNames = preservingProtoFieldNames
        self.prettyPrinted = prettyPrinted
    }
}

/// How proto3 JSON is parsed.
public struct JSONDecodingOptions: Sendable, Hashable {
    /// Skip object members that name no field, instead of failing.
    public var ignoringUnknownFields: Bool
    /// How deeply objects and arrays may nest.
    public var maxNestingDepth: Int

    public init(ignoringUnknownFields: Bool = false, maxNestingDepth: Int = 100) {
        self.ignoringUnknownFields = ignoringUnknownFields
        self.maxNestingDepth = maxNestingDepth
    }
}
