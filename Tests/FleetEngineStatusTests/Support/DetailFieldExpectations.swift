import FleetEngineCodec
import FleetEngineStatus
import FleetEngineTestSupport
import Foundation
import Testing

/// Checks, field by field, that a typed detail holds what Python's `MessageToJson` printed for it.
///
/// Every member Python printed must be one this check reads, so a field the check forgets (or a
/// field a newer googleapis-common-protos adds) fails the test instead of passing unseen.
struct DetailFieldExpectations {
    var sourceLocation: SourceLocation

    func expect(_ detail: StatusDetail, matches json: SemanticJSON) {
        switch detail {
        case .errorInfo(let info):
            expectMembers(of: json, within: ["reason", "domain", "metadata"])
            expectString(info.reason, json["reason"])
            expectString(info.domain, json["domain"])
            #expect(info.metadata == (json["metadata"]?.stringMapValue ?? [:]), sourceLocation: sourceLocation)
        case .retryInfo(let info):
            expectMembers(of: json, within: ["retryDelay"])
            let expected = json["retryDelay"]?.stringValue.flatMap(Self.duration)
            #expect(info.retryDelay.map { [$0.seconds, Int64($0.nanos)] } == expected, sourceLocation: sourceLocation)
        case .debugInfo(let info):
            expectMembers(of: json, within: ["stackEntries", "detail"])
            #expect(info.stackEntries == strings(json["stackEntries"]), sourceLocation: sourceLocation)
            expectString(info.detail, json["detail"])
        case .quotaFailure(let failure):
            expectMembers(of: json, within: ["violations"])
            let expected = json["violations"]?.arrayValue ?? []
            #expect(failure.violations.count == expected.count, sourceLocation: sourceLocation)
            for (violation, json) in zip(failure.violations, expected) { expect(violation, matches: json) }
        case .preconditionFailure(let failure):
            expectMembers(of: json, within: ["violations"])
            let expected = json["violations"]?.arrayValue ?? []
            #expect(failure.violations.count == expected.count, sourceLocation: sourceLocation)
            for (violation, json) in zip(failure.violations, expected) {
                expectMembers(of: json, within: ["type", "subject", "description"])
                expectString(violation.type, json["type"])
                expectString(violation.subject, json["subject"])
                expectString(violation.description, json["description"])
            }
        case .badRequest(let request):
            expectMembers(of: json, within: ["fieldViolations"])
            let expected = json["fieldViolations"]?.arrayValue ?? []
            #expect(request.fieldViolations.count == expected.count, sourceLocation: sourceLocation)
            for (violation, json) in zip(request.fieldViolations, expected) { expect(violation, matches: json) }
        case .resourceInfo(let info):
            expectMembers(of: json, within: ["resourceType", "resourceName", "owner", "description"])
            expectString(info.resourceType, json["resourceType"])
            expectString(info.resourceName, json["resourceName"])
            expectString(info.owner, json["owner"])
            expectString(info.description, json["description"])
        case .help(let help):
            expectMembers(of: json, within: ["links"])
            let expected = json["links"]?.arrayValue ?? []
            #expect(help.links.count == expected.count, sourceLocation: sourceLocation)
            for (link, json) in zip(help.links, expected) {
                expectMembers(of: json, within: ["description", "url"])
                expectString(link.description, json["description"])
                expectString(link.url, json["url"])
            }
        case .localizedMessage(let message):
            expect(message, matches: json)
        case .requestInfo(let info):
            expectMembers(of: json, within: ["requestId", "servingData"])
            expectString(info.requestID, json["requestId"])
            expectString(info.servingData, json["servingData"])
        case .other, .undecodable:
            Issue.record("expected a typed detail, got \(detail)", sourceLocation: sourceLocation)
        }
    }

    private func expect(_ violation: QuotaFailure.Violation, matches json: SemanticJSON) {
        expectMembers(
            of: json,
            within: [
                "subject", "description", "apiService", "quotaMetric", "quotaId", "quotaDimensions", "quotaValue",
                "futureQuotaValue",
            ]
        )
        expectString(violation.subject, json["subject"])
        expectString(violation.description, json["description"])
        expectString(violation.apiService, json["apiService"])
        expectString(violation.quotaMetric, json["quotaMetric"])
        expectString(violation.quotaID, json["quotaId"])
        #expect(
            violation.quotaDimensions == (json["quotaDimensions"]?.stringMapValue ?? [:]),
            sourceLocation: sourceLocation)
        // proto3 JSON prints 64-bit integers as strings.
        #expect(
            violation.quotaValue == (json["quotaValue"]?.stringValue.flatMap { Int64($0) } ?? 0),
            sourceLocation: sourceLocation)
        #expect(
            violation.futureQuotaValue == json["futureQuotaValue"]?.stringValue.flatMap { Int64($0) },
            sourceLocation: sourceLocation)
    }

    private func expect(_ violation: BadRequest.FieldViolation, matches json: SemanticJSON) {
        expectMembers(of: json, within: ["field", "description", "reason", "localizedMessage"])
        expectString(violation.field, json["field"])
        expectString(violation.description, json["description"])
        expectString(violation.reason, json["reason"])
        #expect(
            (violation.localizedMessage == nil) == (json["localizedMessage"] == nil), sourceLocation: sourceLocation)
        if let message = violation.localizedMessage, let json = json["localizedMessage"] {
            expect(message, matches: json)
        }
    }

    private func expect(_ message: LocalizedMessage, matches json: SemanticJSON) {
        expectMembers(of: json, within: ["locale", "message"])
        expectString(message.locale, json["locale"])
        expectString(message.message, json["message"])
    }

    /// proto3 JSON leaves out a string at its default, so an absent member stands for "".
    private func expectString(_ actual: String, _ json: SemanticJSON?) {
        #expect(actual == (json?.stringValue ?? ""), sourceLocation: sourceLocation)
    }

    private func strings(_ json: SemanticJSON?) -> [String] {
        (json?.arrayValue ?? []).compactMap(\.stringValue)
    }

    private func expectMembers(of json: SemanticJSON, within known: Set<String>) {
        guard case .object(let members) = json else {
            Issue.record("expected a JSON object, got \(json)", sourceLocation: sourceLocation)
            return
        }
        let unread = Set(members.keys).subtracting(known)
        #expect(unread.isEmpty, "members this check does not read: \(unread.sorted())", sourceLocation: sourceLocation)
    }

    /// `[seconds, nanos]` of a proto3 JSON duration such as `"2.250s"` or `"-1.000000005s"`.
    static func duration(_ text: String) -> [Int64]? {
        guard text.hasSuffix("s") else { return nil }
        var body = text.dropLast()
        let negative = body.hasPrefix("-")
        if negative { body = body.dropFirst() }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let seconds = Int64(parts[0]) else { return nil }
        var nanos: Int64 = 0
        if parts.count == 2 {
            let fraction = String(parts[1])
            guard fraction.count <= 9, let value = Int64(fraction.padding(toLength: 9, withPad: "0", startingAt: 0))
            else { return nil }
            nanos = value
        }
        return negative ? [-seconds, -nanos] : [seconds, nanos]
    }
}
