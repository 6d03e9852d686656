/// Where input events go: the seam between the frame writer and the kernel.
///
/// ``UinputSink`` writes to `/dev/uinput`; ``RecordingSink`` keeps the events for tests and
/// the benchmark. A batch is one frame for one device and always ends with `SYN_REPORT`.
public protocol EventSink: AnyObject {
    /// Writes `events` to the device for `role`. Throws if the device is gone.
    func write(_ events: [RawInputEvent], to role: DeviceProfile.Role) throws
}

/// An ``EventSink`` that remembers every batch, for tests and benchmarks.
public final class RecordingSink: EventSink {
    /// Every batch written, in order.
    public private(set) var batches: [(role: DeviceProfile.Role, events: [RawInputEvent])] = []
    /// Called after each batch is recorded (the benchmark timestamps here).
    public var onWrite: ((DeviceProfile.Role, [RawInputEvent]) -> Void)?

    public init() {}

    public func write(_ events: [RawInputEvent], to role: DeviceProfile.Role) throws {
        batches.append((role, events))
        onWrite?(role, events)
    }

    /// All events written to `role`, flattened, as `KEY_A 1` lines.
    public func lines(for role: DeviceProfile.Role) -> [String] {
        batches.filter { $0.role == role }.flatMap { $0.events.map(\.description) }
    }

    public func removeAll() { batches.removeAll() }
}
