// Runs both GNOME Shell extensions (GNOME 45+ ES module, GNOME 42-44 legacy) against stand-ins
// for what gnome-shell provides: `global.display` with its focus-window notification, Meta
// windows with title/wm-class signals, the input source manager with its current-source
// signal, and the daemon bus module (whose real D-Bus side is
// tested under gjs by gnome-dbus-call.js). What this cannot check: gnome-shell loading them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';

const root = new URL('../../contrib/gnome-shell-extension/', import.meta.url).pathname;
const modern = `${root}tapuinput-focus@tapuinput.org/`;
const legacy = `${root}tapuinput-focus-legacy@tapuinput.org/`;

class Emitter {
    constructor() { this.handlers = new Map(); this.nextId = 1; }
    connect(signal, f) { const id = this.nextId++; this.handlers.set(id, [signal, f]); return id; }
    disconnect(id) { assert.ok(this.handlers.delete(id), `disconnect of unknown handler ${id}`); }
    emit(signal) { for (const [s, f] of [...this.handlers.values()]) if (s === signal) f(); }
    get connected() { return this.handlers.size; }
}

class MetaWindow extends Emitter {
    constructor(wmClass, title) { super(); this.wmClass = wmClass; this.title = title; }
    get_wm_class() { return this.wmClass; }
    get_title() { return this.title; }
    rename(t) { this.title = t; this.emit('notify::title'); }
}

/** GNOME's InputSourceManager: `currentSource` (an xkb or IBus source) and its change signal. */
class InputSources extends Emitter {
    constructor(source) { super(); this.currentSource = source; }
    switchTo(source) { this.currentSource = source; this.emit('current-source-changed'); }
}

class Display extends Emitter {
    constructor() { super(); this.focus_window = null; }
    focus(w) { this.focus_window = w; this.emit('notify::focus-window'); }
}

/** A stand-in daemonBus module: records SetFocus calls, lets the test play the daemon. */
function fakeBus() {
    const bus = { calls: [], watchers: [], unwatched: [] };
    bus.sendSetFocus = (a, t) => bus.calls.push([a, t]);
    bus.layouts = [];
    bus.sendSetLayout = layout => bus.layouts.push(layout);
    bus.watchDaemon = (appeared, vanished) => { bus.watchers.push({ appeared, vanished }); return 7; };
    bus.unwatchDaemon = id => bus.unwatched.push(id);
    bus.appear = () => bus.watchers.forEach(w => w.appeared());
    return bus;
}

let modernLoads = 0;
async function loadModern(bus, display, inputSources) {
    const pusher = await import('data:text/javascript,' + encodeURIComponent(readFileSync(modern + 'focusPusher.js', 'utf8')));
    globalThis.global = { display };
    globalThis.__tapuinput = { Extension: class {}, pusher, bus, getInputSourceManager: () => inputSources };
    const src = readFileSync(modern + 'extension.js', 'utf8')
        .replace(/^import \{Extension\} from .*$/m, 'const {Extension} = globalThis.__tapuinput;')
        .replace(/^import \{getInputSourceManager\} from .*$/m, 'const {getInputSourceManager} = globalThis.__tapuinput;')
        .replace(/^import \{FocusPusher, appIdOf, xkbIdOf\} from .*$/m, 'const {FocusPusher, appIdOf, xkbIdOf} = globalThis.__tapuinput.pusher;')
        .replace(/^import \{sendSetFocus, sendSetLayout, watchDaemon, unwatchDaemon\} from .*$/m,
                 'const {sendSetFocus, sendSetLayout, watchDaemon, unwatchDaemon} = globalThis.__tapuinput.bus;');
    assert.ok(!/^import /m.test(src), 'every import of extension.js was replaced');
    // A distinct URL per load: the module cache would otherwise hand back the first test's bus.
    const mod = await import('data:text/javascript,' + encodeURIComponent(`${src}\n// load ${++modernLoads}`));
    return new mod.default();
}

function loadLegacy(bus, display, inputSources) {
    const pusherContext = {};
    vm.runInNewContext(readFileSync(legacy + 'focusPusher.js', 'utf8'), pusherContext);
    const context = {
        global: { display },
        imports: {
            misc: { extensionUtils: { getCurrentExtension: () => ({ imports: { focusPusher: pusherContext, daemonBus: bus } }) } },
            ui: { status: { keyboard: { getInputSourceManager: () => inputSources } } },
        },
    };
    vm.runInNewContext(readFileSync(legacy + 'extension.js', 'utf8') + '\n;this.__init = init;', context);
    return context.__init();
}

for (const [name, load] of [['GNOME 45+', loadModern], ['GNOME 42-44', loadLegacy]]) {
    test(`${name} extension: focus, titles, daemon presence, clean disable`, async () => {
        const bus = fakeBus();
        const display = new Display();
        const files = new MetaWindow('org.gnome.Nautilus', 'Home');
        const term = new MetaWindow('org.gnome.Console', 'bash');
        display.focus_window = files;
        const inputSources = new InputSources({ type: 'xkb', id: 'de', xkbId: 'de' });
        const ext = await load(bus, display, inputSources);
        ext.enable();
        assert.deepEqual(bus.calls, [], 'nothing sent before the daemon is on the bus');
        bus.appear();
        display.focus(term);
        files.rename('Documents');                      // background window: not followed
        term.rename('vim');
        term.rename('vim');                             // same title: no call
        display.focus(files);
        term.emit('unmanaging');                        // harmless for a window no longer watched
        files.emit('unmanaging');
        display.focus(null);                            // nothing focused (overview, desktop)
        assert.deepEqual(bus.calls, [
            ['org.gnome.Nautilus', 'Home'],
            ['org.gnome.Console', 'bash'],
            ['org.gnome.Console', 'vim'],
            ['org.gnome.Nautilus', 'Documents'],
            ['', ''],
        ]);
        display.focus(term);
        ext.disable();
        assert.equal(display.connected, 0, 'display signal disconnected');
        assert.equal(term.connected, 0, 'window signals disconnected');
        assert.equal(files.connected, 0);
        assert.deepEqual(bus.unwatched, [7]);
        // The layout: the current one when the daemon appeared, then each switch once; an IBus
        // engine's underlying layout; nothing after disable.
        inputSources.switchTo({ type: 'xkb', id: 'fr+azerty', xkbId: 'fr+azerty' });
        assert.deepEqual(bus.layouts, ['de'], 'a disabled extension sends nothing');
        assert.equal(inputSources.connected, 0, 'input source signal disconnected');
    });

    test(`${name} extension: the active input source's layout, once per switch`, async () => {
        const bus = fakeBus();
        const inputSources = new InputSources({ type: 'xkb', id: 'de', xkbId: 'de' });
        const ext = await load(bus, new Display(), inputSources);
        ext.enable();
        inputSources.switchTo({ type: 'xkb', id: 'fr+azerty', xkbId: 'fr+azerty' });
        assert.deepEqual(bus.layouts, [], 'nothing before the daemon is on the bus');
        bus.appear();
        inputSources.switchTo({ type: 'xkb', id: 'fr+azerty', xkbId: 'fr+azerty' });   // same: no call
        inputSources.switchTo({ type: 'ibus', id: 'anthy', xkbId: 'jp' });
        inputSources.switchTo({ type: 'xkb', id: 'us' });                                   // no xkbId: its id
        bus.appear();                                                                       // a restarted daemon
        assert.deepEqual(bus.layouts, ['fr+azerty', 'jp', 'us', 'us']);
        ext.disable();
    });
}
