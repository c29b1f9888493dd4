#!/usr/bin/env python3
"""One training and one 10-fold CV with the batched working-set solver
(`--solver batched`, issue 44) against our LIBSVM-identical SMO and Intel
oneDAL (scikit-learn-intelex's SVC), in one run on this machine.

Sets (from CVBENCH_DATA_DIR, the verified copies; each written once into
WORK as a LibSVM file): a9a, w8a, mnist5k-eo (MNIST's first 5,000 training
digits, +1 even / -1 odd, pixels / 255) and madelon-scaled (UCI Madelon's
2,000 training rows, every feature scaled to [-1, 1] as svm-scale does).
LIBSVM's defaults: C = 1, gamma = 1 / the largest feature index, eps =
0.001, -m 100 (oneDAL: cache_size 100, tol 0.001, dense input as it
needs). Each timed run REPS times, interleaved (smo, batched, oneDAL, smo,
...); the table gives medians and ranges of the training time only (data
loading excluded on both sides: our --json `seconds`, oneDAL's `fit`).

Also: the objective of each solver (the SMO's is svm-train's), the relative
objective gap, the training rows that the two models predict otherwise
(svm-predict on our model files), and `cvbench svm -v 10` with each solver.

Usage: benches/batched_solver.py [SET ...]   (default: all four)
Env: CVBENCH_DATA_DIR, BIN (release cvbench, default target/release/cvbench),
REPS (3), WORK (a temporary folder), CV (1: also the 10-fold CVs of a9a),
THREADS (2). Prints Markdown on stdout, progress on stderr.
"""
import json
import lzma
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import time

DATA = os.environ.get("CVBENCH_DATA_DIR", "/work/shared/datasets")
BIN = os.environ.get("BIN", "target/release/cvbench")
REPS = int(os.environ.get("REPS", "3"))
THREADS = os.environ.get("THREADS", "2")
WORK = os.environ.get("WORK") or tempfile.mkdtemp(prefix="cvbench-batched-")
CV = os.environ.get("CV", "1") == "1"


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def load():
    return os.getloadavg()[0]


def need(path, how):
    if not os.path.exists(path):
        sys.exit(f"missing {path}: {how}")


def write_rows(out, rows):
    with open(out, "w") as f:
        for label, feats in rows:
            f.write(f"{label} " + " ".join(f"{j + 1}:{v!r}" for j, v in feats) + "\n")


def prepare(name):
    out = os.path.join(WORK, name)
    if os.path.exists(out):
        return out
    how = "fetch the dataset (README: Datasets) into CVBENCH_DATA_DIR"
    if name in ("a9a", "w8a"):
        src = os.path.join(DATA, name + ".xz")
        need(src, how)
        # Blank lines dropped (svm-predict refuses them; both trainers skip them).
        with lzma.open(src) as f, open(out, "wb") as g:
            g.writelines(line for line in f if line.strip())
    elif name == "mnist5k-eo":
        src = os.path.join(DATA, "train-images-idx3-ubyte.xz")
        lab = os.path.join(DATA, "train-labels-idx1-ubyte.xz")
        need(src, how)
        need(lab, how)
        img = lzma.open(src).read()
        lb = lzma.open(lab).read()
        _, _, r, c = struct.unpack(">IIII", img[:16])
        d = r * c
        rows = []
        for i in range(5000):
            px = img[16 + i * d:16 + (i + 1) * d]
            y = 1 if lb[8 + i] % 2 == 0 else -1
            rows.append((y, [(j, v / 255) for j, v in enumerate(px) if v]))
        write_rows(out, rows)
    elif name == "madelon-scaled":
        src = os.path.join(DATA, "madelon_train.data.xz")
        lab = os.path.join(DATA, "madelon_train.labels.xz")
        need(src, how)
        need(lab, how)
        x = [list(map(float, l.split())) for l in lzma.open(src).read().decode().splitlines()]
        y = [int(l) for l in lzma.open(lab).read().decode().split()]
        d = len(x[0])
        lo = [min(r[j] for r in x) for j in range(d)]
        hi = [max(r[j] for r in x) for j in range(d)]
        rows = []
        for r, t in zip(x, y):
            feats = []
            for j in range(d):
                if hi[j] > lo[j]:
                    v = -1 + 2 * (r[j] - lo[j]) / (hi[j] - lo[j])
                    if v != 0:
                        feats.append((j, v))
            rows.append((t, feats))
        write_rows(out, rows)
    else:
        sys.exit(f"unknown set {name}")
    return out


def ours(path, solver, model, extra=()):
    cmd = [BIN, "svm", "-q", "--json", "--solver", solver, *extra, path]
    if model:
        cmd.append(model)
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {p.returncode}\n{p.stderr}")
    return json.loads(p.stdout.strip().splitlines()[-1])


