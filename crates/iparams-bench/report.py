#!/usr/bin/env python3
"""Summarise the raw results of compare.sh: timings, ratios against the targets, memory,
scaling, the in-process bench, and a check that every tool found the planted errors.

    report.py RESULTS_DIR CORPUS_DIR

Prints Markdown and writes it to RESULTS_DIR/summary.md, with the numbers in summary.json.
A missed target is printed as MISS; the exit status is 0 whenever the inputs could be read.
"""

import json
import math
import os
import re
import sys

PEERS = ("check-jsonschema", "ajv-cli")
LINT = "iparams-lint"  # the default (human) format
LINT_JSON = "iparams-lint --format json"
# (corpus, at least this many times faster than the fastest peer, in the default format; None:
# reported, not judged)
SPEED_TARGETS = (("typical", 50.0), ("many", 10.0), ("large", 5.0), ("valid", None))
# Peak RSS at most this many times the input, plus this much a finding kept.
MEMORY_PER_INPUT_BYTE = 3.0
MEMORY_PER_FINDING = 1024
SCALING_TARGET = 11.0  # time(10x input) / time(input), at most
INPROCESS_TARGET = 2.0  # parse+lint / serde_json Value parse, at most


def load_hyperfine(path):
    with open(path) as f:
        return {r["command"]: r for r in json.load(f)["results"]}


def fmt_time(seconds):
    if seconds >= 1:
        return f"{seconds:.3f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.0f} µs"


def fmt_bytes(n):
    for unit, size in (("MB", 1e6), ("KB", 1e3)):
        if n >= size:
            return f"{n / size:.2f} {unit}" if unit == "MB" else f"{n / size:.1f} {unit}"
    return f"{n} B"


def ratio_sigma(a, sa, b, sb):
    """a/b and its standard deviation, from independent relative errors."""
    r = a / b
    return r, r * math.sqrt((sa / a) ** 2 + (sb / b) ** 2)


def verdict(ok):
    return "PASS" if ok else "MISS"


def planted(manifest, prefix):
    """{(file, iparam key)} of the planted errors in the files whose name starts with prefix."""
    return {(f, e["iparam"]) for f, v in manifest["files"].items() if f.startswith(prefix)
            for e in v["errors"]}


def paired_lines(results, corpus, timings):
    """The sentence on the interleaved timing of `corpus` (paired.py), when there is one; its
    figures go into `timings`."""
    path = os.path.join(results, f"{corpus}.paired.json")
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        paired = json.load(f)
    commands = paired["commands"]
    peers = [name for name in PEERS if name in commands]
    # The ratios are to the reference command: they read as below only when it is iparams-lint.
    if paired["reference"] != LINT or not peers:
        return []
    fastest = min(peers, key=lambda name: commands[name]["median_wall"])
    ratio = commands[fastest]["ratio_to_reference"]
    timings["paired"] = {"rounds": paired["rounds"], "peer": fastest} | ratio
    sentence = (f"Interleaved ({paired['rounds']} rounds, each command once a round in a "
                f"shuffled order): {fastest} took **{ratio['median']:.1f}x** the time of "
                f"iparams-lint (the median of the rounds' ratios; {ratio['min']:.1f}x to "
                f"{ratio['max']:.1f}x), {fmt_time(commands[fastest]['median_wall'])} against "
                f"{fmt_time(commands[LINT]['median_wall'])} by medians")
    if LINT_JSON in commands:
        json_ratio = commands[LINT_JSON]["ratio_to_reference"]["median"]
        sentence += f"; `--format json` took {json_ratio:.2f}x the time of the default format"
    return ["", sentence + ". Not judged."]


def read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return None


