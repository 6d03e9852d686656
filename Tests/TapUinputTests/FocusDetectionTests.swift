import Glibc
import Testing
@testable import TapUinput

@Suite struct FocusDetectionTests {
    private func describe(_ sources: [FocusSource]) -> [String] {
        sources.map { source in
            switch source {
            case let s as SwayFocusSource: return "\(s.name):\(s.socketPath)"
            case let h as HyprlandFocusSource: return "hyprland:\(h.eventSocketPath)"
            case let x as X11FocusSource: return "x11:\(x.display ?? "")"
            case let w as WlrToplevelFocusSource: return "wlroots:\(w.display ?? "")"
            default: return "?"
            }
        }
    }

    @Test func x11SessionGetsX11Only() {
        #expect(describe(FocusDetection.availableSources(environment: ["DISPLAY": ":0"])) == ["x11::0"])
    }

    @Test func swayOffersItsSocketOnceAndNotXwayland() {
        let env = ["SWAYSOCK": "/run/user/1000/sway-ipc.sock", "I3SOCK": "/run/user/1000/sway-ipc.sock",
                   "WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":0"]
        #expect(describe(FocusDetection.availableSources(environment: env)) ==
                ["sway:/run/user/1000/sway-ipc.sock", "wlroots:wayland-1"])
    }

    @Test func i3OnX11PrefersIPCOverX11() {
        let env = ["I3SOCK": "/run/user/1000/i3/ipc-socket.1", "DISPLAY": ":1"]
        #expect(describe(FocusDetection.availableSources(environment: env)) ==
                ["i3:/run/user/1000/i3/ipc-socket.1", "x11::1"])
    }

    @Test func hyprlandUsesRuntimeDirOrFallsBackToTmp() {
        let env = ["HYPRLAND_INSTANCE_SIGNATURE": "abc_123", "XDG_RUNTIME_DIR": "/run/user/1000",
                   "WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":1"]
        let modern = FocusDetection.availableSources(environment: env) { $0 == "/run/user/1000/hypr/abc_123/.socket2.sock" }
        #expect(describe(modern) == ["hyprland:/run/user/1000/hypr/abc_123/.socket2.sock", "wlroots:wayland-1"])
        let old = FocusDetection.availableSources(environment: env) { $0 == "/tmp/hypr/abc_123/.socket2.sock" }
        #expect(describe(old) == ["hyprland:/tmp/hypr/abc_123/.socket2.sock", "wlroots:wayland-1"])
        // A signature with a slash is not a signature: no path is built from it.
        #expect(FocusDetection.availableSources(environment: ["HYPRLAND_INSTANCE_SIGNATURE": "../x"]).isEmpty)
    }

    @Test func otherWaylandCompositorsGetForeignToplevel() {
        let env = ["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "labwc:wlroots"]
        #expect(describe(FocusDetection.availableSources(environment: env)) == ["wlroots:wayland-0"])
    }

    @Test func gnomeAndKDEOnWaylandArePushOnly() {
        #expect(FocusDetection.availableSources(environment: ["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "GNOME"]).isEmpty)
        #expect(FocusDetection.availableSources(environment: ["WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "KDE"]).isEmpty)
        #expect(FocusDetection.pushOnlyDesktop(environment: ["WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "ubuntu:GNOME"]) == "gnome")
        #expect(FocusDetection.pushOnlyDesktop(environment: ["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "KDE"]) == "kde")
        #expect(FocusDetection.pushOnlyDesktop(environment: ["DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "GNOME"]) == nil)
        #expect(FocusDetection.pushOnlyDesktop(environment: ["WAYLAND_DISPLAY": "wayland-1", "XDG_CURRENT_DESKTOP": "sway"]) == nil)
    }

    @Test func readsThisProcessEnvironment() {
        setenv("TAPUINPUT_FOCUS_TEST", "a=b", 1)
        #expect(FocusDetection.processEnvironment()["TAPUINPUT_FOCUS_TEST"] == "a=b")
    }

    @Test func emptyEnvironmentOffersNothing() {
        #expect(FocusDetection.availableSources(environment: [:]).isEmpty)
        #expect(FocusDetection.availableSources(environment: ["DISPLAY": "", "SWAYSOCK": ""]).isEmpty)
    }
}
