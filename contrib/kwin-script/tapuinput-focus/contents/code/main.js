// TapUinput focus for KWin (Plasma 6; Plasma 5 API names are handled too).
// Pushes the active window's app id and caption to the tap-uinput daemon:
// org.tapuinput.Daemon1.SetFocus(s app_id, s title) on the session bus. Install: docs/focus.md.
//
// app id: the window's resourceClass (Wayland app_id, X11 WM_CLASS class, as KWin reports
// it); the desktop file name when the class is empty. KWin scripts cannot watch a bus name, so a daemon started later learns the focus
// at the next focus or title change.

const TAPUINPUT = {
    service: "org.tapuinput.Daemon",
    path: "/org/tapuinput/Daemon",
    iface: "org.tapuinput.Daemon1",
};

let tapuinputLast = null;          // [appId, title] last sent
let tapuinputWatched = null;       // the window whose caption changes we follow

function tapuinputAppId(window) {
    if (!window)
        return "";
    const cls = String(window.resourceClass || "");
    return cls !== "" ? cls : String(window.desktopFileName || "");
}

function tapuinputSend(window) {
    const appId = tapuinputAppId(window);
    const title = window ? String(window.caption || "") : "";
    if (tapuinputLast && tapuinputLast[0] === appId && tapuinputLast[1] === title)
        return;
    tapuinputLast = [appId, title];
    callDBus(TAPUINPUT.service, TAPUINPUT.path, TAPUINPUT.iface, "SetFocus", appId, title);
}

function tapuinputCaptionChanged() {
    tapuinputSend(tapuinputWatched);
}

function tapuinputActivated(window) {
    if (tapuinputWatched && tapuinputWatched.captionChanged)
        tapuinputWatched.captionChanged.disconnect(tapuinputCaptionChanged);
    tapuinputWatched = window || null;
    if (tapuinputWatched && tapuinputWatched.captionChanged)
        tapuinputWatched.captionChanged.connect(tapuinputCaptionChanged);
    tapuinputSend(tapuinputWatched);
}

// Plasma 6: windowActivated / activeWindow; Plasma 5: clientActivated / activeClient.
if (workspace.windowActivated) {
    workspace.windowActivated.connect(tapuinputActivated);
    tapuinputActivated(workspace.activeWindow);
} else {
    workspace.clientActivated.connect(tapuinputActivated);
    tapuinputActivated(workspace.activeClient);
}