def sanity(results, manifest):
    """What each tool reported on each corpus, against the planted errors."""
    rows = []
    for corpus, prefix in (("typical", "typical/"), ("many", "many/"), ("large", "large.json")):
        want = planted(manifest, prefix)
        want_files = {f for f, _ in want}
        nfiles = sum(1 for f in manifest["files"] if f.startswith(prefix))
        base = os.path.join(results, "sanity")
        for tool in (LINT,) + PEERS:
            out = read(os.path.join(base, f"{tool}.{corpus}.out")) or ""
            err = read(os.path.join(base, f"{tool}.{corpus}.err")) or ""
            status = (read(os.path.join(base, f"{tool}.{corpus}.status")) or "?").strip()
            row = {"corpus": corpus, "tool": tool, "exit": status, "planted": len(want)}
            if tool == LINT:
                try:
                    doc = json.loads(out)
                except ValueError:
                    row["note"] = "no JSON output"
                    rows.append(row)
                    continue
                found = set()
                for f in doc["files"]:
                    for d in f["diagnostics"]:
                        if d["severity"] != "error":
                            continue
                        key = d["pointer"].split("/")[1] if d["pointer"] else ""
                        found.add((f["path"], key))
                row["files"] = doc["summary"]["files"]
                row["found"] = len(want & found)
                row["reported"] = (f'{doc["summary"]["errors"]} errors, '
                                   f'{doc["summary"]["warnings"]} warnings, '
                                   f'{doc["summary"]["infos"]} infos')
            elif tool == "check-jsonschema":
                found = set(re.findall(r"^\s+(\S+)::\$\.([^.\[:]+)", out, re.M))
                row["files"] = nfiles
                row["found"] = len(want & found)
                row["reported"] = f"{len(re.findall(r'::', out))} errors"
            else:
                # ajv stops at the first error of each file: count files, not errors.
                verdicts = re.findall(r"^(\S+) (valid|invalid)$", out + "\n" + err, re.M)
                invalid = {f for f, v in verdicts if v == "invalid"}
                row["files"] = len(verdicts)
                row["found_files"] = len(want_files & invalid)
                row["planted_files"] = len(want_files)
                row["reported"] = f"{len(invalid)} files invalid"
            rows.append(row)
    return rows


DIVAN_UNITS = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def parse_divan(text):
    """{bench name: {"fastest", "slowest", "median", "mean": seconds, "throughput_median",
    "throughput_mean": "… MB/s"}}, read from divan's table."""
    benches, last = {}, None
    for line in text.splitlines():
        m = re.match(r"^[├╰]─\s+(\w+)\s+(.*)$", line)
        if m:
            cols = [c.strip() for c in m.group(2).split("│")]
            times = []
            for c in cols[:4]:
                t = re.match(r"^([\d.]+)\s*(ns|µs|us|ms|s)$", c)
                times.append(float(t.group(1)) * DIVAN_UNITS[t.group(2)] if t else None)
            last = m.group(1)
            benches[last] = {"fastest": times[0], "slowest": times[1],
                             "median": times[2], "mean": times[3]}
            continue
        if last and line.rstrip().endswith("│") and "/s" in line:
            # The line under a bench's times holds its throughput, column for column.
            rates = [c.strip() for c in line.split("│") if c.strip().endswith("/s")]
            if len(rates) >= 4:
                benches[last]["throughput_median"] = rates[2]
                benches[last]["throughput_mean"] = rates[3]
        last = None
    return benches


def valid_bytes(corpus_dir):
    """Bytes of the corpus of valid files (0 when it was not generated)."""
    path = os.path.join(corpus_dir, "valid", "manifest.json")
    if not os.path.exists(path):
        return 0
    with open(path) as f:
        files = json.load(f)["files"]
    return sum(v["bytes"] for k, v in files.items() if k.startswith("many/"))


