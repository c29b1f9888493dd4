"""GridSearchSVC(param_grid, estimator=cvbench.SVR()) against scikit-learn's
GridSearchCV(SVR(), param_grid, n_jobs=2) on the same folds (issue 56's
target: at least 10x, the same best_params_): abalone_scale, C x gamma x
epsilon 5 x 5 x 3, KFold(5). Each side runs ``--repeats`` times where a
run is under ``--once-after`` seconds (default 60; once otherwise); the load average is recorded
before and after every run (the machine may be shared), and the CPU
seconds of the process and its joblib workers (the fairer comparison on a
loaded machine). Prints a Markdown
table; ``--out`` also writes it.

    CVBENCH_DATA_DIR=/work/shared/datasets PYTHONPATH=python \\
        python3 python/bench/bench_grid_svr.py --repeats 3
"""

import argparse
import lzma
import os
import time

import numpy as np
from sklearn.datasets import load_svmlight_file
from sklearn.model_selection import GridSearchCV, KFold
from sklearn.svm import SVR as SkSVR

import cvbench

GRID = {
    "C": [2.0**e for e in (-1, 1, 3, 5, 7)],
    "gamma": [2.0**e for e in (-5, -3, -1, 1, 3)],
    "epsilon": [2.0**e for e in (-5, -3, -1)],
}


def load(name):
    path = os.path.join(os.environ.get("CVBENCH_DATA_DIR", "data"), f"{name}.xz")
    with lzma.open(path) as f:
        X, y = load_svmlight_file(f)
    return X.toarray(), y


def load_average():
    return os.getloadavg()[0]


def descendants_cpu():
    """{pid: CPU seconds (user + system)} of this process's descendants
    (scikit-learn's joblib workers), from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    stats = {}
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                stats[int(pid)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick)
            except (OSError, IndexError, ValueError):
                pass
    mine, frontier = {}, {os.getpid()}
    while frontier:
        frontier = {pid for pid, (ppid, _) in stats.items() if ppid in frontier and pid not in mine}
        mine.update({pid: stats[pid][1] for pid in frontier})
    return mine


def cpu_now():
    """(this process's CPU seconds, its descendants')."""
    return time.process_time(), descendants_cpu()


def cpu_since(start):
    """CPU seconds of this process and its descendants since ``start``."""
    own, kids = cpu_now()
    return own - start[0] + sum(v - start[1].get(pid, 0.0) for pid, v in kids.items())


def interval(ours, theirs, resamples=2000, seed=56):
    """The 95% percentile-bootstrap interval of the ratio of medians
    (theirs / ours), each side resampled on its own with a fixed seed, as
    the harness's evidence rule; a note where a side was timed once."""
    if min(len(ours), len(theirs)) < 2:
        return "(a side timed once: no interval)"
    rng = np.random.default_rng(seed)
    o, t = np.asarray(ours), np.asarray(theirs)
    ratios = [
        np.median(rng.choice(t, len(t))) / np.median(rng.choice(o, len(o)))
        for _ in range(resamples)
    ]
    lo, hi = np.percentile(ratios, [2.5, 97.5])
    return f"[95% bootstrap: {lo:.2f}, {hi:.2f}]"


def timed(label, run, repeats, once_after):
    """(label, [seconds], [CPU seconds], [(load before, load after)], last
    result): `repeats` runs, or fewer where one takes `once_after` s or more."""
    times, cpus, loads, out = [], [], [], None
    for r in range(repeats):
        before = load_average()
        c0 = cpu_now()
        t0 = time.perf_counter()
        out = run()
        seconds = time.perf_counter() - t0
        times.append(seconds)
        cpus.append(cpu_since(c0))
        loads.append((before, load_average()))
        print(f"{label} run {r + 1}: {seconds:.1f} s wall, {cpus[-1]:.1f} s CPU "
              f"(load {before:.2f} -> {loads[-1][1]:.2f})", flush=True)
        if seconds >= once_after:
            break
    return label, times, cpus, loads, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="abalone_scale")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--n-jobs", type=int, default=2)
    ap.add_argument(
        "--reuse",
        default=None,
        help="GridSearchSVC's reuse level (default: its default, the exact "
        "gamma+threads; 'cpath' or 'all': warm starts along C and epsilon)",
    )
    ap.add_argument(
        "--once-after",
        type=float,
        default=60.0,
        help="a side whose run takes this many seconds or more runs once",
    )
    ap.add_argument("--out")
    a = ap.parse_args()
    extra = {} if a.reuse is None else {"reuse": a.reuse}
    X, y = load(a.data)
    cv = KFold(a.folds)
    reuse = "" if a.reuse is None else f", reuse={a.reuse!r}"
    ours = timed(
        f"cvbench.GridSearchSVC(estimator=SVR(), n_jobs={a.n_jobs}{reuse})",
        lambda: cvbench.GridSearchSVC(
            GRID, estimator=cvbench.SVR(), cv=cv, n_jobs=a.n_jobs, **extra
        ).fit(X, y),
        a.repeats,
        a.once_after,
    )
    theirs = timed(
        f"sklearn GridSearchCV(SVR(), n_jobs={a.n_jobs})",
        lambda: GridSearchCV(SkSVR(), GRID, cv=cv, n_jobs=a.n_jobs).fit(X, y),
        a.repeats,
        a.once_after,
    )
    g_ours, g_theirs = ours[4], theirs[4]
    same = g_ours.best_params_ == g_theirs.best_params_
    diff = np.max(np.abs(g_ours.cv_results_["mean_test_score"] / g_theirs.cv_results_["mean_test_score"] - 1))
    lines = [
        f"{a.data} ({X.shape[0]} x {X.shape[1]}), grid {len(GRID['C'])} x {len(GRID['gamma'])} x "
        f"{len(GRID['epsilon'])} (C x gamma x epsilon), KFold({a.folds}), scoring R^2 (the default)",
        "",
        "| run | wall s (each run) | best wall s | CPU s (each run) | load avg (1 min) before -> after |",
        "|---|---|---:|---|---|",
    ]
    for label, times, cpus, loads, _ in (ours, theirs):
        lines.append(
            f"| {label} | {', '.join(f'{t:.1f}' for t in times)} | {min(times):.1f} | "
            f"{', '.join(f'{c:.1f}' for c in cpus)} | "
            f"{'; '.join(f'{b:.2f} -> {e:.2f}' for b, e in loads)} |"
        )
    lines += [
        "",
        f"- wall speed-up, best against best: {min(theirs[1]) / min(ours[1]):.2f}x; "
        f"median against median: {np.median(theirs[1]) / np.median(ours[1]):.2f}x "
        f"{interval(ours[1], theirs[1])}",
        f"- CPU seconds (this process and its joblib workers), least against least: "
        f"{min(theirs[2]) / min(ours[2]):.2f}x less work",
        f"- same best_params_: {same} (ours {g_ours.best_params_}, scikit-learn's {g_theirs.best_params_}); "
        f"best_score_ {g_ours.best_score_:.10g} vs {g_theirs.best_score_:.10g}",
        f"- largest relative difference of the 75 mean_test_score: {diff:.3g}",
    ]
    text = "\n".join(lines)
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
