import FuzzCheck
import TapBLE

/// Air-gesture notifications (`c3ff000a`, §2.3) through `AirGestureMessage.decode`, with the hand
/// states fed to one `HandStateFilter`, as the session does.
///
/// The input is a stream of notifications: a header byte whose low 2 bits give the length of the
/// next notification (0-3 bytes) and whose bit 7 resets the filter (a reconnect). Checked:
/// each message decodes to what byte 0 says; the filter only reports changes, only reports a
/// state seen at least twice in the last three samples (or the first sample after a reset), and
/// two equal samples in a row always settle it on that state.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = bytes(data, size)
    var filter = HandStateFilter()
    var window: [HandState] = []   // the last three samples since the last reset
    var i = 0
    while i < input.count {
        let header = input[i]
        i += 1
        if header & 0x80 != 0 {
            filter.reset()
            window.removeAll()
            check(filter.current == nil, "reset kept \(String(describing: filter.current))")
        }
        let n = min(Int(header & 3), input.count - i)
        let b = UnsafeRawBufferPointer(rebasing: input[i..<(i + n)])
        i += n
        guard let message = AirGestureMessage.decode(b) else {
            check(b.isEmpty || (b[0] == 0x14 && b.count < 2), "rejected a valid message \(Array(b))")
            continue
        }
        switch message {
        case .state(let s):
            check(b[0] == 0x14 && b.count >= 2 && s.raw == b[1], "state \(s.raw) from \(Array(b))")
            check(s.isAirMouse == (b[1] == 1), "air-mouse reading")
        case .gesture(let g):
            check(b[0] != 0x14 && HandState(rawValue: b[0]) == nil && g.rawValue == b[0], "gesture \(g) from \(Array(b))")
        case .handState(let h):
            check(h.rawValue == b[0] && (100...105).contains(b[0]), "hand state \(h) from \(Array(b))")
            let before = filter.current
            window.append(h)
            if window.count > 3 { window.removeFirst() }
            let reported = filter.add(h)
            if let r = reported {
                check(r != before, "reported \(r) although it did not change")
                check(filter.current == r, "reported \(r) but current is \(String(describing: filter.current))")
                let seen = window.filter { $0 == r }.count
                check(seen >= 2 || (before == nil && window.count == 1), "reported \(r) seen \(seen)x in \(window)")
            } else {
                check(filter.current == before, "state changed silently to \(String(describing: filter.current))")
            }
            if window.count >= 2 && window[window.count - 2] == h {
                check(filter.current == h, "two \(h) in a row did not settle the filter (window \(window))")
            }
        }
    }
    return 0
}
