extension FleetEngineEmulator {
    /// The faults calls meet now. It starts as ``EmulatorConfiguration/faults``.
    public var faultPlan: FaultPlan {
        faults.plan
    }

    /// Changes the faults while the emulator runs, from the next call on: failures, delays, the
    /// rate limit and connection drops; GOAWAY by age within a second, for connections open now
    /// too. A soak test turns them on and off this way, and checks that its client recovers once
    /// they stop. Safe to call while calls arrive; a call under way keeps the plan it found.
    ///
    /// - Throws: ``EmulatorError/Code/invalidConfiguration`` for a plan that is meaningless (as
    ///   ``init(configuration:time:logger:)`` says); the plan stays as it was.
    public func setFaultPlan(_ plan: FaultPlan) throws(EmulatorError) {
        if let problem = plan.problem { throw EmulatorError(.invalidConfiguration, problem) }
        faults.setPlan(plan)
    }
}
