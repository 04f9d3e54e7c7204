import ArgumentParser
import FleetEngineCodec
import Foundation

extension FieldMask {
    /// The mask a command-line argument names: field paths separated by commas, each in the
    /// schema's snake_case (`trip_status`) or in proto3 JSON's lowerCamelCase (`tripStatus`), with
    /// `.` between the fields of a nested path. The mask holds them in snake_case, as the binary
    /// form carries them.
    ///
    /// - Throws: `ValidationError` for an empty path or a character no field name has.
    static func parsingArgument(_ text: String, option: String = "--mask") throws(ValidationError) -> FieldMask {
        var mask = FieldMask()
        for path in text.split(separator: ",", omittingEmptySubsequences: false) {
            let field = path.trimmingCharacters(in: .whitespaces)
            guard !field.isEmpty, !field.split(separator: ".", omittingEmptySubsequences: false).contains("") else {
                throw ValidationError(
                    "\(option) '\(text)' has an empty field path; give paths separated by commas, e.g. "
                        + "trip_status,vehicle_id")
            }
            var snakeCase = ""
            for character in field {
                guard character.isASCII,
                    character.isLetter || character.isNumber || character == "_" || character == "."
                else {
                    throw ValidationError(
                        "\(option): '\(field)' is not a field path; '\(character)' is in no field name")
                }
                if character.isUppercase {
                    snakeCase += "_" + character.lowercased()
                } else {
                    snakeCase.append(character)
                }
            }
            mask.paths.append(snakeCase)
        }
        return mask
    }
}
