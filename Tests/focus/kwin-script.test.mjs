// Runs contrib/kwin-script/.../main.js the way KWin does (a script with `workspace` and
// `callDBus` globals), with a stand-in workspace whose signals the test fires. Checks the
// D-Bus calls the script makes. What it cannot check: KWin itself loading the package.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';

const here = new URL('.', import.meta.url).pathname;
const source = readFileSync(`${here}../../contrib/kwin-script/tapuinput-focus/contents/code/main.js`, 'utf8');

class Signal {
    constructor() { this.slots = []; }
    connect(f) { this.slots.push(f); }
    disconnect(f) { this.slots = this.slots.filter(s => s !== f); }
    emit(...a) { for (const s of [...this.slots]) s(...a); }
}

function window(resourceClass, caption, desktopFileName = '') {
    return { resourceClass, caption, desktopFileName, captionChanged: new Signal() };
}

function run(workspace) {
    const calls = [];
    const callDBus = (...args) => calls.push(args);
    vm.runInNewContext(source, { workspace, callDBus, String });
    return calls;
}

const target = ['org.tapuinput.Daemon', '/org/tapuinput/Daemon', 'org.tapuinput.Daemon1', 'SetFocus'];

test('Plasma 6: initial window, activations, caption changes of the active window only', () => {
    const konsole = window('org.kde.konsole', 'shell');
    const firefox = window('firefox', 'Mozilla Firefox');
    const ws = { windowActivated: new Signal(), activeWindow: konsole };
    const calls = run(ws);
    ws.windowActivated.emit(firefox);
    konsole.captionChanged.emit();                    // background window: no longer watched
    konsole.caption = 'vim';
    konsole.captionChanged.emit();
    firefox.caption = 'Bugs - Mozilla Firefox';
    firefox.captionChanged.emit();
    firefox.captionChanged.emit();                    // same caption: dropped
    ws.windowActivated.emit(konsole);
    ws.windowActivated.emit(null);                    // desktop / nothing focused
    assert.deepEqual(calls, [
        [...target, 'org.kde.konsole', 'shell'],
        [...target, 'firefox', 'Mozilla Firefox'],
        [...target, 'firefox', 'Bugs - Mozilla Firefox'],
        [...target, 'org.kde.konsole', 'vim'],
        [...target, '', ''],
    ]);
});

test('Plasma 5 names, QByteArray-like class, desktop file fallback', () => {
    const xterm = window({ toString: () => 'XTerm' }, 'xterm');
    const app = window('', 'Untitled', 'org.example.App');
    const ws = { clientActivated: new Signal(), activeClient: null };
    const calls = run(ws);
    ws.clientActivated.emit(xterm);
    ws.clientActivated.emit(app);
    assert.deepEqual(calls, [
        [...target, '', ''],
        [...target, 'XTerm', 'xterm'],
        [...target, 'org.example.App', 'Untitled'],
    ]);
});
