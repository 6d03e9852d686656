import CEvdev
import Testing
@testable import TapUinput

@Suite struct FrameWriterTests {
    let sink = RecordingSink()
    var writer: FrameWriter { FrameWriter(sink: sink) }
    let shift = UInt16(KEY_LEFTSHIFT), a = UInt16(KEY_A), b = UInt16(KEY_B), ctrl = UInt16(KEY_LEFTCTRL)
    let left = UInt16(BTN_LEFT)

    @Test func typedLetterIsPressThenRelease() throws {
        let w = writer
        try w.write(pressed: [a])
        try w.write(pressed: [])
        #expect(sink.lines(for: .keyboard) == ["KEY_A 1", "SYN_REPORT 0", "KEY_A 0", "SYN_REPORT 0"])
        #expect(w.held.isEmpty)
    }

    @Test func modifiersPressFirstAndReleaseLast() throws {
        let w = writer
        try w.write(pressed: [shift, a])
        try w.write(pressed: [])
        #expect(sink.lines(for: .keyboard) == [
            "KEY_LEFTSHIFT 1", "KEY_A 1", "SYN_REPORT 0",
            "KEY_A 0", "KEY_LEFTSHIFT 0", "SYN_REPORT 0",
        ])
    }

    @Test func changingKeysUnderAHeldModifierReleasesBeforePressing() throws {
        let w = writer
        try w.write(pressed: [ctrl, a])
        sink.removeAll()
        try w.write(pressed: [ctrl, b])
        #expect(sink.lines(for: .keyboard) == ["KEY_A 0", "KEY_B 1", "SYN_REPORT 0"])
    }

    @Test func unchangedFrameWritesNothing() throws {
        let w = writer
        try w.write(pressed: [a])
        sink.removeAll()
        try w.write(pressed: [a])
        #expect(sink.batches.isEmpty)
    }

    @Test func buttonsAndMotionGoToThePointer() throws {
        let w = writer
        try w.write(pressed: [left], relX: 5, relY: -3)
        #expect(sink.lines(for: .pointer) == ["BTN_LEFT 1", "REL_X 5", "REL_Y -3", "SYN_REPORT 0"])
        #expect(sink.lines(for: .keyboard).isEmpty)
    }

    @Test func releaseAllClearsBothDevices() throws {
        let w = writer
        try w.write(pressed: [shift, left])
        sink.removeAll()
        try w.releaseAll()
        #expect(sink.lines(for: .keyboard) == ["KEY_LEFTSHIFT 0", "SYN_REPORT 0"])
        #expect(sink.lines(for: .pointer) == ["BTN_LEFT 0", "SYN_REPORT 0"])
        #expect(w.held.isEmpty)
    }

    @Test func wheelCarriesPartialNotches() throws {
        let w = writer
        try w.write(pressed: [], wheel: 60)
        try w.write(pressed: [], wheel: 60)
        try w.write(pressed: [], wheel: -150)
        #expect(sink.lines(for: .pointer) == [
            "REL_WHEEL_HI_RES 60", "SYN_REPORT 0",
            "REL_WHEEL_HI_RES 60", "REL_WHEEL 1", "SYN_REPORT 0",
            "REL_WHEEL_HI_RES -150", "REL_WHEEL -1", "SYN_REPORT 0",
        ])
    }

    @Test func codesNoDeviceReportsAreDroppedAndCounted() throws {
        let w = writer
        let joystick = UInt16(BTN_TRIGGER)      // not a mouse button, not on the keyboard
        try w.write(pressed: [a, joystick])
        #expect(sink.lines(for: .keyboard) == ["KEY_A 1", "SYN_REPORT 0"])
        #expect(w.unsupportedDrops == 1)
        #expect(w.held == [a])
    }

    @Test func failedWriteStillForgetsHoldsOnReleaseAll() throws {
        final class BrokenSink: EventSink {
            var fail = false
            func write(_ events: [RawInputEvent], to role: DeviceProfile.Role) throws {
                if fail { throw UinputError(operation: "write", errno: 19, path: nil) }
            }
        }
        let broken = BrokenSink()
        let w = FrameWriter(sink: broken)
        try w.write(pressed: [a])
        broken.fail = true
        #expect(throws: UinputError.self) { try w.releaseAll() }
        #expect(w.held.isEmpty)
    }

    @Test func profilesSeparateKeysFromButtons() {
        #expect(DeviceProfile.keyboard.keys.contains(a))
        #expect(!DeviceProfile.keyboard.keys.contains(left))
        #expect(DeviceProfile.pointer.keys.contains(left))
        #expect(DeviceProfile.role(forKey: left) == .pointer)
        #expect(DeviceProfile.role(forKey: a) == .keyboard)
        #expect(DeviceProfile.keyboard.name.hasPrefix("TapUinput"))
        #expect(DeviceProfile.pointer.name.hasPrefix("TapUinput"))
    }

    @Test func missingUinputGivesAHint() {
        #expect {
            _ = try UinputSink(uinputPath: "/nonexistent/uinput")
        } throws: { error in
            let text = String(describing: error)
            return text.contains("modprobe uinput") && text.contains("/nonexistent/uinput")
        }
    }
}

