import CLibFuzzer

/// Hands a fuzzer's process to libFuzzer: what a target's `<Target>_main` (the symbol
/// SwiftPM links `main` to) calls with its arguments and its test function.
public enum LibFuzzerEntry {
    /// Runs libFuzzer's driver with the program's arguments, calling `test` for each input.
    public static func run(
        _ argumentCount: CInt,
        _ arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
        test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt {
        var argumentCount = argumentCount
        var arguments = arguments
        return LLVMFuzzerRunDriver(&argumentCount, &arguments, test)
    }
}
