#!/usr/bin/env python3
"""Phase split, side by side: drrc apply -timing against mlir-opt --mlir-timing on the same workload.

    phases.py --drrc ./drrc --dir OUT [--sizes 100000] [--reps 5] [--drrc-args "..."]

Run ../shared/bench/compare.py first with --out OUT: it generates wN.pir and wN.mlir there and checks drrc's output
with verify.py. This script then runs the two tools in turn (A B A B ...) and prints, for parse, rewrite and print,
the median times and the median of the pairwise ratios. drrc's phases are its -timing line (parse = reading the
file, rewrite = the pass pipeline and the check of its result, print = writing the output); mlir-opt's are the
Parser, TestPDLByteCodePass (which includes the verifier mlir-opt runs after the pass) and Output rows of
--mlir-timing.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
UNITS = {'s': 1.0, 'ms': 1e-3, 'µs': 1e-6, 'us': 1e-6, 'ns': 1e-9}


def parse_drrc(stderr):
    """Returns drrc's parse, rewrite and print times from the -timing line of its standard error.

    The rewrite time includes the check of the result (drrc's own phase since it is timed apart from the printing,
    which it runs alongside), as mlir-opt's pass row includes the verifier it runs after the pass. A line without
    a check phase (an older drrc) is read as it is."""
    m = re.search(r'timing: parse ([\d.]+)(\S+?), rewrite ([\d.]+)(\S+?), (?:check ([\d.]+)(\S+?), )?'
                  r'print ([\d.]+)(\S+?)$', stderr, re.M)
    if not m:
        sys.exit(f'no timing line in drrc output:\n{stderr}')
    parse, rewrite, check, printing = (float(m[i]) * UNITS[m[i + 1]] if m[i] else 0.0 for i in (1, 3, 5, 7))
    return parse, rewrite + check, printing


def parse_mlir(stderr):
    """Returns mlir-opt's Parser, TestPDLByteCodePass and Output times from its --mlir-timing report."""
    def row(name):
        m = re.search(r'([\d.]+) \(\s*[\d.]+%\)\s+' + name, stderr)
        if not m:
            sys.exit(f'no {name} row in --mlir-timing output:\n{stderr}')
        return float(m[1])
    return row('Parser'), row(r'\(anonymous namespace\)::TestPDLByteCodePass'), row('Output')


def drrc_phases(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f'drrc failed: {" ".join(cmd)}\n{out.stderr}')
    return parse_drrc(out.stderr)


def mlir_phases(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f'mlir-opt failed: {" ".join(cmd)}\n{out.stderr}')
    return parse_mlir(out.stderr)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--drrc', required=True)
    ap.add_argument('--dir', required=True, help="compare.py's --out folder")
    ap.add_argument('--rules', default=os.path.join(HERE, 'mlir_equivalent.drr'))
    ap.add_argument('--sizes', type=int, nargs='+', default=[100000])
    ap.add_argument('--reps', type=int, default=5)
    ap.add_argument('--mlir-bin', default=os.environ.get('MLIR_BIN', '/usr/lib/llvm-22/bin'))
    ap.add_argument('--drrc-args', default='apply -unregistered -timing -rules {rules} {in} -o {out}')
    a = ap.parse_args()
    print('| N | phase | drrc s | mlir s | ratio drrc/mlir (pairwise median) |')
    print('|---:|---|---:|---:|---:|')
    for n in a.sizes:
        w = os.path.join(a.dir, f'w{n}')
        drrc = [a.drrc] + a.drrc_args.format(rules=a.rules, **{'in': w + '.pir', 'out': w + '.phases.pir'}).split()
        mlir = [f'{a.mlir_bin}/mlir-opt', '--allow-unregistered-dialect', '--test-pdl-bytecode-pass', '--mlir-timing',
                w + '.mlir', '-o', w + '.phases.mlir']
        pairs = [(drrc_phases(drrc), mlir_phases(mlir)) for _ in range(a.reps)]
        for i, name in enumerate(['parse', 'rewrite', 'print']):
            d = statistics.median(p[0][i] for p in pairs)
            m = statistics.median(p[1][i] for p in pairs)
            r = statistics.median(p[0][i] / p[1][i] for p in pairs)
            print(f'| {n} | {name} | {d:.3f} | {m:.3f} | {r:.2f} |')


if __name__ == '__main__':
    main()
