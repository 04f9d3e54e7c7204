extension FleetEngineEmulator {
    /// The project's quota now: at most this many TripService calls a minute from all callers
    /// together; nil for none. It starts as ``EmulatorConfiguration/quotaPerMinute``.
    public var quotaPerMinute: Int? {
        quota.callsPerMinute
    }

    /// Changes the project's quota while the emulator runs, from the next call on; nil lifts it.
    ///
    /// What the quota's bucket has saved up stays, up to the new quota's burst of one second's
    /// worth, so a lowered quota holds at once; a quota set where there was none starts with a full
    /// burst. Safe to call while calls arrive.
    ///
    /// - Throws: ``EmulatorError/Code/invalidConfiguration`` for a quota below 1, leaving the quota
    ///   as it was.
    public func setQuotaPerMinute(_ callsPerMinute: Int?) throws(EmulatorError) {
        if let problem = ProjectQuota.problem(callsPerMinute: callsPerMinute) {
            throw EmulatorError(.invalidConfiguration, problem)
        }
        quota.setCallsPerMinute(callsPerMinute)
    }

    /// How many calls the project's quota let through and refused so far, to check that a client
    /// keeps to a budget: the calls that earlier checks refused are not counted.
    public var quotaUsage: QuotaUsage {
        quota.usage
    }
}
