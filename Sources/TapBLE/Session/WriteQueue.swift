import DBus
import EventLoop
import Logging

/// Serialised writes to one characteristic: one at a time, each waiting for its reply, and
/// the next starting no sooner than `spacing` after the previous completed.
final class WriteQueue {
    private struct Item {
        let bytes: [UInt8]
        let completion: ((Bool) -> Void)?
    }

    private let connection: DBusConnection
    private let loop: EventLoop
    private let logger: Logger
    private let spacingMilliseconds: Int
    private let type: GattCharacteristic1.WriteType
    private var target: GattCharacteristic1?
    private var items: [Item] = []
    private var busy = false
    private var earliestNext = MonotonicInstant(nanoseconds: 0)
    private var timer: EventLoop.Timer?
    private var generation = 0

    init(connection: DBusConnection, loop: EventLoop, logger: Logger, spacingMilliseconds: Int,
         type: GattCharacteristic1.WriteType) {
        self.connection = connection
        self.loop = loop
        self.logger = logger
        self.spacingMilliseconds = spacingMilliseconds
        self.type = type
    }

    /// Points the queue at a characteristic (after each connect).
    func attach(_ characteristic: GattCharacteristic1) { target = characteristic }

    /// Queues `bytes`, unless the last queued write is identical (only the last: an earlier
    /// duplicate would leave a later, different write to win). `completion` gets whether
    /// the write succeeded.
    func enqueue(_ bytes: [UInt8], completion: ((Bool) -> Void)? = nil) {
        if completion == nil, let last = items.last, last.bytes == bytes, last.completion == nil { return }
        items.append(Item(bytes: bytes, completion: completion))
        pump()
    }

    var isIdle: Bool { items.isEmpty && !busy }

    /// Drops queued writes (failing their completions) and forgets the target.
    func reset() {
        generation += 1
        let dropped = items
        items.removeAll()
        busy = false
        target = nil
        if let t = timer { loop.cancel(t); timer = nil }
        for i in dropped { i.completion?(false) }
    }

    private func pump() {
        guard !busy, timer == nil, !items.isEmpty, let target else { return }
        let now = MonotonicInstant.now()
        if now < earliestNext {
            timer = loop.schedule(at: earliestNext) { [weak self] in
                self?.timer = nil
                self?.pump()
            }
            return
        }
        let item = items.removeFirst()
        busy = true
        let gen = generation
        logger.debug("write", metadata: ["char": "\(target.uuid.prefix(8))", "bytes": "\(hex(item.bytes))"])
        target.writeValue(item.bytes, type: type, on: connection) { [weak self] r in
            guard let self, gen == self.generation else { item.completion?(false); return }
            self.busy = false
            self.earliestNext = MonotonicInstant.now().adding(milliseconds: self.spacingMilliseconds)
            if case .failure(let e) = r { self.logger.warning("write \(hex(item.bytes)) failed: \(e)") }
            item.completion?((try? r.get()) != nil)
            self.pump()
        }
    }
}
