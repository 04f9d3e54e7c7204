import ArgumentParser
import FleetTripsCLI

/// The `fleettrips` executable: everything it does lives in FleetTripsCLI, so tests can run the
/// commands without starting a process.
@main
struct FleetTripsMain {
    static func main() async {
        await FleetTrips.main()
    }
}
