import ChordMap
@testable import TapUinput

/// An ``EngineClock`` the test moves by hand: the engine driver's timing on virtual time.
final class VirtualClock: EngineClock {
    private(set) var time = EngineTime.milliseconds(1000)
    private var armed: (deadline: EngineTime, fire: () -> Void)?
    /// The deadline the driver has armed, if any.
    var armedDeadline: EngineTime? { armed?.deadline }

    func now() -> EngineTime { time }

    func arm(_ deadline: EngineTime?, fire: @escaping () -> Void) {
        armed = deadline.map { ($0, fire) }
    }

    /// Moves time forward by `milliseconds`, firing each deadline that falls inside at its time.
    func advance(milliseconds: UInt64) {
        let end = time.adding(nanoseconds: milliseconds * 1_000_000)
        while let due = armed, due.deadline <= end {
            armed = nil
            time = max(time, due.deadline)
            due.fire()
        }
        time = end
    }
}
