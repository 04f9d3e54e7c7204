import FleetEngineWire
import Testing

@Suite("GRPCMethodPath")
struct GRPCMethodPathTests {
    @Test("builds the path from service and method")
    func fromParts() {
        let path = GRPCMethodPath(service: "maps.fleetengine.v1.TripService", method: "GetTrip")
        #expect(path.path == "/maps.fleetengine.v1.TripService/GetTrip")
        #expect(path.service == "maps.fleetengine.v1.TripService")
        #expect(path.method == "GetTrip")
        #expect(path.description == "/maps.fleetengine.v1.TripService/GetTrip")
    }

    @Test("reads a path back into the same service and method")
    func parses() throws {
        let path = try GRPCMethodPath(path: "/maps.fleetengine.v1.TripService/SearchTrips")
        #expect(path == .searchTrips)
        #expect(path.service == "maps.fleetengine.v1.TripService")
        #expect(path.method == "SearchTrips")
    }

    @Test("names the six TripService methods of trip_api.proto in its package maps.fleetengine.v1")
    func tripServiceConstants() {
        #expect(
            GRPCMethodPath.tripServiceMethods.map(\.path) == [
                "/maps.fleetengine.v1.TripService/CreateTrip",
                "/maps.fleetengine.v1.TripService/GetTrip",
                "/maps.fleetengine.v1.TripService/DeleteTrip",
                "/maps.fleetengine.v1.TripService/ReportBillableTrip",
                "/maps.fleetengine.v1.TripService/SearchTrips",
                "/maps.fleetengine.v1.TripService/UpdateTrip",
            ])
        #expect(GRPCMethodPath.createTrip.method == "CreateTrip")
        #expect(GRPCMethodPath.getTrip.method == "GetTrip")
        #expect(GRPCMethodPath.deleteTrip.method == "DeleteTrip")
        #expect(GRPCMethodPath.reportBillableTrip.method == "ReportBillableTrip")
        #expect(GRPCMethodPath.updateTrip.method == "UpdateTrip")
    }

    @Test(
        "refuses anything that is not /Service/Method, saying why",
        arguments: [
            ("", ":path \"\" does not start with '/'"),
            ("Service/Method", ":path \"Service/Method\" does not start with '/'"),
            ("/", ":path \"/\" has no '/' between service and method"),
            ("/ServiceOnly", ":path \"/ServiceOnly\" has no '/' between service and method"),
            ("//Method", ":path \"//Method\" has an empty service name"),
            ("/Service/", ":path \"/Service/\" has an empty method name"),
            ("/a/b/c", ":path \"/a/b/c\" has more than two '/'; a gRPC path is /Service/Method"),
            ("/a/b?x=1", ":path \"/a/b?x=1\" has '?' at byte 4"),
            ("/a b/c", ":path \"/a b/c\" has byte 0x20 at byte 2"),
            ("/a/\u{e9}", ":path \"/a/\u{e9}\" has byte 0xc3 at byte 3"),
        ])
    func refusesMalformed(path: String, message: String) throws {
        let error = try #require(throws: WireError(.invalidMethodPath)) { try GRPCMethodPath(path: path) }
        #expect(error.message == message)
    }
}
