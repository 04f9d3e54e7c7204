public import Foundation

/// The Python the tests run Google's packages with: the project's `.venv` (made by
/// `Scripts/setup.sh`) when there is one, else `python3` from the PATH.
public enum ProjectPython {
    /// The executable to start and the arguments that come before the script's path.
    public static func command() -> (executable: URL, leadingArguments: [String]) {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let venvPython = packageRoot.appendingPathComponent(".venv/bin/python3")
        if FileManager.default.isExecutableFile(atPath: venvPython.path) { return (venvPython, []) }
        return (URL(fileURLWithPath: "/usr/bin/env"), ["python3"])
    }
}
