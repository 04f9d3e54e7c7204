import Foundation

/// The gate's emulator process (``GateEmulator``): started with the gate's own executable, asked
/// for its port, and ended by closing its standard input.
final class EmulatorProcess {
    /// The port it listens on, on 127.0.0.1.
    let port: Int
    private let process: Process
    private let input: Pipe

    /// Starts the process and waits for its port.
    init() throws(AllocationGateError) {
        let process = Process()
        // /proc/self/exe is this executable whatever the working folder or PATH it was run from.
        let own = FileManager.default.fileExists(atPath: "/proc/self/exe") ? "/proc/self/exe" : CommandLine.arguments[0]
        process.executableURL = URL(fileURLWithPath: own)
        process.arguments = ["--serve-emulator"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            throw AllocationGateError("cannot start the emulator process (\(own) --serve-emulator): \(error)")
        }
        self.process = process
        self.input = input
        var text = ""
        while !text.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let line = text.split(separator: "\n").first.map(String.init) ?? ""
        guard line.hasPrefix(GateEmulator.portLinePrefix),
            let port = Int(line.dropFirst(GateEmulator.portLinePrefix.count))
        else {
            process.terminate()
            throw AllocationGateError("the emulator process did not say its port; it wrote \"\(text)\"")
        }
        self.port = port
    }

    /// Closes the process's standard input, which ends it, and waits until it has.
    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
