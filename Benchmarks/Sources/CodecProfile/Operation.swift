/// What one profiled call does.
enum Operation: String, CaseIterable {
    case decode, encode, json
}
