/// What the gate makes of one measured count against its threshold.
enum AllocationVerdict: Equatable {
    /// Within the tolerance either way.
    case withinTolerance
    /// Above the threshold by more than the tolerance: the gate fails.
    case aboveThreshold
    /// Below the threshold by more than the tolerance: worth lowering the threshold, so that the
    /// saving is kept, but no failure.
    case wellBelowThreshold

    /// The verdict on `measured` mallocs per operation against `threshold`.
    init(measured: Double, threshold: AllocationThreshold, operation: GatedOperation) {
        let allowance = AllocationTolerance.allowance(for: threshold.mallocsPerOperation, of: operation)
        let limit = Double(threshold.mallocsPerOperation)
        if measured > limit + allowance {
            self = .aboveThreshold
        } else if measured < limit - allowance {
            self = .wellBelowThreshold
        } else {
            self = .withinTolerance
        }
    }

    /// One line for the report, naming the operation, the count and the threshold.
    static func line(
        _ verdict: AllocationVerdict, operation: GatedOperation, measured: Double, threshold: AllocationThreshold
    ) -> String {
        let allowance = AllocationFigure.text(
            AllocationTolerance.allowance(for: threshold.mallocsPerOperation, of: operation))
        let limit = threshold.mallocsPerOperation
        let count = "\(operation.rawValue): \(AllocationFigure.text(measured)) mallocs per operation"
        switch verdict {
        case .withinTolerance:
            return "ok    \(count) (threshold \(limit), tolerance \(allowance))"
        case .aboveThreshold:
            return "FAIL  \(count), above threshold \(limit) + tolerance \(allowance); find what allocates more, "
                + "or raise the threshold in a commit that says why"
        case .wellBelowThreshold:
            return "note  \(count), below threshold \(limit) - tolerance \(allowance); lower the threshold "
                + "(Scripts/check-allocations.sh --write-thresholds \(operation.rawValue)) so the saving is kept"
        }
    }
}
