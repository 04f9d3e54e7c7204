import CaptureFuzzing
import FleetEngineStatus

/// One libFuzzer run: the input (after byte 0) as a name's text, read as UTF-8 (a bad sequence becomes
/// U+FFFD). Byte 0 picks the parser: `TripName(parsing:)` (even) or `BillableTripName(parsing:)`
/// (odd); `TripName.providerID(parsingParent:)` reads the text too.
///
/// Checks against this file's own reading of the rules (split at every `/` scalar; a provider id of
/// 1 to 63 ASCII letters, digits, `-`, `_` and `.`; a trip id of 1 to 64 Unicode scalars without
/// `/ : ? , #` or a control character): a name parses exactly when the rules say it should, and
/// prints back as the same string, with the parts the rules name; its parts build the same name; a
/// billable trip name's trip is the trip name with the same ids; `lastSegment(of:)` is the trip id.
/// A refusal is INVALID_ARGUMENT with a message and a `BadRequest` violation of the field.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    guard let selector = input.first else { return 0 }
    let text = String(decoding: input.dropFirst(), as: UTF8.self)
    if selector & 1 == 0 {
        checkTripName(text)
    } else {
        checkBillableTripName(text)
    }
    checkParent(text)
    return 0
}

func checkTripName(_ text: String) {
    let expected = expectedParts(of: text, collection: "trips")
    let name: TripName
    do throws(FleetEngineError) {
        name = try TripName(parsing: text, field: "trip.name")
    } catch {
        checkRefusal(error, field: "trip.name", of: text)
        if let expected { fail("\"\(text)\" is a valid trip name \(expected), refused: \(error.message)") }
        return
    }
    guard let expected else { fail("\"\(text)\" is no valid trip name, parsed as \(name)") }
    guard same(name.providerID, expected.provider), same(name.tripID, expected.id), same(name.description, text) else {
        fail("\"\(text)\" parsed as provider \"\(name.providerID)\", trip \"\(name.tripID)\", printed \(name)")
    }
    if name.parent != "providers/" + expected.provider { fail("\(name)'s parent is \(name.parent)") }
    if !same(TripName.lastSegment(of: text), name.tripID) { fail("the last segment of \"\(text)\" is not its trip id") }
    do throws(FleetEngineError) {
        let rebuilt = try TripName(providerID: name.providerID, tripID: name.tripID)
        if rebuilt != name { fail("\(name) rebuilt from its parts is \(rebuilt)") }
    } catch {
        fail("the parts of \(name) were refused: \(error.message)")
    }
}

func checkBillableTripName(_ text: String) {
    let expected = expectedParts(of: text, collection: "billableTrips")
    let name: BillableTripName
    do throws(FleetEngineError) {
        name = try BillableTripName(parsing: text)
    } catch {
        checkRefusal(error, field: "name", of: text)
        if let expected { fail("\"\(text)\" is a valid billable trip name \(expected), refused: \(error.message)") }
        return
    }
    guard let expected else { fail("\"\(text)\" is no valid billable trip name, parsed as \(name)") }
    guard same(name.providerID, expected.provider), same(name.billableTripID, expected.id), same(name.description, text)
    else {
        fail("\"\(text)\" parsed as provider \"\(name.providerID)\", trip \"\(name.billableTripID)\", printed \(name)")
    }
    let tripText = "providers/\(expected.provider)/trips/\(expected.id)"
    do throws(FleetEngineError) {
        let trip = try TripName(parsing: tripText)
        if name.tripName != trip || BillableTripName(reporting: trip) != name {
            fail("\(name) reports trip \(name.tripName), its trip name reads as \(trip)")
        }
    } catch {
        fail("\(name) is valid, the trip name \"\(tripText)\" with its ids was refused: \(error.message)")
    }
}

func checkParent(_ text: String) {
    let scalars = Array(text.unicodeScalars)
    let parts = scalars.split(separator: "/", omittingEmptySubsequences: false).map {
        String(String.UnicodeScalarView($0))
    }
    let valid = parts.count == 2 && parts[0] == "providers" && isProviderID(parts[1])
    do throws(FleetEngineError) {
        let provider = try TripName.providerID(parsingParent: text)
        if !valid || !same(provider, parts[1]) { fail("\"\(text)\" read as the parent of provider \"\(provider)\"") }
    } catch {
        checkRefusal(error, field: "parent", of: text)
        if valid { fail("\"\(text)\" is a valid parent, refused: \(error.message)") }
    }
}

/// The provider id and the id of `providers/{provider}/{collection}/{id}` when the text is a valid
/// name of the collection by the rules, nil otherwise.
func expectedParts(of text: String, collection: String) -> (provider: String, id: String)? {
    let parts = text.unicodeScalars.split(separator: "/", omittingEmptySubsequences: false)
        .map { String(String.UnicodeScalarView($0)) }
    guard parts.count == 4, parts[0] == "providers", parts[2] == collection, isProviderID(parts[1]) else {
        return nil
    }
    let id = parts[3].unicodeScalars
    guard (1...64).contains(id.count),
        !id.contains(where: { "/:?,#".unicodeScalars.contains($0) || $0.properties.generalCategory == .control })
    else { return nil }
    return (parts[1], parts[3])
}

func isProviderID(_ text: String) -> Bool {
    (1...63).contains(text.utf8.count)
        && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                true
            default: false
            }
        }
}

/// Whether two strings are the same bytes (`==` on strings compares canonical equivalence).
func same(_ first: String, _ second: String) -> Bool {
    first.utf8.elementsEqual(second.utf8)
}

/// A refusal must be INVALID_ARGUMENT with a message and one `BadRequest` violation of `field`.
func checkRefusal(_ error: FleetEngineError, field: String, of text: String) {
    guard error.code == .invalidArgument, !error.message.isEmpty else {
        fail("\"\(text)\" was refused with \(error.code) \"\(error.message)\"")
    }
    guard error.details.count == 1, case .badRequest(let request) = error.details[0],
        request.fieldViolations.count == 1, request.fieldViolations[0].field == field
    else {
        fail("\"\(text)\" was refused without one BadRequest violation of \(field): \(error.details)")
    }
}

/// The program's entry: SwiftPM links `main` to this symbol; it hands control to libFuzzer.
@_cdecl("FuzzResourceNames_main")
public func fuzzResourceNamesMain(
    _ argumentCount: CInt,
    _ arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    LibFuzzerEntry.run(argumentCount, arguments) { fuzz($0, $1) }
}
