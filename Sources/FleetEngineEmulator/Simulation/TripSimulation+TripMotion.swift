/// A simulated trip is what the store moves a seeded trip with: ``TripSimulation/trip(at:)`` is the
/// whole trip at any elapsed time.
extension TripSimulation: TripMotion {}