def main():
    results, corpus_dir = sys.argv[1], sys.argv[2]
    with open(os.path.join(corpus_dir, "manifest.json")) as f:
        manifest = json.load(f)
    sizes = {
        "empty": os.path.getsize(os.path.join(corpus_dir, "empty.json")),
        "typical": manifest["files"]["typical/iparams.json"]["bytes"],
        "many": sum(v["bytes"] for k, v in manifest["files"].items() if k.startswith("many/")),
        "large": manifest["files"]["large.json"]["bytes"],
        "scale-5k": os.path.getsize(os.path.join(corpus_dir, "scale-5k", "large.json")),
        "valid": valid_bytes(corpus_dir),
    }
    for extra in ("broken", "findings"):
        path = os.path.join(corpus_dir, f"{extra}.json")
        if os.path.exists(path):
            sizes[extra] = os.path.getsize(path)
    out, summary, checks = [], {"timings": {}, "targets": []}, []

    def target(name, measured, goal, ok, detail=""):
        checks.append((name, measured, goal, verdict(ok), detail))
        summary["targets"].append({"target": name, "measured": measured, "goal": goal,
                                   "verdict": verdict(ok), "detail": detail})

    env = read(os.path.join(results, "environment.txt"))
    if env:
        out += ["## Machine and tools", "", "```", env.rstrip(), "```", ""]

    # Timings per corpus.
    describe = {
        "typical": f"one file, {fmt_bytes(sizes['typical'])}",
        "many": f"2,000 files in one invocation, {fmt_bytes(sizes['many'])} in all",
        "large": f"one file, {fmt_bytes(sizes['large'])}, 50,000 iparams",
        "valid": f"2,000 files valid for the peer schema, {fmt_bytes(sizes['valid'])} in all",
    }
    for corpus, goal in SPEED_TARGETS:
        path = os.path.join(results, f"{corpus}.json")
        if not os.path.exists(path):
            out += [f"## {corpus}: not measured", ""]
            continue
        runs = load_hyperfine(path)
        summary["timings"][corpus] = {
            k: {m: v[m] for m in ("mean", "stddev", "median", "min", "max", "user", "system")}
            | {"runs": len(v["times"])}
            for k, v in runs.items()}
        lint = runs[LINT]
        out += [f"## {corpus} ({describe[corpus]})", "",
                "| command | mean ± σ | median | min … max | user + sys | runs | × iparams-lint |",
                "|---|---|---|---|---|---|---|"]
        for name, r in runs.items():
            out.append(f"| {name} | {fmt_time(r['mean'])} ± {fmt_time(r['stddev'])} | "
                       f"{fmt_time(r['median'])} | {fmt_time(r['min'])} … {fmt_time(r['max'])} | "
                       f"{fmt_time(r['user'] + r['system'])} | "
                       f"{len(r['times'])} | {r['mean'] / lint['mean']:.1f} |")
        peers = [runs[p] for p in PEERS if p in runs]
        fastest = min(peers, key=lambda r: r["mean"])
        r, s = ratio_sigma(fastest["mean"], fastest["stddev"], lint["mean"], lint["stddev"])
        by_median = fastest["median"] / lint["median"]
        by_cpu = (fastest["user"] + fastest["system"]) / (lint["user"] + lint["system"])
        summary["timings"][corpus]["ratio"] = {"mean": r, "sigma": s, "median": by_median,
                                               "cpu": by_cpu, "peer": fastest["command"]}
        judged = f"Target ≥ {goal:g}x: **{verdict(r >= goal)}**." if goal else "Not judged."
        out += ["", f"Fastest peer: {fastest['command']}; iparams-lint (default format) is "
                f"**{r:.1f}x** faster (± {s:.1f}; {by_median:.1f}x by medians; {by_cpu:.1f}x in "
                f"user + sys time). {judged}"]
        if LINT_JSON in runs:
            js = runs[LINT_JSON]
            rj, sj = ratio_sigma(fastest["mean"], fastest["stddev"], js["mean"], js["stddev"])
            hj, hs = ratio_sigma(lint["mean"], lint["stddev"], js["mean"], js["stddev"])
            summary["timings"][corpus]["ratio_json"] = {"mean": rj, "sigma": sj}
            summary["timings"][corpus]["human_over_json"] = {"mean": hj, "sigma": hs,
                                                             "median": lint["median"] / js["median"]}
            out += ["", f"With `--format json`: **{rj:.1f}x** faster (± {sj:.1f}). The default "
                    f"format takes **{hj:.2f}x** the time of JSON (± {hs:.2f}; "
                    f"{lint['median'] / js['median']:.2f}x by medians)."]
        out += paired_lines(results, corpus, summary["timings"][corpus])
        out.append("")
        if goal:
            target(f"{corpus}: speed-up over the fastest peer ({fastest['command']})",
                   f"{r:.1f}x ± {s:.1f}", f"≥ {goal:g}x", r >= goal,
                   f"{fmt_time(lint['mean'])} vs {fmt_time(fastest['mean'])}; "
                   f"{by_cpu:.1f}x in user + sys time")

    # Scaling.
    path = os.path.join(results, "scaling.json")
    if os.path.exists(path):
        runs = list(load_hyperfine(path).values())
        start, small, big = runs
        r, s = ratio_sigma(big["mean"], big["stddev"], small["mean"], small["stddev"])
        net = (big["mean"] - start["mean"]) / (small["mean"] - start["mean"])
        by_min = big["min"] / small["min"]
        cpu = lambda run: run["user"] + run["system"]  # noqa: E731
        by_cpu = cpu(big) / cpu(small)
        size_ratio = sizes["large"] / sizes["scale-5k"]
        instructions = {}
        ipath = os.path.join(results, "scaling-instructions.tsv")
        if os.path.exists(ipath):
            with open(ipath) as f:
                for line in list(f)[1:]:
                    name, count = line.rstrip("\n").split("\t")
                    if count.isdigit():
                        instructions[name] = int(count)
        by_instr = None
        if {"scale-5k/large.json", "large.json"} <= instructions.keys():
            by_instr = instructions["large.json"] / instructions["scale-5k/large.json"]
        summary["scaling"] = {"start": start["mean"], "small": small["mean"], "big": big["mean"],
                              "ratio": r, "ratio_without_startup": net, "ratio_by_min": by_min,
                              "ratio_by_cpu": by_cpu, "ratio_by_instructions": by_instr,
                              "instructions": instructions, "size_ratio": size_ratio}
        out += ["## Scaling (10x the input)", "",
                "| input | mean ± σ | median | min | user + sys | instructions | throughput |",
                "|---|---|---|---|---|---|---|"]
        for label, run, name in (("`{}` (start-up)", start, "empty.json"),
                                 (f"5,000 iparams, {fmt_bytes(sizes['scale-5k'])}", small,
                                  "scale-5k/large.json"),
                                 (f"50,000 iparams, {fmt_bytes(sizes['large'])}", big,
                                  "large.json")):
            size = {"empty.json": sizes["empty"], "large.json": sizes["large"]}.get(
                name, sizes["scale-5k"])
            count = f"{instructions[name]:,}" if name in instructions else "—"
            rate = "—" if name == "empty.json" else f"{size / run['mean'] / 1e6:.1f} MB/s"
            out.append(f"| {label} | {fmt_time(run['mean'])} ± {fmt_time(run['stddev'])} | "
                       f"{fmt_time(run['median'])} | {fmt_time(run['min'])} | "
                       f"{fmt_time(cpu(run))} | {count} | {rate} |")
        instr_text = f"; in instructions, {by_instr:.2f}x" if by_instr else ""
        out += ["", f"{size_ratio:.2f}x the bytes cost **{r:.2f}x** the time by means (± {s:.2f}; "
                f"{net:.2f}x without the start-up time; {by_min:.2f}x by fastest runs; "
                f"{by_cpu:.2f}x in user + sys time{instr_text}). Target ≤ {SCALING_TARGET:g}x: "
                f"**{verdict(r <= SCALING_TARGET)}**.", ""]
        detail = f"{by_min:.2f}x by fastest runs; bytes {size_ratio:.2f}x"
        if by_instr:
            detail = f"{by_instr:.2f}x in instructions; " + detail
        target("scaling: time of 10x the input", f"{r:.2f}x ± {s:.2f}",
               f"≤ {SCALING_TARGET:g}x", r <= SCALING_TARGET, detail)

    # Memory.
    path = os.path.join(results, "memory.tsv")
    if os.path.exists(path):
        with open(path) as f:
            rows = [line.rstrip("\n").split("\t") + [""] for line in f][1:]
        rss = {(c, t): int(k) * 1024 for c, t, k, *_ in rows if k.isdigit()}
        found = {c: int(n) for c, t, _, n, *_ in rows if t == LINT and n.isdigit()}
        base = rss.get(("empty", LINT), 0)
        summary["memory"] = {f"{c}/{t}": v for (c, t), v in rss.items()}
        out += ["## Peak memory (max RSS)", "",
                f"iparams-lint on `{{}}`: {fmt_bytes(base)} (the process's fixed cost).", "",
                "| corpus | input | iparams-lint | ÷ input | above `{}` ÷ input | check-jsonschema | ajv-cli |",
                "|---|---|---|---|---|---|---|"]
        for c in ("typical", "many", "large", "broken", "findings", "valid"):
            for tool in (LINT, LINT_JSON):
                lint_rss = rss.get((c, tool))
                if lint_rss is None or not sizes.get(c):
                    continue
                ratio = lint_rss / sizes[c]
                net = (lint_rss - base) / sizes[c]
                peers = " | ".join(fmt_bytes(rss[(c, p)]) if (c, p) in rss else "—" for p in PEERS)
                shown = c if tool == LINT else f"{c}, `--format json`"
                out.append(f"| {shown} | {fmt_bytes(sizes[c])} | {fmt_bytes(lint_rss)} | "
                           f"{ratio:.2f}x | {net:.2f}x | {peers} |")
                if c in ("many", "large", "broken", "findings") and tool == LINT:
                    findings = found.get(c, 0)
                    allowed = MEMORY_PER_INPUT_BYTE * sizes[c] + MEMORY_PER_FINDING * findings
                    target(f"memory: peak RSS, {c}", fmt_bytes(lint_rss),
                           f"≤ {MEMORY_PER_INPUT_BYTE:g} × input + 1 KB a finding: {fmt_bytes(allowed)}",
                           lint_rss <= allowed,
                           f"{fmt_bytes(sizes[c])} in, {findings:,} findings; {net:.2f}x the input above start-up")
        out += ["", "broken: large.json with every iparam's `display_name` misspelt (two more "
                "findings each, 114,000 in all); findings: 100,001 iparams of an unknown type sharing one label, "
                "200,001 findings.",
                "", "The typical file (3 KB) is not judged: the fixed cost of a process "
                "dominates any file that small.", ""]

    # In-process.
    text = read(os.path.join(results, "inprocess.txt"))
    if text:
        benches = parse_divan(text)
        summary["inprocess"] = benches
        if "iparams_lint" in benches and "serde_json_value" in benches:
            floor = benches["serde_json_value"]
            out += ["## In-process (cargo bench -p iparams-bench, large.json)", "",
                    "| bench | median | mean | throughput (median) | ÷ serde_json Value |",
                    "|---|---|---|---|---|"]
            for name, b in benches.items():
                out.append(f"| {name} | {fmt_time(b['median'])} | {fmt_time(b['mean'])} | "
                           f"{b.get('throughput_median', '—')} | "
                           f"{b['median'] / floor['median']:.2f}x |")
            r = benches["iparams_lint"]["median"] / floor["median"]
            r_mean = benches["iparams_lint"]["mean"] / floor["mean"]
            out += ["", f"parse+lint takes **{r:.2f}x** the serde_json parse by medians "
                    f"({r_mean:.2f}x by means). Target ≤ {INPROCESS_TARGET:g}x: "
                    f"**{verdict(r <= INPROCESS_TARGET)}**.", ""]
            target("in-process: parse+lint ÷ serde_json::from_slice::<Value>", f"{r:.2f}x",
                   f"≤ {INPROCESS_TARGET:g}x", r <= INPROCESS_TARGET,
                   f"{fmt_time(benches['iparams_lint']['median'])} vs "
                   f"{fmt_time(floor['median'])} (medians)")

    # Sanity.
    rows = sanity(results, manifest)
    summary["sanity"] = rows
    out += ["## Did every tool do the work?", "",
            "One run of each tool on each corpus, its output kept in `sanity/`. Planted errors "
            "are those gen.py records in manifest.json.", "",
            "| corpus | tool | exit | files | planted errors found | reported |",
            "|---|---|---|---|---|---|"]
    for row in rows:
        if "found_files" in row:
            found = (f"{row['found_files']} of {row['planted_files']} files "
                     "(ajv stops at each file's first error)")
        elif "found" in row:
            found = f"{row['found']} of {row['planted']}"
        else:
            found = row.get("note", "—")
        out.append(f"| {row['corpus']} | {row['tool']} | {row['exit']} | "
                   f"{row.get('files', '—')} | {found} | {row.get('reported', '—')} |")
    out.append("")

    # The verdicts, last, so that they end the terminal output.
    out += ["## Targets", "", "| target | measured | goal | verdict | detail |",
            "|---|---|---|---|---|"]
    out += [f"| {n} | {m} | {g} | **{v}** | {d} |" for n, m, g, v, d in checks]
    met = sum(1 for c in checks if c[3] == "PASS")
    out += ["", f"{met} of {len(checks)} targets met. Benchmarks are not tests: a MISS does "
            "not fail the run.", ""]

    text = "\n".join(out)
    print(text)
    with open(os.path.join(results, "summary.md"), "w") as f:
        f.write("# iparams-lint benchmark results\n\n" + text)
    with open(os.path.join(results, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
