#!/usr/bin/env python3
"""Run svm-train/svm-predict and `cvbench svm` (the release example) on the
same data and settings; print a markdown table row per case.

usage: solver_check.py OURS_BINARY DATA_DIR CASE...
CASE is name:trainfile:testfile:options, e.g.
  heart_paper:heart_scale:heart_scale:-c 2182 -g 0.2
Files are plain LibSVM files in DATA_DIR (decompress the .xz copies first;
w8a needs its trailing blank line removed for svm-train).
"""
import re, subprocess, sys, time

def run(cmd):
    t = time.time()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return out, time.time() - t

def parse(out):
    g = lambda pat, f=float: f(re.search(pat, out).group(1))
    return dict(iter=g(r"#iter = (\d+)", int), obj=g(r"obj = (-?[\d.]+)"),
                rho=g(r"rho = (-?[\d.]+)"), nsv=g(r"nSV = (\d+)", int),
                nbsv=g(r"nBSV = (\d+)", int),
                acc=re.search(r"Accuracy = ([\d.]+%)", out).group(1) if "Accuracy" in out else "")

ours_bin, data = sys.argv[1], sys.argv[2]
print("| case | options | iter ours / libsvm | obj ours / libsvm (rel. diff) | nSV ours / libsvm | nBSV ours / libsvm | accuracy ours / libsvm | train s: ours solve (init+train) / svm-train process | predict s: ours / svm-predict process | ours whole process s (read+train+predict) |")
print("|---|---|---|---|---|---|---|---|---|---|")
for case in sys.argv[3:]:
    name, train, test, opts = case.split(":", 3)
    o = opts.split()
    lib_out, lib_s = run(["svm-train", *o, f"{data}/{train}", f"/tmp/{name}.model"])
    pred_out, pred_s = run(["svm-predict", f"{data}/{test}", f"/tmp/{name}.model", f"/tmp/{name}.pred"])
    lib = parse(lib_out + pred_out)
    our_out, our_s = run([ours_bin, f"{data}/{train}", *o, "--stats", "--test", f"{data}/{test}"])
    ours = parse(our_out)
    m = re.search(r"init ([\d.]+)s, train ([\d.]+)s", our_out)
    solve_s = float(m.group(1)) + float(m.group(2))
    our_pred_s = float(re.findall(r"predict ([\d.]+)s\n", our_out)[-1])
    rel = abs(ours["obj"] - lib["obj"]) / abs(lib["obj"])
    print(f"| {name} ({test}) | `{opts}` | {ours['iter']} / {lib['iter']} | {ours['obj']} / {lib['obj']} ({rel:.1e}) | "
          f"{ours['nsv']} / {lib['nsv']} | {ours['nbsv']} / {lib['nbsv']} | {ours['acc']} / {lib['acc']} | "
          f"{solve_s:.2f} / {lib_s:.2f} | {our_pred_s:.2f} / {pred_s:.2f} | {our_s:.2f} |", flush=True)
