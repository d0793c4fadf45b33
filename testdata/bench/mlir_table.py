#!/usr/bin/env python3
"""docs/performance.md's tables against MLIR, made by one command, refused when the machine is busy.

    python3 testdata/bench/mlir_table.py [--drrc PATH] [--sizes 1000 10000 100000 1000000] [--reps 5]
        [--reps-1m 3] [--phases 100000 1000000] [--seed 7] [--max-load 0.5] [--wait 1800] [--out DIR]

Without --drrc it builds drrc from this checkout (go build ./cmd/drrc). For each size it runs
../shared/bench/compare.py once with --reps 1: compare.py generates the program in both syntaxes (gen.py, the
MLIR side with the lowered patterns), runs drrc and checks its output with verify.py (the op counts MLIR gives),
and warms the page cache. Then it times the two commands in turn (drrc, mlir-opt; A B A B ...) with compare.py's
command lines (each run writing a new file: the output of the run before is removed, and dirty pages flushed,
before the clock starts), and for each pair records:

  - the 1-minute load average just before the pair and just after it (/proc/loadavg);
  - how many other threads were runnable during the pair and the half second before it, sampled every 50 ms
    (/proc/stat procs_running, less the sampler's own thread and the timed command's runnable threads: a command
    with two busy threads is not another process; the half second gives a 15 ms pair ten samples).

A pair counts only if the load average before it and the mean of the other runnable processes during it are both
at most --max-load: the load average after a pair includes the pair itself (a 40 s mlir-opt run at 1M blocks
raises the 1-minute average by about 0.5 on its own), so it is recorded, not judged. With --wait S the script waits
up to S seconds before each pair for the load average to fall to --max-load (and for its own previous pair to fade
from it). If a pair still runs loaded, the tables are printed under a LOADED banner and the exit status is 2: such a
table must not go into the docs (MLIR slows down more than drrc on a busy machine, so a loaded table flatters drrc).

The tables are Markdown, ready for docs/performance.md: per size, the ops in and out, the median of the pairwise
wall-time ratios drrc/mlir, the median peak RSS of each, and the load range; with --phases N, the parse / rewrite /
print split at N blocks (phases.py's measurement: drrc apply -timing against mlir-opt --mlir-timing), also
alternated and judged the same way, with drrc's parse and print throughput (the input's bytes per parse second,
the output's per print second: issue 36 asks for 800 MB/s each at 1M blocks).
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
BENCH = os.path.normpath(os.path.join(REPO, '..', 'shared', 'bench'))
sys.path.insert(0, HERE)
import phases  # noqa: E402  (drrc_phases, mlir_phases: the -timing and --mlir-timing parsers)


def loadavg():
    with open('/proc/loadavg') as f:
        return float(f.read().split()[0])


def procs_running():
    with open('/proc/stat') as f:
        for line in f:
            if line.startswith('procs_running'):
                return int(line.split()[1])
    return 0


def runnable_threads(pid):
    """Returns how many threads of process pid are runnable (state R in /proc/pid/task/*/stat), 0 if it is gone."""
    n = 0
    try:
        tids = os.listdir(f'/proc/{pid}/task')
    except OSError:
        return 0
    for tid in tids:
        try:
            with open(f'/proc/{pid}/task/{tid}/stat') as f:
                st = f.read()
        except OSError:
            continue
        if st[st.rindex(')') + 2] == 'R':
            n += 1
    return n


class Sampler:
    """Samples the number of runnable threads other than this script's sampler and the timed command's.

    procs_running counts threads: a timed command with two busy threads (a Go program's collector, or drrc's
    measurement overlapping its printing) would otherwise count as another process. The timed command's pid is
    set by run_measured while it runs. Sampling starts PREROLL seconds before the pair, so that a pair of 15 ms
    (1,000 blocks) is judged on 10 samples and more, not on the one or none its own length would give.
    """

    INTERVAL = 0.05
    PREROLL = 0.5

    def __init__(self):
        self.samples = []
        self.pid = None
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        while not self.stop.wait(self.INTERVAL):
            own = 1  # the sampler thread itself, running while it reads
            pid = self.pid
            if pid is not None:
                own += runnable_threads(pid)
            self.samples.append(max(0, procs_running() - own))

    def __enter__(self):
        self.thread.start()
        time.sleep(self.PREROLL)
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()

    def mean(self):
        return statistics.mean(self.samples) if self.samples else 0.0


def remove_output(cmd):
    """Removes the file cmd writes (the argument after -o), left by the previous pair, and flushes what is dirty.

    A tool that replaces an existing file makes the kernel drop the old file's pages as it renames or truncates,
    inside the timed run: at 1M blocks, drrc's print phase took 0.28-0.32 s into a new file and 0.43-0.67 s over its
    own 413 MB output of the pair before. Both tools get a new file, so the pairs time the tools, not the file
    system's eviction of what the harness left."""
    out = cmd[cmd.index('-o') + 1]
    if os.path.exists(out):
        os.remove(out)
    os.sync()


def run_measured(cmd, sampler=None):
    """Runs cmd, returns (wall seconds, peak RSS MiB, stderr text); sampler, if given, is told its pid."""
    remove_output(cmd)
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if sampler is not None:
        sampler.pid = proc.pid
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if sampler is not None:
        sampler.pid = None
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f'failed ({os.waitstatus_to_exitcode(status)}): {" ".join(cmd)}\n{err}')
    return wall, usage.ru_maxrss / 1024.0, err


def wait_quiet(max_load, wait):
    """Waits up to wait seconds for the load average to fall to max_load; returns the load average then."""
    deadline = time.time() + wait
    load = loadavg()
    while load > max_load and time.time() < deadline:
        time.sleep(10)
        load = loadavg()
    return load


def pair(cmds, a):
    """Runs the commands in turn and returns their measurements with the load before, after and during them."""
    before = wait_quiet(a.max_load, a.wait)
    with Sampler() as s:
        results = [run_measured(c, s) for c in cmds]
    after = loadavg()
    others = s.mean()
    return {'results': results, 'before': before, 'after': after, 'others': others,
            'quiet': before <= a.max_load and others <= a.max_load}


def op_counts(expect):
    """Returns the ops before and after rewriting that gen.py predicted (its --expect file, which verify.py checked
    drrc's output against)."""
    with open(expect) as f:
        e = json.load(f)
    return e['ops_before'], e['ops_after']


def load_range(pairs):
    lo = min(p['before'] for p in pairs)
    hi = max(max(p['before'], p['after']) for p in pairs)
    others = max(p['others'] for p in pairs)
    return f'{lo:.2f}–{hi:.2f} (others runnable ≤ {others:.2f})'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--drrc', help='drrc binary (default: build this checkout)')
    ap.add_argument('--sizes', type=int, nargs='+', default=[1000, 10000, 100000, 1000000])
    ap.add_argument('--reps', type=int, default=5, help='pairs per size below 1M blocks')
    ap.add_argument('--reps-1m', type=int, default=3, help='pairs per size of 1M blocks or more')
    ap.add_argument('--phases', type=int, nargs='*', default=[100000, 1000000], help='sizes of the phase table')
    ap.add_argument('--seed', type=int, default=7)
    ap.add_argument('--max-load', type=float, default=0.5)
    ap.add_argument('--wait', type=float, default=0, help='seconds to wait before each pair for a quiet machine')
    ap.add_argument('--out', default=os.path.join(REPO, 'out-mlir-table'))
    ap.add_argument('--mlir-bin', default=os.environ.get('MLIR_BIN', '/usr/lib/llvm-22/bin'))
    ap.add_argument('--json', help='also write every measurement to this file')
    a = ap.parse_args()
    if not os.path.exists(os.path.join(BENCH, 'compare.py')):
        sys.exit(f'{BENCH}/compare.py is absent: the MLIR side lives in ../shared/bench')
    if not os.path.exists(os.path.join(a.mlir_bin, 'mlir-opt')):
        sys.exit(f'{a.mlir_bin}/mlir-opt is absent: apt-get install -y mlir-22-tools')
    os.makedirs(a.out, exist_ok=True)
    drrc = a.drrc
    if not drrc:
        drrc = os.path.join(a.out, 'drrc')
        subprocess.run(['go', 'build', '-o', drrc, './cmd/drrc'], cwd=REPO, check=True)
    drrc = os.path.abspath(drrc)
    rules = os.path.join(HERE, 'mlir_equivalent.drr')
    sizes = sorted(set(a.sizes) | set(a.phases))
    loaded = False
    record = {'machine': os.uname().nodename, 'max_load': a.max_load, 'seed': a.seed, 'sizes': {}, 'phases': {}}
    rows = []
    for n in sizes:
        # compare.py generates both forms, checks drrc's output (verify.py) and warms the page cache.
        c = subprocess.run([sys.executable, os.path.join(BENCH, 'compare.py'), '--drrc', drrc, '--rules', rules,
                            '--sizes', str(n), '--reps', '1', '--seed', str(a.seed), '--out', a.out,
                            '--mlir-bin', a.mlir_bin], capture_output=True, text=True)
        if c.returncode != 0:
            sys.exit(f'compare.py failed at {n} blocks:\n{c.stdout}{c.stderr}')
        w = os.path.join(a.out, f'w{n}')
        if n not in a.sizes:
            continue
        ops_in, ops_out = op_counts(w + '.json')
        d_cmd = [drrc, 'apply', '-unregistered', '-rules', rules, w + '.pir', '-o', w + '.drrc.pir']
        m_cmd = [f'{a.mlir_bin}/mlir-opt', '--allow-unregistered-dialect', '--test-pdl-bytecode-pass', w + '.mlir',
                 '-o', w + '.mlir.out']
        reps = a.reps_1m if n >= 1000000 else a.reps
        pairs = [pair([d_cmd, m_cmd], a) for _ in range(reps)]
        loaded |= not all(p['quiet'] for p in pairs)
        ratio = statistics.median(p['results'][0][0] / p['results'][1][0] for p in pairs)
        dw = statistics.median(p['results'][0][0] for p in pairs)
        mw = statistics.median(p['results'][1][0] for p in pairs)
        dr = statistics.median(p['results'][0][1] for p in pairs)
        mr = statistics.median(p['results'][1][1] for p in pairs)
        rows.append((n, ops_in, ops_out, ratio, dw, mw, dr, mr, load_range(pairs)))
        record['sizes'][n] = [{k: v for k, v in p.items() if k != 'results'} |
                              {'drrc': p['results'][0][:2], 'mlir': p['results'][1][:2]} for p in pairs]
    phase_rows = []
    for n in a.phases:
        w = os.path.join(a.out, f'w{n}')
        d_cmd = [drrc, 'apply', '-unregistered', '-timing', '-rules', rules, w + '.pir', '-o', w + '.phases.pir']
        m_cmd = [f'{a.mlir_bin}/mlir-opt', '--allow-unregistered-dialect', '--test-pdl-bytecode-pass',
                 '--mlir-timing', w + '.mlir', '-o', w + '.phases.mlir']
        pairs = []
        for _ in range(a.reps_1m if n >= 1000000 else a.reps):
            p = pair([d_cmd, m_cmd], a)
            p['drrc'] = phases.parse_drrc(p['results'][0][2])
            p['mlir'] = phases.parse_mlir(p['results'][1][2])
            pairs.append(p)
        loaded |= not all(p['quiet'] for p in pairs)
        # drrc's throughput: the input's bytes per parse second, the output's per print second.
        nbytes = {'parse': os.path.getsize(w + '.pir'), 'print': os.path.getsize(w + '.phases.pir')}
        for i, name in enumerate(['parse', 'rewrite', 'print']):
            d = statistics.median(p['drrc'][i] for p in pairs)
            m = statistics.median(p['mlir'][i] for p in pairs)
            r = statistics.median(p['drrc'][i] / p['mlir'][i] for p in pairs)
            mbs = f'{nbytes[name] / d / 1e6:,.0f} MB/s' if name in nbytes and d > 0 else ''
            phase_rows.append((n, name, d, mbs, m, r, load_range(pairs)))
        record['phases'][n] = [{k: v for k, v in p.items() if k != 'results'} for p in pairs]
    if a.json:
        with open(a.json, 'w') as f:
            json.dump(record, f, indent=1)
    if loaded:
        print(f'LOADED: some pairs ran with a load average or other runnable processes above {a.max_load}; '
              f'these tables must not go into the docs (run again on a quiet machine, or with --wait).\n')
    print(f'End to end, seed {a.seed}, medians of {a.reps} pairs ({a.reps_1m} at 1M blocks), drrc {drrc}:\n')
    print('| blocks | ops in → out | wall time, drrc / MLIR | wall s, drrc / MLIR | peak RSS, drrc / MLIR | load average |')
    print('|---:|---:|---:|---:|---:|---|')
    for n, oi, oo, ratio, dw, mw, dr, mr, lr in rows:
        print(f'| {n:,} | {oi:,} → {oo:,} | {ratio:.2f} | {dw:.3f} / {mw:.3f} | {dr:,.0f} / {mr:,.0f} MiB '
              f'({dr / mr:.2f}) | {lr} |')
    if phase_rows:
        print('\nPhases (drrc apply -timing against mlir-opt --mlir-timing):\n')
        print('| blocks | phase | drrc s | drrc MB/s | MLIR s | drrc / MLIR (pairwise median) | load average |')
        print('|---:|---|---:|---:|---:|---:|---|')
        for n, name, d, mbs, m, r, lr in phase_rows:
            print(f'| {n:,} | {name} | {d:.3f} | {mbs} | {m:.3f} | {r:.2f} | {lr} |')
    sys.exit(2 if loaded else 0)


if __name__ == '__main__':
    main()
