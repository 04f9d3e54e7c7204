import ArgumentParser
import FleetEngineWire

extension ConnectionOptions {
    /// Names `-H` refuses although gRPC would send them, with what to give instead.
    static let metadataNamesGivenElsewhere: [String: String] = [
        "authorization": "it carries the bearer token, which the client writes itself from the token options "
            + "(--token, --token-file, --token-command, --service-account)",
        "host": "HTTP/2 carries the host in :authority: give it with --authority",
        "x-goog-request-params": "the client writes it itself on every call, from the trip's provider",
    ]

    /// The request metadata of `-H`/`--header`, in the order given: each `name: value` split at its
    /// first colon, the name trimmed and lower-cased (gRPC metadata names are lower case), the
    /// value trimmed of spaces and tabs at either end, as grpcurl reads `-H`.
    ///
    /// - Throws: `ValidationError` for a header that starts with a colon (a pseudo-header, such as
    ///   `:authority`, which has an option of its own), has none, or has an empty name; a name
    ///   the tool writes itself or gets from another option (``metadataNamesGivenElsewhere``); and
    ///   a name or value the client would refuse (``GRPCCheckedMetadataField``: pseudo-headers and
    ///   names gRPC or HTTP/2 reserve, characters a name may not hold, a value with a control
    ///   character or one outside ASCII, a `-bin` value that is not base64). The message names
    ///   the header by its name and position, and a bad value's byte by its offset, never the
    ///   value itself, which may be a credential.
    func requestMetadata() throws(ValidationError) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        for (index, header) in headers.enumerated() {
            let which = "-H #\(index + 1)"
            guard !header.hasPrefix(":") else {
                throw ValidationError(
                    "\(which) names a pseudo-header, which only the call layer writes; give :authority with --authority"
                )
            }
            guard let colon = header.firstIndex(of: ":") else {
                throw ValidationError("\(which) has no ':'; give it as 'name: value', e.g. -H 'x-tenant: blue'")
            }
            let name = Self.trimmed(header[..<colon]).lowercased()
            let value = Self.trimmed(header[header.index(after: colon)...])
            guard !name.isEmpty else {
                throw ValidationError("\(which) has no name before ':'; give it as 'name: value'")
            }
            if let reason = Self.metadataNamesGivenElsewhere[name] {
                throw ValidationError("\(which) may not be \(name): \(reason)")
            }
            do throws(WireError) {
                let checked = try GRPCCheckedMetadataField(name: name, value: value)
                fields.append((checked.field.name, checked.field.value))
            } catch {
                throw ValidationError("\(which) cannot be sent: \(error.message)")
            }
        }
        return fields
    }

    /// `text` without spaces and tabs at either end.
    private static func trimmed(_ text: Substring) -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isBlank($0) }), let last = text.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(text[first...last])
    }
}
