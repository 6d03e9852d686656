#!/usr/bin/env python3
"""Reads what the daemon writes through uinput, from the kernel's /dev/input/event* nodes.

  evdev_tool.py find [--prefix TapUinput]              list matching nodes: PATH<TAB>NAME
  evdev_tool.py read [--prefix P] [--count N] [--timeout S] [--time] [--syn] [--grab]
        Waits for the node(s) whose name starts with P to appear (a keyboard and a pointer
        are two nodes: all are read; --min-devices 2 waits for both), then prints one line per event, `KEY_A 1`, `REL_X -3`,
        `BTN_LEFT 0` (EV_SYN only with --syn), flushed at once, until N events or S seconds
        (exit 1 if fewer than N arrived; N=0 means run until the timeout, exit 0).
        A device with EV_REP gets autorepeat (`KEY_A 2`) from the kernel while a key is held;
        --no-repeat drops those.
        --time prefixes each line with the kernel's CLOCK_MONOTONIC timestamp of the event,
        comparable with `t` in the virtual TAP's event log (`tapctl.py now`).
        --with-device adds the node's name as the last column.
  evdev_tool.py held [--prefix P]                      keys/buttons held now (EVIOCGKEY), one per line.
        Note: EVIOCGKEY drops the key events still queued on the fd that asks, so a reader
        must not query held keys on its own fd; this command opens its own.
  evdev_tool.py caps [--prefix P]                      the nodes' capabilities (key and rel names)
  evdev_tool.py smoke                                  uinput round trip: create a device, write
                                                       KEY_A press/release, read it back
"""

import argparse
import fcntl
import os
import select
import struct
import sys
import time

import evdev
from evdev import ecodes

EVIOCSCLOCKID = 0x400445A0  # _IOW('E', 0xa0, int)
CLOCK_MONOTONIC = 1


def code_name(etype, code):
    names = ecodes.bytype.get(etype, {}).get(code)
    if isinstance(names, (list, tuple)):
        # Prefer KEY_*/BTN_* names matching the type's usual prefix, first alphabetically stable.
        names = sorted(names)[0]
    return names or f'{ecodes.EV.get(etype, etype)}:{code}'


def matching(prefix):
    found = []
    for path in sorted(evdev.list_devices(), key=lambda p: int(p.rsplit('event', 1)[1])):
        try:
            device = evdev.InputDevice(path)
        except OSError:
            continue
        if device.name.startswith(prefix):
            found.append(device)
        else:
            device.close()
    return found


def wait_devices(prefix, timeout, settle=0.3, minimum=1):
    deadline = time.monotonic() + timeout
    devices = []
    while time.monotonic() < deadline:
        devices = matching(prefix)
        if len(devices) >= minimum:
            # A keyboard and a pointer may be created a moment apart.
            time.sleep(settle)
            for d in devices:
                d.close()
            return matching(prefix)
        for d in devices:
            d.close()
        time.sleep(0.05)
    return devices


def cmd_find(args):
    for device in matching(args.prefix):
        print(f'{device.path}\t{device.name}')


def cmd_read(args):
    deadline = time.monotonic() + args.timeout
    devices = wait_devices(args.prefix, args.timeout, minimum=args.min_devices)
    if len(devices) < args.min_devices:
        print(f'evdev_tool: no input device named {args.prefix}* within {args.timeout:.0f} s',
              file=sys.stderr)
        sys.exit(1)
    for device in devices:
        fcntl.ioctl(device.fd, EVIOCSCLOCKID, struct.pack('i', CLOCK_MONOTONIC))
        if args.grab:
            device.grab()
        print(f'evdev_tool: reading {device.path} "{device.name}"', file=sys.stderr, flush=True)
    by_fd = {device.fd: device for device in devices}
    count = 0
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or (args.count and count >= args.count):
            break
        ready, _, _ = select.select(list(by_fd), [], [], remaining)
        for fd in ready:
            device = by_fd[fd]
            try:
                events = list(device.read())
            except BlockingIOError:
                continue
            except OSError:
                # The node went away (daemon stopped): stop reading it.
                del by_fd[fd]
                continue
            for event in events:
                if event.type == ecodes.EV_SYN and not args.syn:
                    continue
                if event.type == ecodes.EV_MSC and not args.syn:
                    continue
                if event.type == ecodes.EV_KEY and event.value == 2 and args.no_repeat:
                    continue
                words = []
                if args.time:
                    words.append(f'{event.timestamp():.6f}')
                words += [code_name(event.type, event.code), str(event.value)]
                if args.with_device:
                    words.append(device.name)
                print(' '.join(words), flush=True)
                count += 1
        if not by_fd:
            break
    if args.count and count < args.count:
        print(f'evdev_tool: got {count}/{args.count} events', file=sys.stderr)
        sys.exit(1)


