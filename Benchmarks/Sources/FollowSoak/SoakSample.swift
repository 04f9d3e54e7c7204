import ProcessMeasures

/// One reading of the process taken every few seconds of the soak.
struct SoakSample: Sendable {
    var seconds: Double
    var residentBytes: Int
    var openFileDescriptors: Int
    var followedTrips: Int
    var faultsOn: Bool

    var jsonObject: String {
        "{\"seconds\":\(Int(seconds)),\"residentBytes\":\(residentBytes),\"openFileDescriptors\":\(openFileDescriptors),"
            + "\"followedTrips\":\(followedTrips),\"faultsOn\":\(faultsOn)}"
    }
}
