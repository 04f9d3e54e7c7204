/// How many TripService calls the emulator's project quota let through and refused, counted since
/// the emulator was made.
///
/// Every call that reaches the quota is counted, with or without a quota set (see
/// ``FleetEngineEmulator/quotaPerMinute``): calls refused before it (an injected failure, a token
/// that does not verify, a malformed name, missing rights, the per-token rate limit) are not.
public struct QuotaUsage: Sendable, Hashable, CustomStringConvertible {
    /// Calls the quota let through to the service.
    public var admitted: Int
    /// Calls the quota refused with RESOURCE_EXHAUSTED.
    public var refused: Int

    /// Counts of calls let through and refused.
    public init(admitted: Int = 0, refused: Int = 0) {
        self.admitted = admitted
        self.refused = refused
    }

    /// Both counts, as `admitted 12, refused 3`.
    public var description: String {
        "admitted \(admitted), refused \(refused)"
    }
}
