/// Reports a finding and stops the process, which libFuzzer records as a crash.
public func fail(_ finding: String) -> Never {
    print("FINDING: " + finding)
    fatalError(finding)
}
