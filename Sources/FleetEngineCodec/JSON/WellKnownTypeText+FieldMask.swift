extension WellKnownTypeText {
    /// The JSON form of a `google.protobuf.FieldMask`: each path in lowerCamelCase, joined by commas
    /// (`["trip_status", "vehicle_id"]` prints as `"tripStatus,vehicleId"`).
    ///
    /// A path must read back as itself, so, as in Google's Python printer, it may hold no uppercase
    /// letter, and every `_` must be followed by a lowercase letter (no `__`, `_1` or trailing `_`).
    /// Letters are judged by their Unicode case properties, as Python's `isupper`/`islower` judge them.
    ///
    /// - Throws: ``CodecError/Code/invalidJSONValue`` naming the path and the character.
    static func fieldMask(paths: [String]) throws(CodecError) -> String {
        var result = String.UnicodeScalarView()
        for (position, path) in paths.enumerated() {
            if position > 0 {
                result.append(",")
            }
            var afterUnderscore = false
            for scalar in path.unicodeScalars {
                if scalar.properties.isUppercase {
                    let readBack = "_" + scalar.properties.lowercaseMapping
                    throw fieldMaskFailure(
                        path,
                        "contains the uppercase letter '\(scalar)', which would read back as '\(readBack)'"
                    )
                }
                if afterUnderscore {
                    guard scalar.properties.isLowercase else {
                        throw fieldMaskFailure(
                            path, "has '\(scalar)' after a '_', where only a lowercase letter can be")
                    }
                    result.append(contentsOf: scalar.properties.uppercaseMapping.unicodeScalars)
                    afterUnderscore = false
                } else if scalar == "_" {
                    afterUnderscore = true
                } else {
                    result.append(scalar)
                }
            }
            if afterUnderscore {
                throw fieldMaskFailure(path, "ends in '_'")
            }
        }
        return String(result)
    }

    /// Reads the JSON form of a `google.protobuf.FieldMask` back into snake_case paths
    /// (`"fooBar,baz.quxQuux"` gives `["foo_bar", "baz.qux_quux"]`); the empty string is no paths.
    ///
    /// Every uppercase letter becomes `_` and its lowercase form. A `_` in the text is refused, as
    /// Google's Python parser refuses it: the JSON form is lowerCamelCase.
    ///
    /// - Throws: ``CodecError/Code/invalidJSONValue`` naming the path; the caller adds where.
    static func parseFieldMask(_ text: String) throws(CodecError) -> [String] {
        guard !text.isEmpty else { return [] }
        var paths: [String] = []
        // Split on code points, not Characters: a combining mark after a comma must not hide the comma.
        for camelCase in text.unicodeScalars.split(separator: ",", omittingEmptySubsequences: false) {
            var snakeCase = String.UnicodeScalarView()
            for scalar in camelCase {
                if scalar == "_" {
                    throw CodecError(
                        code: .invalidJSONValue,
                        message: "FieldMask path \"\(JSONValue.shortened(String(camelCase)))\" contains '_'; "
                            + "the JSON form of a path is lowerCamelCase"
                    )
                }
                if scalar.properties.isUppercase {
                    snakeCase.append("_")
                    snakeCase.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
                } else {
                    snakeCase.append(scalar)
                }
            }
            paths.append(String(snakeCase))
        }
        return paths
    }

    private static func fieldMaskFailure(_ path: String, _ problem: String) -> CodecError {
        CodecError(
            code: .invalidJSONValue,
            message: "FieldMask path \"\(JSONValue.shortened(path))\" \(problem), so it has no JSON form"
        )
    }
}