def cmd_held(args):
    devices = matching(args.prefix)
    if not devices:
        print(f'evdev_tool: no input device named {args.prefix}*', file=sys.stderr)
        sys.exit(1)
    for device in devices:
        for code in device.active_keys():
            print(code_name(ecodes.EV_KEY, code))


def cmd_caps(args):
    for device in matching(args.prefix):
        caps = device.capabilities()
        keys = [code_name(ecodes.EV_KEY, c) for c in caps.get(ecodes.EV_KEY, [])]
        rels = [code_name(ecodes.EV_REL, c) for c in caps.get(ecodes.EV_REL, [])]
        print(f'{device.path}\t{device.name}\tkeys={len(keys)} {" ".join(keys[:12])}'
              f'{" ..." if len(keys) > 12 else ""}\trel={" ".join(rels)}')


def cmd_smoke(args):
    name = 'e2e-uinput-smoke'
    with evdev.UInput({ecodes.EV_KEY: [ecodes.KEY_A, ecodes.KEY_B]}, name=name) as ui:
        devices = wait_devices(name, 5, settle=0)
        if not devices:
            sys.exit(f'evdev_tool: uinput device {name} did not appear under /dev/input')
        device = devices[0]
        print(f'smoke: {device.path} "{device.name}"', file=sys.stderr)
        # EVIOCGKEY flushes the *calling fd's* queued EV_KEY events (kernel evdev), so the
        # held-keys query uses its own fd, as `evdev_tool.py held` does.
        probe = evdev.InputDevice(device.path)
        ui.write(ecodes.EV_KEY, ecodes.KEY_A, 1)
        ui.syn()
        time.sleep(0.05)
        held = [code_name(ecodes.EV_KEY, c) for c in probe.active_keys()]
        probe.close()
        ui.write(ecodes.EV_KEY, ecodes.KEY_A, 0)
        ui.syn()
        got = []
        deadline = time.monotonic() + 5
        while len(got) < 2 and time.monotonic() < deadline:
            select.select([device.fd], [], [], 0.5)
            try:
                got += [f'{code_name(e.type, e.code)} {e.value}' for e in device.read()
                        if e.type == ecodes.EV_KEY]
            except BlockingIOError:
                pass
        print('\n'.join(got))
        print(f'held while pressed: {" ".join(held)}')
        if got != ['KEY_A 1', 'KEY_A 0'] or held != ['KEY_A']:
            sys.exit(f'evdev_tool: smoke failed: events {got}, held {held}')


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('command', choices=['find', 'read', 'held', 'caps', 'smoke'])
    parser.add_argument('--prefix', default=os.environ.get('EVDEV_PREFIX', 'TapUinput'))
    parser.add_argument('--count', type=int, default=0)
    parser.add_argument('--min-devices', type=int, default=1,
                        help='read: wait until this many matching nodes exist (keyboard + pointer = 2)')
    parser.add_argument('--timeout', type=float, default=10)
    parser.add_argument('--time', action='store_true')
    parser.add_argument('--syn', action='store_true')
    parser.add_argument('--no-repeat', action='store_true',
                        help='read: drop autorepeat events (EV_KEY value 2; the kernel makes them for EV_REP devices)')
    parser.add_argument('--grab', action='store_true')
    parser.add_argument('--with-device', action='store_true')
    args = parser.parse_args()
    {'find': cmd_find, 'read': cmd_read, 'held': cmd_held, 'caps': cmd_caps,
     'smoke': cmd_smoke}[args.command](args)


if __name__ == '__main__':
    main()
