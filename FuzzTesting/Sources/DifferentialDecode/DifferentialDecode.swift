import FleetEngineCodec

#if canImport(Glibc)
    import Glibc
#endif

/// For the differential check against Google's parser (Scripts/differential-check.py): reads file
/// paths, one per line, from standard input; reads each file as FuzzDecode does (the first byte picks
/// the message type, binary inputs only) and prints one line per file:
/// `<path>\t<type>\t<hex of our re-encoding>` or `<path>\t<type>\tERROR <code>`.
/// Inputs FuzzDecode would read as JSON print `<path>\t-\tSKIP`.
@main
enum DifferentialDecode {
    static func main() {
        let messageTypes = MessageRegistry.allMessageTypes
        let digits = Array("0123456789abcdef".utf8)
        while let path = readLine() {
            guard let bytes = readFile(path), let selector = bytes.first else { continue }
            guard selector & 1 == 0 else {
                print("\(path)\t-\tSKIP")
                continue
            }
            let type = messageTypes[(Int(selector) >> 1) % messageTypes.count]
            do {
                let message = try type.init(serializedBytes: bytes.dropFirst(), options: DecodingOptions())
                let encoded = message.serializedBytes()
                let hex = String(
                    decoding: encoded.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] }, as: UTF8.self)
                print("\(path)\t\(type.protoMessageName)\t\(hex)")
            } catch {
                print("\(path)\t\(type.protoMessageName)\tERROR \(error.code)")
            }
        }
    }
}

func readFile(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count <= 0 { break }
        result.append(contentsOf: chunk[..<count])
    }
    return result
}
