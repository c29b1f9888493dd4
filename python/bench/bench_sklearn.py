"""The Python package against scikit-learn, in one run (issue 42's numbers;
a benchmark, not a test).

(a) ``GridSearchSVC`` against ``GridSearchCV(SVC(), n_jobs=2)`` on the same
    folds: svmguide1 scaled to [-1, 1] as ``svm-scale`` does (fitted on the
    training file), grid.py's default grid (log2 C = -5..15 step 2, log2
    gamma = 3..-15 step -2: 110 points), ``StratifiedKFold(5, shuffle=True,
    random_state=0)``; checks that ``best_params_`` are equal and reports how
    the points' ``mean_test_score`` agree.
(b) ``cross_validate_svc`` (10 LIBSVM folds, one shared 2000 MB kernel
    cache, CSR input) twice, ``seeding="none"`` (svm-train -v's rounds from
    zero, bit for bit) and ``seeding="sir"`` (SIR's chain: each round's
    optimum within LIBSVM's stopping tolerance, at most one held-out row per
    fold apart), against one run of scikit-learn-intelex's
    ``cross_val_score(SVC(), cv=10)`` (dense input) on a9a, all at C = 1,
    gamma = 1/123 (LIBSVM's default, passed explicitly).

Runs of ours (seconds) are repeated (``--repeat``, median reported); the
peers' (tens of seconds) run once. Writes a Markdown table to ``--out``
and stdout. Usage (``make bench-python``):

    CVBENCH_DATA_DIR=/work/shared/datasets python bench_sklearn.py --out experiments/engine/logs/$(date -u +%F)-python-vs-scikit-learn.md
"""

import argparse
import datetime
import lzma
import os
import platform
import statistics
import subprocess
import time

import numpy as np
from sklearn.datasets import load_svmlight_file

import cvbench


def load(name):
    """A LIBSVM file of the data directory (plain or ``.xz``) as (X CSR, y)."""
    root = os.environ.get("CVBENCH_DATA_DIR", "data")
    path = os.path.join(root, name)
    if os.path.exists(path):
        return load_svmlight_file(path)
    if os.path.exists(path + ".xz"):
        with lzma.open(path + ".xz") as f:
            return load_svmlight_file(f)
    raise SystemExit(f"{name}: neither {path} nor {path}.xz exists (set CVBENCH_DATA_DIR to the datasets folder)")


def svm_scale(X):
    """``svm-scale -l -1 -u 1`` fitted on X itself: each feature mapped from
    [min, max] to [-1, 1]; a constant feature becomes 0 (svm-scale drops it)."""
    X = np.asarray(X.toarray(), dtype=np.float64)
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    return np.where(hi > lo, -1.0 + 2.0 * (X - lo) / span, 0.0)


