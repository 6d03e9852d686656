/// The names `[gestures]` tables use for air-gesture and TapXR hand-state codes.
public enum GestureNames {
    /// Name -> code. Codes follow tap-protocol §2.3 (10 from the wire is pinch; 12 and 14
    /// are the thumb-touch codes synthesized from taps in air-gesture state).
    public static let codes: [String: Int] = [
        "general": 1, "up-one-finger": 2, "up-two-fingers": 3, "down-one-finger": 4, "down-two-fingers": 5,
        "left-one-finger": 6, "left-two-fingers": 7, "right-one-finger": 8, "right-two-fingers": 9,
        "pinch": 10, "thumb-index": 12, "thumb-middle": 14,
        // TapXR hand states: a key or button bound here is held while the hand stays in the state.
        "hand-open": 100, "hand-thumb-index": 101, "hand-thumb-middle": 102, "hand-thumb-ring": 103,
        "hand-thumb-pinky": 104, "hand-fist": 105,
    ]

    /// The name of `code`, if it has one.
    public static func name(for code: Int) -> String? { namesByCode[code] }

    private static let namesByCode: [Int: String] = Dictionary(uniqueKeysWithValues: codes.map { ($1, $0) })
}
