import DBus
import EventLoop
import Glibc
import Logging

/// Notifications from one characteristic: a socket from `AcquireNotify` read on the loop
/// (one datagram per notification), or, when BlueZ refuses that, `StartNotify` with values
/// arriving as `PropertiesChanged` (routed to ``deliver(_:)`` by the manager).
final class NotifyChannel {
    enum Transport { case none, socket, properties }

    let characteristic: GattCharacteristic1
    private let connection: DBusConnection
    private let loop: EventLoop
    private let logger: Logger
    /// Called with each notification's bytes; the buffer is only valid during the call.
    private let handler: (UnsafeRawBufferPointer) -> Void
    private(set) var transport: Transport = .none
    /// Called when BlueZ closes the notification socket (not after ``stop(linkUp:)``).
    var onClosed: (() -> Void)?
    private var fd: Int32 = -1
    private var watch: EventLoop.Watch?
    private var buffer: UnsafeMutableRawBufferPointer
    private var stopped = false

    init(characteristic: GattCharacteristic1, connection: DBusConnection, loop: EventLoop, logger: Logger,
         handler: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.characteristic = characteristic
        self.connection = connection
        self.loop = loop
        self.logger = logger
        self.handler = handler
        // Larger than any ATT MTU (517), so a datagram is never truncated.
        buffer = .allocate(byteCount: 1024, alignment: 8)
    }

    deinit {
        detach()   // the loop's watch closure holds this object unowned
        buffer.deallocate()
    }

    /// Subscribes; `done` gets the transport used, or the error if both ways failed.
    func start(done: @escaping (Result<Transport, DBusError>) -> Void) {
        characteristic.acquireNotify(on: connection) { [weak self] r in
            guard let self else {
                if case .success(let s) = r { closeFD(s.fd) }
                return
            }
            guard !self.stopped else {
                if case .success(let s) = r { closeFD(s.fd) }
                return
            }
            switch r {
            case .success(let s):
                self.attach(fd: s.fd)
                done(.success(.socket))
            case .failure(let e):
                self.logger.info("AcquireNotify refused, using StartNotify",
                                 metadata: ["char": "\(self.characteristic.uuid.prefix(8))", "error": "\(e.name)"])
                self.characteristic.startNotify(on: self.connection) { [weak self] r in
                    guard let self, !self.stopped else { return }
                    switch r {
                    case .success:
                        self.transport = .properties
                        done(.success(.properties))
                    case .failure(let e): done(.failure(e))
                    }
                }
            }
        }
    }

    private func attach(fd: Int32) {
        self.fd = fd
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        transport = .socket
        watch = loop.watch(fd: fd, events: .readable) { [unowned self] ready in self.readable(ready) }
    }

    /// Drains every queued datagram (the loop is level-triggered).
    private func readable(_ ready: EventLoop.Events) {
        while fd >= 0 {
            let n = recv(fd, buffer.baseAddress, buffer.count, 0)
            if n > 0 {
                handler(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                continue
            }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
            if n < 0 && errno == EINTR { continue }
            // EOF or error: BlueZ closed the socket (disconnect or notifications stopped).
            logger.debug("notification socket closed", metadata: ["char": "\(characteristic.uuid.prefix(8))"])
            detach()
            transport = .none
            if !stopped { onClosed?() }
            break
        }
    }

    /// A value from `PropertiesChanged` (StartNotify transport).
    func deliver(_ bytes: UnsafeRawBufferPointer) {
        guard transport == .properties else { return }
        handler(bytes)
    }

    private func detach() {
        if let w = watch { loop.remove(w); watch = nil }
        if fd >= 0 { closeFD(fd); fd = -1 }
    }

    /// Unsubscribes: closes the socket, or calls `StopNotify` if `linkUp`.
    func stop(linkUp: Bool) {
        stopped = true
        if transport == .properties && linkUp { characteristic.stopNotify(on: connection) { _ in } }
        detach()
        transport = .none
    }
}

/// `close(2)`, named so it does not clash with the types' own `close()` methods (also used by
/// BlueZ.swift for descriptors that arrive in replies nobody waits for any more).
@discardableResult
func closeFD(_ fd: Int32) -> Int32 { Glibc.close(fd) }
