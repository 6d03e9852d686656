#!/usr/bin/env python3
"""Drives the virtual TAP and queries its event log (standard library only: starts fast).

Control (through the virtual TAP's socket, $TAP_CTL):
  tapctl.py play FILE.tap          arm a script (starts when its `start` condition holds)
  tapctl.py wait-done [SECONDS]    wait for the armed script to finish; fails if it failed
  tapctl.py status | stop-script | disconnect | advertise | reset | quit
  tapctl.py notify NAME HEX        send one notification now (NAME: tap, mouse, air, nus_tx, ...)
Event log ($TAP_EVENTS, JSON lines with `t` = CLOCK_MONOTONIC seconds):
  tapctl.py now                    print the monotonic clock (use it as --since later)
  tapctl.py events [--since T] [--event E] [--char C] [--hex H]      print matching lines
  tapctl.py wait-event [--since T] [--event E] [--char C] [--hex H] [--count N] [--timeout S]
                                   wait until N matching lines exist (exit 1 on timeout)
  tapctl.py expect-no-event [same filters] [--for S]   fail if a matching line shows up
Hex comparisons ignore case, spaces and colons.

  tapctl.py --tap N ...            the same on TAP N (virtual_tap.py --taps): its control socket
                                   and event log are $TAP_CTL and $TAP_EVENTS with N before the
                                   extension (tap.sock -> tap2.sock); TAP N > 1 also answers
                                   `silence` (no link, no advertising until `advertise`)
"""

import argparse
import json
import os
import socket
import sys
import time

CONTROL = {'play', 'wait-done', 'status', 'stop-script', 'disconnect', 'advertise', 'reset', 'quit', 'notify', 'forget-mode',
           'powercycle', 'silence', 'bonding'}


def numbered(path, n):
    """TAP n's socket or log: TAP 1's path with n before the extension (as virtual_tap.py)."""
    if path is None or n == 1:
        return path
    head, dot, ext = path.rpartition('.')
    return f'{head}{n}.{ext}' if dot and '/' not in ext else f'{path}{n}'


def control(path, words, timeout):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    sock.connect(path)
    sock.sendall((' '.join(words) + '\n').encode())
    data = b''
    while not data.endswith(b'\n'):
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    sock.close()
    return json.loads(data.decode())


def norm_hex(text):
    return ''.join(text.split()).replace(':', '').lower() if text else text


def matches(record, args):
    if args.since is not None and record.get('t', 0) < args.since:
        return False
    if args.event and record.get('event') != args.event:
        return False
    if args.char and record.get('char') != args.char and not str(record.get('uuid', '')).lower().startswith(args.char.lower()):
        return False
    if args.hex and norm_hex(record.get('hex', '')) != norm_hex(args.hex):
        return False
    return True


def read_events(path, args):
    found = []
    try:
        with open(path) as f:
            for line in f:
                try:
                    record = json.loads(line)
                except ValueError:
                    continue
                if matches(record, args):
                    found.append(record)
    except FileNotFoundError:
        pass
    return found


def main():
    tap = 1
    if len(sys.argv) > 2 and sys.argv[1] == '--tap':
        tap = int(sys.argv[2])
        del sys.argv[1:3]
    if len(sys.argv) > 1 and sys.argv[1] in CONTROL:
        words = sys.argv[1:]
        timeout = 3600 if words[0] == 'wait-done' else 30
        if words[0] == 'play' and len(words) > 1:
            words[1] = os.path.abspath(words[1])
        answer = control(numbered(os.environ.get('TAP_CTL', '/run/e2e/tap.sock'), tap), words, timeout)
        print(json.dumps(answer))
        sys.exit(0 if answer.get('ok') else 1)

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('command', choices=['now', 'events', 'wait-event', 'expect-no-event'])
    parser.add_argument('--file', default=numbered(os.environ.get('TAP_EVENTS'), tap))
    parser.add_argument('--since', type=float)
    parser.add_argument('--event')
    parser.add_argument('--char')
    parser.add_argument('--hex')
    parser.add_argument('--count', type=int, default=1)
    parser.add_argument('--timeout', type=float, default=10)
    parser.add_argument('--for', dest='duration', type=float, default=1)
    args = parser.parse_args()

    if args.command == 'now':
        print(f'{time.monotonic():.6f}')
        return
    if not args.file:
        sys.exit('tapctl: no event log (--file or $TAP_EVENTS)')
    if args.command == 'events':
        for record in read_events(args.file, args):
            print(json.dumps(record))
        return
    if args.command == 'wait-event':
        deadline = time.monotonic() + args.timeout
        while True:
            found = read_events(args.file, args)
            if len(found) >= args.count:
                for record in found[:args.count]:
                    print(json.dumps(record))
                return
            if time.monotonic() > deadline:
                print(f'tapctl: timed out after {args.timeout:.1f} s: {len(found)}/{args.count} '
                      f'events matching event={args.event} char={args.char} hex={args.hex} '
                      f'since={args.since}', file=sys.stderr)
                sys.exit(1)
            time.sleep(0.05)
    if args.command == 'expect-no-event':
        time.sleep(args.duration)
        found = read_events(args.file, args)
        for record in found:
            print(f'tapctl: unexpected: {json.dumps(record)}', file=sys.stderr)
        sys.exit(1 if found else 0)


if __name__ == '__main__':
    main()
