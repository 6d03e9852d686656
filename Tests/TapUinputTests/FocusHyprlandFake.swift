import EventLoop
import Glibc
@testable import TapUinput

/// A protocol-level stand-in for Hyprland (which cannot run here): the two sockets of an
/// instance directory, served on the test's ``EventLoop``.
///
/// - `.socket2.sock` accepts any number of clients; ``send(_:)`` writes raw bytes to all.
/// - `.socket.sock` answers `j/activewindow` with ``activeWindowJSON`` (`j/devices` with
///   ``devicesJSON``) and closes, as
///   Hyprland does; every request is recorded in ``requests``.
final class FakeHyprland {
    let directory: String
    var activeWindowJSON = "{}"
    /// The answer to `j/devices` (the keyboards' layouts at start).
    var devicesJSON = #"{"mice": [], "keyboards": []}"#
    private(set) var requests: [String] = []
    private(set) var eventClients: [Int32] = []
    private let loop: EventLoop
    private var listeners: [(fd: Int32, watch: EventLoop.Watch)] = []
    private var requestWatches: [Int32: EventLoop.Watch] = [:]
    private let root: String

    init(loop: EventLoop, signature: String = "fake_1700000000_123") throws {
        self.loop = loop
        root = try makeTemporaryDirectory("focus-hypr")
        directory = "\(root)/hypr/\(signature)"
        mkdir("\(root)/hypr", 0o700)
        mkdir(directory, 0o700)
        try listen()
    }

    var runtimeDirectory: String { root }

    /// (Re)opens both listening sockets.
    func listen() throws {
        let events = try Self.listeningSocket(directory + "/.socket2.sock")
        let eventsWatch = loop.watch(fd: events, events: .readable) { [unowned self] _ in
            let c = accept(events, nil, nil)
            if c >= 0 { self.eventClients.append(c) }
        }
        let requests = try Self.listeningSocket(directory + "/.socket.sock")
        let requestsWatch = loop.watch(fd: requests, events: .readable) { [unowned self] _ in
            let c = accept(requests, nil, nil)
            guard c >= 0 else { return }
            self.requestWatches[c] = self.loop.watch(fd: c, events: .readable) { [unowned self] _ in self.answer(c) }
        }
        listeners = [(events, eventsWatch), (requests, requestsWatch)]
    }

    private func answer(_ c: Int32) {
        var buf = [UInt8](repeating: 0, count: 1024)
        let n = read(c, &buf, buf.count)
        if n > 0 {
            requests.append(String(decoding: buf[0..<n], as: UTF8.self))
            let reply = Array((requests.last == "j/devices" ? devicesJSON : activeWindowJSON).utf8)
            _ = write(c, reply, reply.count)
        }
        if let w = requestWatches.removeValue(forKey: c) { loop.remove(w) }
        close(c)
    }

    /// Writes `text` as is (several lines, or part of one) to every event client.
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        for c in eventClients { _ = Glibc.send(c, bytes, bytes.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Closes every connection and both listening sockets, as when Hyprland exits.
    func shutDown() {
        eventClients.forEach { close($0) }
        eventClients = []
        for l in listeners { loop.remove(l.watch); close(l.fd) }
        listeners = []
        unlink(directory + "/.socket2.sock")
        unlink(directory + "/.socket.sock")
    }

    deinit {
        shutDown()
        removeTree(root)
    }

    static func listeningSocket(_ path: String) throws -> Int32 {
        let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            let b = Array(path.utf8)
            raw.copyBytes(from: b)
            raw[b.count] = 0
        }
        let ok = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard ok == 0, Glibc.listen(s, 8) == 0 else { throw TestFailure("cannot listen on \(path)") }
        return s
    }
}
