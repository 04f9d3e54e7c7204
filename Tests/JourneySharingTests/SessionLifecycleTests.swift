import FleetEngineCodec
import FleetEngineTestSupport
import Foundation
import Testing
import TripTracking

@testable import JourneySharing

@Suite("journey sharing sessions")
struct SessionLifecycleTests {
    @Test("the first viewer makes following active; a second shares its refreshes; the last leaving makes it idle")
    func viewersShareOneFollowing() async throws {
        try await withPages { harness in
            try harness.addMovingTrip("shared")
            let model = harness.service.tripModel(for: "shared")
            let session = harness.session("shared")
            #expect(model.modelState == .idle)
            await withThrowingTaskGroup(of: Void.self) { group in
                let first = ViewerRecorder(session)
                group.addTask { try await first.consume() }
                #expect(await waitUntil { first.seqs == [1] })
                #expect(model.modelState == .following)
                #expect(model.refreshCount == 1)

                // The second viewer gets the latest state at once, from the session: no call.
                let second = ViewerRecorder(session)
                group.addTask { try await second.consume() }
                #expect(await waitUntil { second.seqs == [1] })
                #expect(model.refreshCount == 1)
                #expect(session.viewerCount == 2)
                #expect(harness.pages.viewerCount(of: "shared") == 2)

                // One refresh, one message, to both.
                await harness.step("shared")
                #expect(await waitUntil { first.seqs == [1, 2] && second.seqs == [1, 2] })
                #expect(model.refreshCount == 2)
                let latitudes = first.states.compactMap(\.vehicleLatitude)
                #expect(latitudes == [52.5, 52.501])
                #expect(second.states.compactMap(\.vehicleLatitude) == latitudes)

                group.cancelAll()
            }
            #expect(await waitUntil { session.viewerCount == 0 && model.modelState == .idle })
            #expect(model.refreshCount == 2)
        }
    }

    @Test("a viewer that does not take its messages is dropped when its buffer is full; the others get every one")
    func slowViewerIsDropped() async throws {
        var options = TripPagesOptions()
        options.viewerBufferLimit = 2
        try await withPages(options: options) { harness in
            try harness.addMovingTrip("slow")
            let model = harness.service.tripModel(for: "slow")
            let session = harness.session("slow")
            // Never read until the end: it holds two messages, and the third drops it.
            let stalled = session.openViewer()
            await withThrowingTaskGroup(of: Void.self) { group in
                let reader = ViewerRecorder(session)
                group.addTask { try await reader.consume() }
                #expect(await waitUntil { reader.seqs == [1] })
                await harness.step("slow")
                #expect(await waitUntil { reader.seqs == [1, 2] })
                #expect(session.viewerCount == 2)
                await harness.step("slow")
                #expect(await waitUntil { reader.seqs == [1, 2, 3] })
                #expect(session.viewerCount == 1)
                #expect(session.droppedViewerCount == 1)
                #expect(model.modelState == .following)
                group.cancelAll()
            }
            // What it held is still there, then its stream ends: the page reconnects.
            var held: [Int] = []
            for await buffer in stalled { held.append(try StateEvent(buffer).seq) }
            #expect(held == [1, 2])
            #expect(await waitUntil { model.modelState == .idle })
        }
    }

    @Test("a trip that ends sends its last state marked ended and ends every stream; a later viewer gets it at once")
    func endedTripEndsStreams() async throws {
        try await withPages { harness in
            try harness.addMovingTrip("ending", endsAt: 1)
            let model = harness.service.tripModel(for: "ending")
            let session = harness.session("ending")
            try await withThrowingTaskGroup(of: Void.self) { group in
                let viewer = ViewerRecorder(session)
                group.addTask { try await viewer.consume() }
                #expect(await waitUntil { viewer.seqs == [1] })
                await harness.step("ending")
                try await group.waitForAll()
                #expect(viewer.finished)
                #expect(viewer.states.map(\.status) == ["ENROUTE_TO_DROPOFF", "COMPLETE", "COMPLETE"])
                #expect(viewer.states.map(\.ended) == [false, false, true])
            }
            #expect(model.modelState == .ended(.complete))
            let late = ViewerRecorder(session)
            try await late.consume()
            #expect(late.finished)
            #expect(late.seqs == [3])
            #expect(late.states.first?.ended == true)
            #expect(model.refreshCount == 2)
        }
    }

    @Test("a trip the server does not have gives a state with the error and no trip")
    func failedRefreshIsShown() async throws {
        try await withPages { harness in
            let session = harness.session("missing")
            try await withThrowingTaskGroup(of: Void.self) { group in
                let viewer = ViewerRecorder(session)
                group.addTask { try await viewer.consume() }
                #expect(await waitUntil { viewer.seqs == [1] })
                let state = try #require(viewer.states.first)
                let error = try #require(state.json["error"] as? [String: Any])
                #expect(error["code"] as? String == "NOT_FOUND")
                #expect(state.status == nil)
                #expect(state.json["vehicle"] is NSNull)
                group.cancelAll()
            }
        }
    }

    @Test("the list asks once for the status of a listed trip nobody views, and lets it go")
    func listPeeksOnce() async throws {
        try await withPages { harness in
            try harness.addMovingTrip("listed")
            harness.pages.list(["listed", "providers/\(PagesHarness.provider)/trips/listed"])
            #expect(harness.pages.listedTrips == ["providers/\(PagesHarness.provider)/trips/listed"])
            let model = harness.service.tripModel(for: "listed")
            harness.pages.directory.peekAtListed()
            let session = harness.session("listed")
            #expect(await waitUntil { session.summary().status == .enrouteToDropoff && model.modelState == .idle })
            // Known now: asking again calls nothing.
            harness.pages.directory.peekAtListed()
            #expect(model.modelState == .idle)
            #expect(model.refreshCount == 1)
        }
    }
}
