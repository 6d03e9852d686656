import EventLoop
import Glibc

/// A non-blocking `AF_UNIX` stream connection watched by an ``EventLoop``: the transport of
/// the sway/i3 and Hyprland focus sources.
///
/// Bytes read are handed to `onData` as they arrive; writes are buffered and flushed when
/// the socket is writable, so a slow peer never blocks the loop. End of stream or an error
/// calls `onClose` once, after which the connection is closed and unregistered.
final class UnixStreamConnection {
    let path: String
    private(set) var fd: Int32 = -1
    private weak var loop: EventLoop?
    private var watch: EventLoop.Watch?
    private var outgoing: [UInt8] = []
    private var onData: (([UInt8]) -> Void)?
    private var onClose: ((String) -> Void)?

    /// Connects to the socket at `path` (the connect of a local socket does not wait for the
    /// peer to accept) and registers on `loop`. Throws the `errno` text when it fails.
    init(path: String, loop: EventLoop, onData: @escaping ([UInt8]) -> Void,
         onClose: @escaping (String) -> Void) throws(FocusSourceError) {
        self.path = path
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: addr.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else {
            throw FocusSourceError(source: "socket", message: "socket path too long or empty: \(path)")
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard s >= 0 else { throw FocusSourceError(source: "socket", message: "socket: \(Self.errnoText())") }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        // A local connect completes at once or fails. EAGAIN (the peer's listen backlog is
        // full) is a failure too: the socket stays unconnected, and the caller retries later.
        if rc != 0 && errno != EINPROGRESS {
            let text = Self.errnoText()
            Glibc.close(s)
            throw FocusSourceError(source: "socket", message: "connect \(path): \(text)")
        }
        self.fd = s
        self.loop = loop
        self.onData = onData
        self.onClose = onClose
        watch = loop.watch(fd: s, events: .readable) { [unowned self] events in self.ready(events) }
    }

    deinit { close() }

    /// Queues `bytes` and writes as much as the socket takes now.
    func send(_ bytes: [UInt8]) {
        guard fd >= 0 else { return }
        outgoing += bytes
        flush()
    }

    /// Closes without calling `onClose`.
    func close() {
        guard fd >= 0 else { return }
        if let watch, let loop { loop.remove(watch) }
        watch = nil
        Glibc.close(fd)
        fd = -1
        onData = nil
        onClose = nil
    }

    private func ready(_ events: EventLoop.Events) {
        if events.contains(.writable) { flush() }
        guard fd >= 0 else { return }
        if events.contains(.readable) || events.contains(.hangup) || events.contains(.error) { drain() }
    }

    /// Reads until the socket would block (the loop is level-triggered, but one read per
    /// wake-up would cost extra wake-ups for large replies such as sway's GET_TREE).
    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while fd >= 0 {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                onData?(Array(buffer[0..<n]))
            } else if n == 0 {
                fail("connection closed by peer")
                return
            } else if errno == EINTR {
                continue
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                return
            } else {
                fail("read: \(Self.errnoText())")
                return
            }
        }
    }

    private func flush() {
        while fd >= 0 && !outgoing.isEmpty {
            let n = outgoing.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 {
                outgoing.removeFirst(n)
            } else if n < 0 && errno == EINTR {
                continue
            } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                break
            } else {
                fail("write: \(Self.errnoText())")
                return
            }
        }
        guard fd >= 0, let watch, let loop else { return }
        let wanted: EventLoop.Events = outgoing.isEmpty ? .readable : [.readable, .writable]
        if watch.events != wanted { loop.update(watch, events: wanted) }
    }

    private func fail(_ reason: String) {
        let callback = onClose
        close()
        callback?(reason)
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}
