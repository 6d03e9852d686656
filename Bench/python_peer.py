#!/usr/bin/env python3
"""The benchmark's Python peer: what a Linux user would write today with the vendor SDK.

PyPI `tap-python-sdk` (import `tapsdk`) finds the connected Tap through BlueZ, connects with
bleak (dbus-fast underneath), starts notifications the SDK's way (bleak's default on BlueZ:
StartNotify, values as PropertiesChanged signals), sets Controller mode (and refreshes it
every 10 s, as the SDK does), and decodes taps and mouse packets with its own parsers and
callbacks. Each tap becomes a key press and release, each mouse packet relative motion,
written with python-evdev when /dev/uinput is writable. Either way the CLOCK_MONOTONIC time
is taken once the key-down (or motion) frame has been written, the same point where the
Swift daemon's benchmark sink stamps it.

Usage: python_peer.py --bus ADDRESS --device AA:BB:.. --out FILE
Writes `t_ns kind code` lines (kind k = key down, p = pointer motion) to FILE on SIGTERM.
"""
import argparse
import asyncio
import os
import signal
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bus", required=True)
    ap.add_argument("--device", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    # bleak and the SDK talk to BlueZ on the system bus: point it at the private one.
    os.environ["DBUS_SYSTEM_BUS_ADDRESS"] = args.bus
    asyncio.run(run(args))


async def run(args):
    import tapsdk
    from tapsdk import InputModeController

    writer = EvdevWriter.open()
    # Key codes from linux/input-event-codes.h: the two chords the benchmark alternates
    # (TapCode 3 = "n", 22 = "q", both without multi-tap bindings in the default layout).
    keys = {3: 49, 22: 16}
    stamps = []
    now = time.monotonic_ns

    def on_tap(identifier, tapcode, *rest):
        code = keys.get(tapcode)
        if code is None:
            return
        writer.press(code)
        stamps.append((now(), "k", code))   # once the press is written, as the daemon's sink stamps
        writer.release(code)

    def on_mouse(identifier, vx, vy, proximity, *rest):
        if not proximity or (vx == 0 and vy == 0):
            return
        writer.motion(vx, vy)
        stamps.append((now(), "p", 0))

    sdk = await tapsdk.connect(args.device)
    sdk.register_tap_events(on_tap)
    sdk.register_mouse_events(on_mouse)
    await sdk.start()
    await sdk.set_input_mode(InputModeController())

    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    with open(args.out, "w") as f:
        f.write("".join(f"{t} {k} {c}\n" for t, k, c in stamps))
    sys.stdout.flush()
    os._exit(0)   # no SDK teardown: it is not part of the measurement


class EvdevWriter:
    """python-evdev keyboard + pointer, or a no-op where /dev/uinput is absent."""

    def __init__(self, ui=None):
        self.ui = ui

    @classmethod
    def open(cls):
        if not os.access("/dev/uinput", os.W_OK):
            return cls()
        from evdev import UInput, ecodes as e
        caps = {e.EV_KEY: [49, 16, e.BTN_LEFT], e.EV_REL: [e.REL_X, e.REL_Y]}
        return cls(UInput(caps, name="tap-bench-python-peer"))

    def press(self, code):
        if self.ui:
            self.ui.write(1, code, 1)
            self.ui.syn()

    def release(self, code):
        if self.ui:
            self.ui.write(1, code, 0)
            self.ui.syn()

    def motion(self, vx, vy):
        if self.ui:
            self.ui.write(2, 0, vx)
            self.ui.write(2, 1, vy)
            self.ui.syn()


if __name__ == "__main__":
    main()