ONEDAL = r"""
import sys, time
from sklearnex import patch_sklearn
patch_sklearn(verbose=False)
from sklearn.datasets import load_svmlight_file
from sklearn.svm import SVC
X, y = load_svmlight_file(sys.argv[1])
X = X.toarray()
m = SVC(C=1.0, gamma=1.0 / X.shape[1], tol=1e-3, cache_size=100)
t = time.perf_counter()
m.fit(X, y)
print(time.perf_counter() - t, int(m.support_.shape[0]))
"""


def onedal(path):
    p = subprocess.run([sys.executable, "-c", ONEDAL, path], capture_output=True, text=True)
    if p.returncode != 0:
        return None, None
    s, nsv = p.stdout.split()
    return float(s), int(nsv)


def fmt(xs):
    if not xs:
        return "–"
    m = statistics.median(xs)
    return f"{m:.2f} ({min(xs):.2f}–{max(xs):.2f})" if len(xs) > 1 else f"{m:.2f}"


def flips(path, m1, m2):
    outs = []
    for m in (m1, m2):
        p = subprocess.run(["svm-predict", path, m, m + ".pred"], capture_output=True, text=True)
        if p.returncode != 0:
            return None
        outs.append(open(m + ".pred").read().split())
    return sum(a != b for a, b in zip(*outs))


def main():
    sets = sys.argv[1:] or ["a9a", "w8a", "mnist5k-eo", "madelon-scaled"]
    have_onedal = subprocess.run([sys.executable, "-c", "import sklearnex"], capture_output=True).returncode == 0
    print(f"Run at {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}, {REPS} runs each, "
          f"load average at start {load():.2f}; BIN={BIN}\n")
    print("| set | rows | ours SMO s | ours batched s | oneDAL fit s | batched / oneDAL | SMO / batched | "
          "objective SMO | objective batched | rel. gap | rows predicted otherwise | nSV smo / batched / oneDAL | working sets | load |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    cv_rows = []
    for name in sets:
        path = prepare(name)
        t = {"smo": [], "batched": [], "onedal": []}
        res = {}
        nsv_dal = None
        l0 = load()
        for r in range(REPS):
            for solver in ("smo", "batched"):
                log(f"[{name}] {solver} run {r + 1}")
                j = ours(path, solver, os.path.join(WORK, f"{name}.{solver}.model"))
                t[solver].append(j["seconds"])
                res[solver] = j
            if have_onedal:
                log(f"[{name}] oneDAL run {r + 1}")
                s, nsv_dal = onedal(path)
                if s is not None:
                    t["onedal"].append(s)
        ms, mb = statistics.median(t["smo"]), statistics.median(t["batched"])
        md = statistics.median(t["onedal"]) if t["onedal"] else None
        os_, ob = res["smo"]["objective"], res["batched"]["objective"]
        fl = flips(path, os.path.join(WORK, f"{name}.smo.model"), os.path.join(WORK, f"{name}.batched.model"))
        print(f"| {name} | {res['smo']['rows']} | {fmt(t['smo'])} | {fmt(t['batched'])} | {fmt(t['onedal'])} | "
              f"{(mb / md) if md else float('nan'):.2f}x | {ms / mb:.2f}x | {os_:.6f} | {ob:.6f} | "
              f"{abs(ob - os_) / abs(os_):.1e} | {fl if fl is not None else '–'} | "
              f"{res['smo']['n_sv']} / {res['batched']['n_sv']} / {nsv_dal if nsv_dal else '–'} | "
              f"{res['batched'].get('working_sets', '–')} | {l0:.2f}–{load():.2f} |")
        if CV and name == "a9a":
            for solver, extra in (("smo", ["--seeding", "sir"]), ("batched", ["--seeding", "sir"]),
                                  ("batched", [])):
                args = ["-v", "10", "-m", "2000", "--cache", "shared", "--threads", THREADS, *extra]
                xs, j = [], None
                for r in range(REPS):
                    log(f"[{name}] -v 10 {solver} {' '.join(extra)} run {r + 1}")
                    j = ours(path, solver, None, args)
                    xs.append(j["seconds"])
                cv_rows.append((name, solver, " ".join(extra) or "(none)", xs, j["correct"], j["cv_accuracy_pct"], md))
    if cv_rows:
        print("\n| set | 10-fold CV | seeding | seconds | correct | accuracy | CV / oneDAL one fit |")
        print("|---|---|---|---|---|---|---|")
        for name, solver, seeding, xs, correct, pct, md in cv_rows:
            print(f"| {name} | {solver} | {seeding} | {fmt(xs)} | {correct} | {pct:.4f}% | "
                  f"{(statistics.median(xs) / md) if md else float('nan'):.2f}x |")


if __name__ == "__main__":
    main()