def timed(f, repeat):
    """(median seconds, every time, the last result) of ``repeat`` calls."""
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), times, out


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def revision():
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        return subprocess.run(["git", "-C", here, "describe", "--always", "--dirty"],
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def grid_bench(repeat):
    from sklearn.model_selection import GridSearchCV, StratifiedKFold
    from sklearn.svm import SVC

    X, y = load("svmguide1")
    X = svm_scale(X)
    grid = {"C": [2.0 ** e for e in range(-5, 16, 2)], "gamma": [2.0 ** e for e in range(3, -16, -2)]}
    cv = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
    ours_s, ours_all, ours = timed(
        lambda: cvbench.GridSearchSVC(grid, cv=cv, n_jobs=2, refit=False).fit(X, y), repeat)
    theirs_s, _, theirs = timed(
        lambda: GridSearchCV(SVC(), grid, cv=cv, n_jobs=2, refit=False).fit(X, y), 1)
    a = ours.cv_results_["mean_test_score"]
    b = theirs.cv_results_["mean_test_score"]
    n_test = min(len(t) for _, t in cv)
    return {
        "what": f"grid: svmguide1 scaled ({X.shape[0]} rows), {len(a)} points x 5 stratified shuffled folds",
        "ours": ("cvbench.GridSearchSVC(reuse='all', n_jobs=2)", ours_s, ours_all),
        "theirs": ("sklearn GridSearchCV(SVC(), n_jobs=2)", theirs_s),
        "target": 10.0,
        "check": (
            f"best_params_ {'equal' if ours.best_params_ == theirs.best_params_ else 'DIFFER'}"
            f" ({ours.best_params_} / {theirs.best_params_}); mean_test_score equal at "
            f"{int((a == b).sum())} of {len(a)} points, max |diff| {np.abs(a - b).max():.2e}"
            f" (one held-out row per fold: {1.0 / n_test:.2e})"
        ),
    }


def cv_bench(repeat):
    """Two rows against one run of the peer: ours exact (svm-train -v's rounds
    from zero, bit for bit) and ours seeded (SIR's chain: every round's
    optimum within LIBSVM's stopping tolerance, at most one held-out row per
    fold apart: the project's exact fast CV)."""
    from sklearnex.svm import SVC as ExSVC
    from sklearn.model_selection import cross_val_score

    X, y = load("a9a")
    dense = X.toarray()  # oneDAL's SVC runs on dense input; 123 features
    gamma = 1.0 / X.shape[1]
    theirs_s, _, theirs = timed(
        lambda: cross_val_score(ExSVC(C=1.0, gamma=gamma), dense, y, cv=10), 1)
    peer = ("sklearnex cross_val_score(SVC(), cv=10), dense (StratifiedKFold(10))", theirs_s)
    rows = []
    for seeding, what in [
        ("none", "LIBSVM's folds, svm-train -v's rounds from zero: bit for bit"),
        ("sir", "LIBSVM's folds, SIR's chain: optimum within the stopping tolerance"),
    ]:
        ours_s, ours_all, ours = timed(
            lambda: cvbench.cross_validate_svc(X, y, C=1.0, gamma=gamma, cv=10, cache_size=2000,
                                               n_jobs=2, seeding=seeding), repeat)
        rows.append({
            "what": f"10-fold CV: a9a ({X.shape[0]} rows), C = 1, gamma = 1/{X.shape[1]}",
            "ours": (f"cvbench.cross_validate_svc(cv=10, seeding='{seeding}', cache_size=2000, "
                     f"n_jobs=2), CSR ({what})", ours_s, ours_all),
            "theirs": peer,
            "target": 2.0,
            "check": (
                f"mean accuracy ours {ours['test_score'].mean():.6f} (svm-train -v 10's folds), "
                f"scikit-learn-intelex {theirs.mean():.6f} (its folds)"
            ),
        })
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs of ours per benchmark (median)")
    ap.add_argument("--out", help="Markdown file to write (besides stdout)")
    ap.add_argument("--only", choices=["grid", "cv"], help="run one of the two")
    args = ap.parse_args()
    load_before = loadavg()
    rows = []
    if args.only in (None, "grid"):
        rows.append(grid_bench(args.repeat))
    if args.only in (None, "cv"):
        rows.extend(cv_bench(args.repeat))
    load_after = loadavg()
    lines = [
        "# cvbench for Python against scikit-learn",
        "",
        f"Measured {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC by "
        f"`python/bench/bench_sklearn.py` (`make bench-python`), revision {revision()}, "
        f"{platform.machine()} with {os.cpu_count()} cores; load average (1, 5, 15 min) "
        f"{load_before} before, {load_after} after. Ours: the median of {args.repeat} runs "
        "(all listed); the peer: one run. Wall-clock seconds of the whole call, "
        "both on the same data in the same process.",
        "",
        "| benchmark | cvbench | s | peer | s | speed-up | target | check |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        name, s, every = r["ours"]
        peer, ps = r["theirs"]
        ratio = ps / s
        met = "met" if ratio >= r["target"] else "NOT met"
        runs = ", ".join(f"{t:.2f}" for t in every)
        lines.append(
            f"| {r['what']} | {name} | {s:.2f} ({runs}) | {peer} | {ps:.2f} | "
            f"{ratio:.1f}x | {r['target']:g}x: {met} | {r['check']} |"
        )
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
