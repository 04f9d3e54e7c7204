import FleetEngineTestSupport

/// The shared sample details under the name this target's tests use, so that a file can use them
/// without importing the support target itself.
typealias SampleDetails = FleetEngineTestSupport.SampleDetails
