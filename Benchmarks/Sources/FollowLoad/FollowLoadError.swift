/// Why the benchmark could not run: a message that says what and where.
struct FollowLoadError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
