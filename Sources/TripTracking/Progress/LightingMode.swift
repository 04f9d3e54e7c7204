/// The map lighting a navigation display would suggest: normal by day, low light by night.
public enum LightingMode: Sendable, Hashable, CustomStringConvertible {
    /// The sun is up at the vehicle.
    case normal
    /// The sun is down at the vehicle (its upper edge below the horizon).
    case lowLight

    /// `normal` or `lowLight`.
    public var description: String {
        switch self {
        case .normal: "normal"
        case .lowLight: "lowLight"
        }
    }
}
