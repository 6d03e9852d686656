import CXCB
import KeyboardLayout

/// What the X11 source knows of the server's keyboard layout so far.
struct X11LayoutState: Equatable {
    /// The XKB extension's first event code; 0 until the extension is in use.
    var eventBase: UInt8 = 0
    /// From the root's `_XKB_RULES_NAMES`; nil until read (or when it names no layout).
    var names: LayoutNames?
    /// The effective group of the core keyboard.
    var group = 0

    /// The report these make, once the names are known.
    var report: LayoutReport? {
        names.map { LayoutReport(.names($0), group: group, origin: "x11") }
    }
}

extension X11FocusSource {
    /// Starts following the layout, once the atoms are known: enables XKB on the connection,
    /// selects group changes of the core keyboard, and reads the names and the group.
    ///
    /// Why names, not the server's compiled keymap: `_XKB_RULES_NAMES` is what the server and
    /// `setxkbmap` record for every keymap change (one `PropertyNotify`), it reads with one
    /// non-blocking `GetProperty`, and libxkbcommon compiles the same names from the same
    /// xkeyboard-config. (libxkbcommon-x11's keymap download waits on several round trips.)
    func startLayoutTracking() {
        guard let c = connection, onLayoutChange != nil else { return }
        // Prefetched at connect: its reply preceded the atoms' and is already in, so no wait.
        guard let extensionData = xcb_get_extension_data(c, cxcb_xkb_extension()),
              extensionData.pointee.present != 0 else {
            log.info("x11: the server has no XKB extension: the keyboard layout is not followed")
            return
        }
        let base = extensionData.pointee.first_event
        let cookie = xcb_xkb_use_extension(c, 1, 0)
        expect(cookie.sequence) { [unowned self] reply in
            guard let reply, reply.assumingMemoryBound(to: xcb_xkb_use_extension_reply_t.self).pointee.supported != 0 else {
                self.log.info("x11: XKB 1.0 refused: the keyboard layout is not followed")
                return
            }
            self.xkb.eventBase = base
            self.selectGroupChanges()
            self.requestGroup()
            self.requestLayoutNames()
        }
    }

    /// Asks for `StateNotify` when the core keyboard's group changes (a layout switch), and for
    /// nothing else: modifier changes would wake the loop on every key.
    private func selectGroupChanges() {
        guard let c = connection else { return }
        var details = xcb_xkb_select_events_details_t()
        details.affectState = UInt16(XCB_XKB_STATE_PART_GROUP_STATE.rawValue | XCB_XKB_STATE_PART_GROUP_LOCK.rawValue)
        details.stateDetails = details.affectState
        xcb_xkb_select_events_aux(c, xcb_xkb_device_spec_t(XCB_XKB_ID_USE_CORE_KBD.rawValue),
                                  UInt16(XCB_XKB_EVENT_TYPE_STATE_NOTIFY.rawValue), 0, 0, 0, 0, &details)
    }

    private func requestGroup() {
        guard let c = connection else { return }
        let cookie = xcb_xkb_get_state(c, xcb_xkb_device_spec_t(XCB_XKB_ID_USE_CORE_KBD.rawValue))
        expect(cookie.sequence) { [unowned self] reply in
            guard let reply else { return }
            self.xkb.group = Int(reply.assumingMemoryBound(to: xcb_xkb_get_state_reply_t.self).pointee.group)
            self.layoutStateChanged()
        }
    }

    /// Reads `_XKB_RULES_NAMES` (at start and whenever the root says it changed).
    func requestLayoutNames() {
        guard let c = connection, atoms.xkbRulesNames != 0, xkb.eventBase != 0 else { return }
        let cookie = xcb_get_property(c, 0, root, atoms.xkbRulesNames, XCB_ATOM_STRING.rawValue, 0, 1024)
        expect(cookie.sequence) { [unowned self] reply in
            guard let names = X11Property(reply)?.xkbLayoutNames else {
                self.log.info("x11: _XKB_RULES_NAMES names no layout: the keyboard layout is not followed")
                return
            }
            self.xkb.names = names
            self.layoutStateChanged()
        }
    }

    /// An XKB event: only group changes are selected.
    func handleXKB(_ event: UnsafeRawPointer) {
        guard event.load(fromByteOffset: 1, as: UInt8.self) == XCB_XKB_STATE_NOTIFY else { return }
        xkb.group = Int(event.load(as: xcb_xkb_state_notify_event_t.self).group)
        layoutStateChanged()
    }

    private func layoutStateChanged() {
        if let report = xkb.report { reportLayout(report) }
    }
}
