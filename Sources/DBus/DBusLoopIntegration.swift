import CDBus
import EventLoop

/// Drives one libdbus connection from the ``EventLoop``: its watches become loop fd
/// watches, its timeouts loop timers, and dispatching is posted to the loop whenever libdbus
/// reports that messages remain.
///
/// libdbus calls the C hooks below with an unretained pointer to this object as context; the
/// owning ``DBusConnection`` keeps it alive and detaches it (setting the hooks to NULL)
/// before it goes away.
final class DBusLoopIntegration {
    let loop: EventLoop
    private let conn: OpaquePointer
    private var watches: [OpaquePointer: EventLoop.Watch] = [:]
    private var timers: [OpaquePointer: EventLoop.Timer] = [:]
    private var dispatchPosted = false
    private var attached = false

    init(loop: EventLoop, connection: OpaquePointer) {
        self.loop = loop
        self.conn = connection
    }

    /// Installs the hooks; libdbus immediately reports its existing watches.
    func attach() {
        attached = true
        let ctx = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_set_watch_functions(conn, { w, d in
            guard let w, let d else { return 0 }
            return Unmanaged<DBusLoopIntegration>.fromOpaque(d).takeUnretainedValue().addWatch(w) ? 1 : 0
        }, { w, d in
            guard let w, let d else { return }
            Unmanaged<DBusLoopIntegration>.fromOpaque(d).takeUnretainedValue().removeWatch(w)
        }, { w, d in
            guard let w, let d else { return }
            Unmanaged<DBusLoopIntegration>.fromOpaque(d).takeUnretainedValue().toggleWatch(w)
        }, ctx, nil)
        dbus_connection_set_timeout_functions(conn, { t, d in
            guard let t, let d else { return 0 }
            Unmanaged<DBusLoopIntegration>.fromOpaque(d).takeUnretainedValue().addTimeout(t)
            return 1
        }, { t, d in
            guard let t, let d else { return }
            Unmanaged<DBusLoopIntegration>.fromOpaque(d).takeUnretainedValue().removeTimeout(t)
        }, { t, d in
            guard let t, let d else { return }
            Unmanaged<DBusLoopIntegration>.fromOpaque(d).takeUnretainedValue().toggleTimeout(t)
        }, ctx, nil)
        dbus_connection_set_dispatch_status_function(conn, { _, status, d in
            guard let d, status == DBUS_DISPATCH_DATA_REMAINS else { return }
            Unmanaged<DBusLoopIntegration>.fromOpaque(d).takeUnretainedValue().scheduleDispatch()
        }, ctx, nil)
        scheduleDispatch()
    }

    /// Removes the hooks and every loop registration.
    func detach() {
        guard attached else { return }
        attached = false
        dbus_connection_set_dispatch_status_function(conn, nil, nil, nil)
        dbus_connection_set_watch_functions(conn, nil, nil, nil, nil, nil)
        dbus_connection_set_timeout_functions(conn, nil, nil, nil, nil, nil)
        for w in watches.values { loop.remove(w) }
        for t in timers.values { loop.cancel(t) }
        watches.removeAll()
        timers.removeAll()
    }

    /// Posts one dispatch run to the loop (never dispatches re-entrantly from a hook).
    func scheduleDispatch() {
        guard !dispatchPosted, attached else { return }
        dispatchPosted = true
        loop.post { [weak self] in self?.dispatch() }
    }

    private func dispatch() {
        dispatchPosted = false
        guard attached else { return }
        // Bounded so one busy connection cannot starve the loop; the rest is posted again.
        var budget = 64
        // `attached` is checked every round: a handler may close the connection (detaching it).
        while budget > 0, attached, dbus_connection_dispatch(conn) == DBUS_DISPATCH_DATA_REMAINS { budget -= 1 }
        if attached, dbus_connection_get_dispatch_status(conn) == DBUS_DISPATCH_DATA_REMAINS { scheduleDispatch() }
    }

    // MARK: Watches

    private func loopEvents(_ w: OpaquePointer) -> EventLoop.Events {
        let flags = dbus_watch_get_flags(w)
        var ev: EventLoop.Events = []
        if flags & DBUS_WATCH_READABLE.rawValue != 0 { ev.insert(.readable) }
        if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { ev.insert(.writable) }
        return ev
    }

    private func addWatch(_ w: OpaquePointer) -> Bool {
        let fd = dbus_watch_get_unix_fd(w)
        guard fd >= 0 else { return false }
        let lw = loop.watch(fd: fd, events: loopEvents(w)) { [unowned self] ready in self.handle(w, ready) }
        loop.update(lw, enabled: dbus_watch_get_enabled(w) != 0)
        watches[w] = lw
        return true
    }

    private func removeWatch(_ w: OpaquePointer) {
        if let lw = watches.removeValue(forKey: w) { loop.remove(lw) }
    }

    private func toggleWatch(_ w: OpaquePointer) {
        guard let lw = watches[w] else { return }
        loop.update(lw, events: loopEvents(w), enabled: dbus_watch_get_enabled(w) != 0)
    }

    private func handle(_ w: OpaquePointer, _ ready: EventLoop.Events) {
        var flags: UInt32 = 0
        if ready.contains(.readable) { flags |= DBUS_WATCH_READABLE.rawValue }
        if ready.contains(.writable) { flags |= DBUS_WATCH_WRITABLE.rawValue }
        if ready.contains(.error) { flags |= DBUS_WATCH_ERROR.rawValue }
        if ready.contains(.hangup) { flags |= DBUS_WATCH_HANGUP.rawValue }
        _ = dbus_watch_handle(w, flags)
        scheduleDispatch()
    }

    // MARK: Timeouts (libdbus timeouts repeat until removed or disabled)

    private func addTimeout(_ t: OpaquePointer) {
        knownTimeouts.insert(t)
        if let old = timers.removeValue(forKey: t) { loop.cancel(old) }
        guard dbus_timeout_get_enabled(t) != 0 else { return }
        let ms = Int(dbus_timeout_get_interval(t))
        timers[t] = loop.schedule(afterMilliseconds: ms) { [unowned self] in
            self.timers[t] = nil
            _ = dbus_timeout_handle(t)
            // Still registered and enabled (not removed by the handler): fire again.
            if self.attached, self.timers[t] == nil, self.knownTimeouts.contains(t) { self.addTimeout(t) }
            self.scheduleDispatch()
        }
    }

    private var knownTimeouts: Set<OpaquePointer> = []

    private func removeTimeout(_ t: OpaquePointer) {
        knownTimeouts.remove(t)
        if let old = timers.removeValue(forKey: t) { loop.cancel(old) }
    }

    private func toggleTimeout(_ t: OpaquePointer) {
        if dbus_timeout_get_enabled(t) != 0 { addTimeout(t) } else if let old = timers.removeValue(forKey: t) { loop.cancel(old) }
    }
}
