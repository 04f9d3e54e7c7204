import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension EmulatorError {
    /// A system call on the data folder failed with `errorNumber` (pass `errno` first, before
    /// anything else can change it): `what`, then the system's words for the failure; the cause is
    /// an `IOError` carrying the number.
    static func storageFailed(_ errorNumber: Int32, _ what: String) -> EmulatorError {
        EmulatorError(
            .storageFailed, what + ": " + systemText(errorNumber), cause: IOError(errnoCode: errorNumber, reason: what))
    }

    /// The system's words for the error number `errorNumber`; for `ELOOP`, which the data folder's
    /// files give when one is a symbolic link (they are opened `O_NOFOLLOW`), that it is one.
    static func systemText(_ errorNumber: Int32) -> String {
        let text = String(cString: strerror(errorNumber))
        guard errorNumber == ELOOP else { return text }
        return "it is a symbolic link, which the emulator does not follow (\(text))"
    }
}
