#!/usr/bin/env python3
"""Times commands in turn, round after round, for ratios that the machine's drift moves less.

    paired.py --rounds N --export-json OUT NAME=COMMAND NAME=COMMAND ...

hyperfine runs each command's runs one after another: when other work on the machine comes or
goes during a corpus's timing, it moves one command more than another, and a ratio of two means
moves with it. Here every round runs each command once, in an order shuffled anew (from a fixed
seed), so that the commands of a round see about the same machine; the ratio of each round is
taken, and their median reported. The first round is a warm-up and is not counted.

COMMAND is split as a shell would split it (no shell runs it, as with hyperfine's `-N`); its
output is discarded and its exit status ignored (every tool exits non-zero on the corpora's
planted errors). The first command is the one the others are compared with. The JSON export
holds, for each command, its wall and CPU (user + system) times in seconds, round by round, and
the medians of its ratios to the first.
"""

import argparse
import json
import random
import resource
import shlex
import statistics
import subprocess
import sys
import time


def run_once(argv):
    """Wall and CPU seconds of one run of `argv`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--export-json", required=True)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("commands", nargs="+", metavar="NAME=COMMAND")
    args = parser.parse_args()
    commands = []
    for spec in args.commands:
        name, sep, command = spec.partition("=")
        if not sep or not command:
            parser.error(f"{spec!r} is not NAME=COMMAND")
        commands.append((name, shlex.split(command)))
    if len(commands) < 2 or args.rounds < 1:
        parser.error("two commands or more, and a round or more, are needed")

    shuffle = random.Random(args.seed)
    times = {name: {"wall": [], "cpu": []} for name, _ in commands}
    for round_ in range(args.rounds + 1):
        order = commands[:]
        shuffle.shuffle(order)
        for name, argv in order:
            wall, cpu = run_once(argv)
            if round_ > 0:
                times[name]["wall"].append(wall)
                times[name]["cpu"].append(cpu)

    first = commands[0][0]
    results = {"rounds": args.rounds, "reference": first, "commands": {}}
    for name, _ in commands:
        own = times[name]
        ratios = [w / r for w, r in zip(own["wall"], times[first]["wall"])]
        results["commands"][name] = {
            "wall": own["wall"],
            "cpu": own["cpu"],
            "median_wall": statistics.median(own["wall"]),
            "median_cpu": statistics.median(own["cpu"]),
            "ratio_to_reference": {
                "median": statistics.median(ratios),
                "min": min(ratios),
                "max": max(ratios),
            },
        }
    with open(args.export_json, "w", encoding="utf-8") as out:
        json.dump(results, out, indent=1)
    for name, r in results["commands"].items():
        ratio = r["ratio_to_reference"]
        print(f"{name}: median {r['median_wall'] * 1000:.1f} ms "
              f"(CPU {r['median_cpu'] * 1000:.1f} ms); × {first}: {ratio['median']:.2f} "
              f"({ratio['min']:.2f} … {ratio['max']:.2f})", file=sys.stderr)


if __name__ == "__main__":
    main()
