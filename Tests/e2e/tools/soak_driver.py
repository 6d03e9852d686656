#!/usr/bin/env python3
"""Sustained typing and pointer motion through the virtual TAP, for scenarios/fault_soak.sh.

    soak_driver.py SECONDS --keys-out FILE [--pid PID --samples FILE --every S] [--warmup N]

Cycles thumb, index, middle, ring (a, e, i, o in the built-in keymap: never the same chord twice
in a row, so each executes when the next arrives, without waiting for a double-tap window), with
two mouse packets after each tap. Writes the key events the taps must produce to --keys-out
(`KEY_A 1` / `KEY_A 0` lines) and prints `taps N mouse M`. With --pid, samples that process's
VmRSS (kB) and open fds after --warmup taps and then every --every seconds to --samples
(`t rss_kb fds` lines).
"""
import argparse
import json
import os
import socket
import time

CHORDS = [(0x01, 'KEY_A'), (0x02, 'KEY_E'), (0x04, 'KEY_I'), (0x08, 'KEY_O')]
MOUSE = '000a00f6ff0000000001'


class Ctl:
    def __init__(self, path):
        self.path = path

    def __call__(self, line):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(30)
        s.connect(self.path)
        s.sendall((line + '\n').encode())
        data = b''
        while not data.endswith(b'\n'):
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        s.close()
        answer = json.loads(data.decode())
        if not answer.get('ok') or not answer.get('delivered', 1):
            raise SystemExit(f'soak_driver: {line!r} -> {answer}')
        return answer


def sample(pid):
    rss = 0
    with open(f'/proc/{pid}/status') as f:
        for line in f:
            if line.startswith('VmRSS:'):
                rss = int(line.split()[1])
    return rss, len(os.listdir(f'/proc/{pid}/fd'))


def main():
    p = argparse.ArgumentParser()
    p.add_argument('seconds', type=float)
    p.add_argument('--keys-out', required=True)
    p.add_argument('--pid', type=int)
    p.add_argument('--samples')
    p.add_argument('--every', type=float, default=15)
    p.add_argument('--warmup', type=int, default=40)
    p.add_argument('--gap', type=float, default=0.05, help='seconds between notifications')
    args = p.parse_args()
    ctl = Ctl(os.environ.get('TAP_CTL', '/run/e2e/tap.sock'))
    samples = open(args.samples, 'w') if args.samples else None
    expected = []
    taps = mouse = 0
    end = None
    next_sample = None
    while True:
        now = time.monotonic()
        if taps == args.warmup:
            end = now + args.seconds
            next_sample = now
        if next_sample is not None and now >= next_sample and args.pid:
            rss, fds = sample(args.pid)
            samples.write(f'{now:.1f} {rss} {fds}\n')
            samples.flush()
            next_sample = now + args.every
        if end is not None and now >= end:
            break
        chord, key = CHORDS[taps % len(CHORDS)]
        ctl(f'notify tap {chord:02x}000000')
        expected += [f'{key} 1', f'{key} 0']
        taps += 1
        for _ in range(2):
            time.sleep(args.gap)
            ctl(f'notify mouse {MOUSE}')
            mouse += 1
        time.sleep(args.gap)
    # The last chord waits for its window (or the next chord): a different one executes it.
    if args.pid:
        time.sleep(1)
        rss, fds = sample(args.pid)
        samples.write(f'{time.monotonic():.1f} {rss} {fds}\n')
    with open(args.keys_out, 'w') as f:
        f.write('\n'.join(expected) + '\n')
    print(f'taps {taps} mouse {mouse}')


if __name__ == '__main__':
    main()
