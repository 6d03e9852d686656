#!/usr/bin/env python3
"""Notification-to-key latency: pairs the virtual TAP's delivered `tap` notifications with the
key presses a reader recorded (`evdev_tool.py read --time`), in order.

  latency.py --events $OUT/tap-events.jsonl --keys keys.txt [--since T] [--max-ms 500]

Prints one line per pair (`02000000 -> KEY_E 12.3 ms`) and min/median/max; exit 1 if a pair is
missing or slower than --max-ms. Both clocks are CLOCK_MONOTONIC in the guest. Under TCG the
numbers are pessimistic: use them for regressions and orders of magnitude.
"""

import argparse
import json
import statistics
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--events', required=True)
    parser.add_argument('--keys', required=True)
    parser.add_argument('--since', type=float, default=0)
    parser.add_argument('--char', default='tap')
    parser.add_argument('--max-ms', type=float)
    args = parser.parse_args()

    notes = []
    with open(args.events) as f:
        for line in f:
            record = json.loads(line)
            if (record.get('event') == 'notify' and record.get('char') == args.char
                    and record.get('delivered') and record['t'] >= args.since
                    and record.get('hex', '')[:2] != '00'):
                notes.append((record['t'], record['hex']))
    presses = []
    with open(args.keys) as f:
        for line in f:
            words = line.split()
            if len(words) >= 3 and words[2] == '1':
                presses.append((float(words[0]), words[1]))
    if len(presses) < len(notes):
        print(f'latency: {len(notes)} notifications but {len(presses)} key presses', file=sys.stderr)
    delays = []
    for (t_note, hex_), (t_key, key) in zip(notes, presses):
        ms = (t_key - t_note) * 1000
        delays.append(ms)
        print(f'{hex_} -> {key} {ms:.1f} ms')
    if delays:
        print(f'latency: n={len(delays)} min={min(delays):.1f} median={statistics.median(delays):.1f} '
              f'max={max(delays):.1f} ms')
    bad = len(presses) < len(notes) or not delays
    if args.max_ms is not None and delays and max(delays) > args.max_ms:
        print(f'latency: max {max(delays):.1f} ms > {args.max_ms} ms', file=sys.stderr)
        bad = True
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
