import FleetEngineStatus
import FleetEngineWire
import MetricsTestKit
import Testing

@testable import FleetEngineClient

@Suite("Metrics labels stay bounded: status codes gRPC does not define share one label")
struct ClientMetricsLabelTests {
    @Test("fifty different unknown grpc-status numbers make one calls counter and one failures counter")
    func unknownCodesShareALabel() throws {
        let factory = TestMetrics()
        let metrics = ClientMetrics(factory: factory)
        for number in 0..<50 {
            metrics.record(method: .getTrip, code: StatusCode(rawValue: 1_000 + number), duration: .zero)
        }
        metrics.record(method: .getTrip, code: StatusCode(rawValue: -1), duration: .zero)
        metrics.record(method: .getTrip, code: .notFound, duration: .zero)
        #expect(factory.counters.count == 4)
        let calls = try factory.expectCounter(
            ClientMetrics.callsLabel, [("method", "GetTrip"), ("code", ClientMetrics.unrecognizedCodeLabel)])
        #expect(calls.totalValue == 51)
        let failures = try factory.expectCounter(
            ClientMetrics.failuresLabel, [("method", "GetTrip"), ("code", ClientMetrics.unrecognizedCodeLabel)])
        #expect(failures.totalValue == 51)
        let notFound = try factory.expectCounter(
            ClientMetrics.failuresLabel, [("method", "GetTrip"), ("code", "NOT_FOUND")])
        #expect(notFound.totalValue == 1)
    }
}
