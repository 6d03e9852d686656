#!/usr/bin/env python3
"""A deliberately tiny stand-in for `tap-uinput run`, used only to test the harness itself.

It is NOT the daemon and tests nothing of it: it lets the daemon-scenario plumbing
(start_daemon, the `TapUinput*` evdev node, the reader, held keys, the writes the TAP sees) be
exercised before the real binary exists. Same command line shape: `standin_daemon.py run`.

Behaviour: connect the bonded TAP through BlueZ, StartNotify tap data, write the controller mode
`03 0C 00 01` to NUS RX, create a uinput keyboard named "TapUinput stand-in keyboard", and for
each tap notification press and release the letter of the TapCode single-finger chords
(1 a, 2 e, 4 i, 8 o, 16 u, 31 space). SIGTERM: release everything, write `03 0C 00 00`, exit 0.
"""

import asyncio
import os
import signal
import sys
import time

import evdev
from evdev import ecodes

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bluez_util as bz  # noqa: E402

KEYS = {1: ecodes.KEY_A, 2: ecodes.KEY_E, 4: ecodes.KEY_I, 8: ecodes.KEY_O, 16: ecodes.KEY_U,
        31: ecodes.KEY_SPACE}
TAP_DATA = 'c3ff0005-1d8b-40fd-a56f-c7bd5d0f3370'
NUS_RX = '6e400002-b5a3-f393-e0a9-e50e24dcca9e'


def say(text):
    print(f'standin[{time.monotonic():.3f}]: {text}', file=sys.stderr, flush=True)


async def main():
    ui = evdev.UInput({ecodes.EV_KEY: sorted(KEYS.values())}, name='TapUinput stand-in keyboard')
    say(f'uinput device {ui.device.path if ui.device else "?"}')
    bus = await bz.connect()
    device = await bz.wait_for(lambda: _find(bus), 30, what='a paired TAP')
    await bz.connect_device(bus, device)
    chars = bz.characteristics(await bz.objects(bus), device)
    tap_path, nus_path = chars[TAP_DATA][0], chars[NUS_RX][0]

    def on_message(message):
        if (message.member == 'PropertiesChanged' and message.path == tap_path
                and message.body and message.body[0] == bz.CHAR and 'Value' in message.body[1]):
            data = bytes(message.body[1]['Value'].value)
            key = KEYS.get(data[0]) if data else None
            say(f'tap {data.hex()} -> {key}')
            if key:
                ui.write(ecodes.EV_KEY, key, 1)
                ui.syn()
                ui.write(ecodes.EV_KEY, key, 0)
                ui.syn()

    bus.add_message_handler(on_message)
    await bz.add_match(bus, f"type='signal',sender='org.bluez',path='{tap_path}',"
                            "interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'")
    await bz.call(bus, tap_path, bz.CHAR, 'StartNotify')
    await bz.call(bus, nus_path, bz.CHAR, 'WriteValue', 'aya{sv}',
                  [bytes.fromhex('030c0001'), {'type': bz.Variant('s', 'request')}])
    say('subscribed, controller mode written')

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    loop.add_signal_handler(signal.SIGINT, stop.set)
    await stop.wait()
    say('stopping')
    await bz.call(bus, nus_path, bz.CHAR, 'WriteValue', 'aya{sv}',
                  [bytes.fromhex('030c0000'), {'type': bz.Variant('s', 'request')}])
    ui.close()


async def _find(bus):
    objs = await bz.objects(bus)
    path = bz.find_device(objs, os.environ.get('TAP_ADDR'))
    if path and objs[path][bz.DEVICE].get('Paired'):
        return path
    return None


if __name__ == '__main__':
    if sys.argv[1:2] != ['run']:
        sys.exit('usage: standin_daemon.py run')
    asyncio.run(main())
