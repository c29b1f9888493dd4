"""cvbench.treecv and cvbench.kfold against brute-force NumPy computations of
the same estimates (the learners' updates written out again here, in the
orders TreeCV's recursion and standard k-fold CV feed them) and against the
harness (`cvbench run` on a treecv config), their counters against the cost
formulas, and their refusals."""

import csv
import os
import subprocess

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.model_selection import KFold

import cvbench
from cvbench._params import native_x


def _pegasos(X, y, rows, lam):
    """PEGASOS's last iterate after the points ``rows`` in order."""
    w = np.zeros(X.shape[1])
    for t, i in enumerate(rows, start=1):
        eta = 1.0 / (lam * t)
        margin = y[i] * (w @ X[i])
        w = np.zeros_like(w) if t == 1 else (1.0 - eta * lam) * w
        if margin < 1.0:
            w = w + eta * y[i] * X[i]
    return w


def _pegasos_loss(w, X, y, rows):
    pred = np.where(X[rows] @ w >= 0.0, 1.0, -1.0)
    return float(np.mean(pred != y[rows]))


def _ridge(X, y, rows, lam):
    A = X[rows].T @ X[rows] + lam * np.eye(X.shape[1])
    return np.linalg.solve(A, X[rows].T @ y[rows])


def _ridge_loss(w, X, y, rows):
    return float(np.mean((X[rows] @ w - y[rows]) ** 2))


def _chunks(n, k):
    return [test for _, test in KFold(k).split(np.zeros(n))]


def _kfold_ref(train, loss, chunks):
    k = len(chunks)
    losses = [loss(train(np.concatenate(chunks[:i] + chunks[i + 1:])), chunks[i]) for i in range(k)]
    return sum(losses) / k


def _treecv_ref(train, loss, chunks):
    """Algorithm 1 of Joulani et al.: node (s, e) holds a model trained on
    every chunk outside s..e; its left child adds chunks m+1..e, its right
    child chunks s..m."""
    k = len(chunks)

    def node(s, e, fed):
        if s == e:
            return loss(train(np.asarray(fed, dtype=int)), chunks[s]) / k
        m = (s + e) // 2
        left = node(s, m, fed + [i for c in chunks[m + 1:e + 1] for i in c])
        return left + node(m + 1, e, fed + [i for c in chunks[s:m + 1] for i in c])

    return node(0, k - 1, [])


def _depth(k, i):
    s, e, d = 0, k - 1, 0
    while s != e:
        m = (s + e) // 2
        s, e = (s, m) if i <= m else (m + 1, e)
        d += 1
    return d


@pytest.fixture(scope="module")
def regression(binary):
    X, _ = binary
    X = X[:, :8]
    rng = np.random.default_rng(0)
    return X, X @ rng.normal(size=8) + 0.3 * rng.normal(size=len(X))


@pytest.mark.parametrize("k", [2, 5, 7])
def test_pegasos_estimates_are_the_brute_force_ones(binary, k):
    X, y01 = binary
    y = np.where(y01 == 1, 1.0, -1.0)  # classes_[1] is +1
    lam = 0.01
    chunks = _chunks(len(y), k)
    train = lambda rows: _pegasos(X, y, rows, lam)
    loss = lambda w, rows: _pegasos_loss(w, X, y, rows)
    t = cvbench.treecv(X, y01, learner="pegasos", k=k, lambda_=lam)
    s = cvbench.kfold(X, y01, learner="pegasos", k=k, **{"lambda": lam})
    assert t["estimate"] == pytest.approx(_treecv_ref(train, loss, chunks), rel=1e-12)
    assert s["estimate"] == pytest.approx(_kfold_ref(train, loss, chunks), rel=1e-12)
    assert t["loss"] == "misclassification" and t["learner"] == "pegasos(lambda=1e-2)"
    for got, want in zip(t["chunks"], chunks):
        np.testing.assert_array_equal(got, want)
    if k == 2:  # one training phase per leaf, the same as the fold's
        assert t["estimate"] == pytest.approx(s["estimate"], rel=1e-12)


@pytest.mark.parametrize("sparse", [False, True])
def test_ridge_treecv_equals_kfold_equals_the_closed_form(regression, sparse):
    X, y = regression
    Xin = sp.csr_matrix(X) if sparse else X
    chunks = _chunks(len(y), 6)
    ref = _kfold_ref(lambda rows: _ridge(X, y, rows, 2.0),
                     lambda w, rows: _ridge_loss(w, X, y, rows), chunks)
    s = cvbench.kfold(Xin, y, learner="ridge", k=6, lambda_=2.0)
    assert s["estimate"] == pytest.approx(ref, rel=1e-9)
    assert s["loss"] == "squared_error"
    for strategy in cvbench._native.STRATEGIES:
        t = cvbench.treecv(Xin, y, learner="ridge", k=6, lambda_=2.0, strategy=strategy, n_jobs=2)
        assert t["estimate"] == pytest.approx(ref, rel=1e-9), strategy


def test_counters_follow_the_cost_formulas(regression):
    X, y = regression
    n, k = len(y), 10
    t = cvbench.treecv(X, y, learner="lsqsgd", k=k)
    sizes = [len(c) for c in t["chunks"]]
    assert t["updates"] == sum(sizes[i] * _depth(k, i) for i in range(k))
    assert t["passes"] == t["updates"] / n
    assert t["copies"] == k - 1 and t["fit_time"] >= 0
    s = cvbench.kfold(X, y, learner="lsqsgd", k=k)
    assert (s["updates"], s["copies"], s["peak_models"]) == ((k - 1) * n, 0, 1)
    r = cvbench.treecv(X, y, learner="lsqsgd", k=k, strategy="save_revert")
    assert r["estimate"] == t["estimate"] and r["copies"] == 0 and r["peak_models"] == 1


def test_shuffle_and_randomized_order_follow_the_seed(binary):
    X, y = binary
    a = cvbench.kfold(X, y, k=5, shuffle=True, random_state=3, lambda_=0.01)
    b = cvbench.kfold(X, y, k=5, shuffle=True, random_state=3, lambda_=0.01)
    assert a["estimate"] == b["estimate"]
    perm = np.concatenate(a["chunks"])
    assert sorted(perm) == list(range(len(y))) and not np.array_equal(perm, np.arange(len(y)))
    # The shuffled run is the unshuffled run on the rows in chunk order.
    c = cvbench.kfold(X[perm], y[perm], k=5, lambda_=0.01)
    assert c["estimate"] == a["estimate"]
    r1 = cvbench.treecv(X, y, k=5, order="randomized", random_state=1, lambda_=0.01)
    r2 = cvbench.treecv(X, y, k=5, order="randomized", random_state=1, lambda_=0.01)
    assert r1["estimate"] == r2["estimate"]


def test_labels_of_any_type_and_sparse_input(binary):
    X, y01 = binary
    names = np.array(["benign", "malign"])[y01]  # sorted: benign is -1
    a = cvbench.treecv(X, y01, k=4, lambda_=0.01)
    b = cvbench.treecv(sp.csr_matrix(X), names, k=4, lambda_=0.01)
    assert a["estimate"] == b["estimate"] and a["updates"] == b["updates"]


def test_names_come_from_the_library():
    assert cvbench.LEARNERS == {"pegasos": ("lambda", "project"), "lsqsgd": ("step", "radius"),
                                "ridge": ("lambda",)}


def test_bad_input_gets_the_librarys_messages(binary, regression, iris):
    X, y = binary
    with pytest.raises(ValueError, match=r"unknown variant `svm`, expected one of `pegasos`, `lsqsgd`, `ridge`"):
        cvbench.treecv(X, y, learner="svm")
    with pytest.raises(ValueError, match=r"`step` applies to lsqsgd only, not to pegasos"):
        cvbench.treecv(X, y, step=0.1)
    with pytest.raises(ValueError, match=r"unknown learner parameter `alpha`: ridge takes lambda"):
        cvbench.kfold(*regression, learner="ridge", alpha=1.0)
    with pytest.raises(ValueError, match=r"`lambda` must be finite and > 0, got -1"):
        cvbench.kfold(X, y, lambda_=-1)
    with pytest.raises(ValueError, match=r"k = 1 is not in 2..=n with n = 569 rows"):
        cvbench.kfold(X, y, k=1)
    with pytest.raises(ValueError, match=r"k = 570 is not in 2..=n with n = 569 rows"):
        cvbench.treecv(X, y, k=570)
    with pytest.raises(ValueError, match=r"unknown order `sorted`: use fixed, randomized"):
        cvbench.treecv(X, y, order="sorted")
    with pytest.raises(ValueError, match=r"unknown strategy `copies`: use copy, save_revert, parallel"):
        cvbench.treecv(X, y, strategy="copies")
    with pytest.raises(ValueError, match="binary classifier: y must have 2 classes, got 3"):
        cvbench.treecv(*iris)
    with pytest.raises(ValueError, match=r"`project`: invalid type: floating point `1.0`, expected a boolean"):
        cvbench.treecv(X, y, project=1)
    with pytest.raises(ValueError, match="must be a number or a bool"):
        cvbench.treecv(X, y, lambda_="small")
    with pytest.raises(ValueError):
        cvbench.kfold(X[:, :3], np.array(["a"] * len(y)), learner="ridge")
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError):
        cvbench.kfold(Xn, y)


def test_inputs_in_the_librarys_layout_are_not_copied_before_it(binary):
    X, _ = binary
    X = np.ascontiguousarray(X)
    dense, _ = native_x(X)
    assert np.shares_memory(dense, X)
    for index in (np.int32, np.int64):
        S = sp.csr_matrix(X)
        S.indices, S.indptr = S.indices.astype(index), S.indptr.astype(index)
        _, (data, indices, indptr, d) = native_x(S)
        assert np.shares_memory(data, S.data) and d == X.shape[1]
        assert np.shares_memory(indices, S.indices) and np.shares_memory(indptr, S.indptr)


def _cvbench_bin():
    """The harness's binary: $CVBENCH_BIN, else the repository's debug or
    release build (CARGO_TARGET_DIR respected), else None."""
    if os.environ.get("CVBENCH_BIN"):
        return os.environ["CVBENCH_BIN"]
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(root, "target")
    for profile in ("debug", "release"):
        path = os.path.join(target, profile, "cvbench")
        if os.access(path, os.X_OK):
            return path
    return None


@pytest.mark.skipif(_cvbench_bin() is None, reason="no cvbench binary (cargo build): SKIPPED")
def test_the_harness_gives_the_same_numbers(regression, tmp_path):
    """The treecv experiment kind on the same data: its rows are shuffled by
    its own seed, so the leave-one-out estimate (the same for any order of
    ridge's points) and the counters (the same for any permutation) are
    compared."""
    X, y = regression
    X, y = X[:150], y[:150]
    with open(tmp_path / "data.libsvm", "w") as f:
        for row, t in zip(X, y):
            feats = " ".join(f"{j + 1}:{float(v)!r}" for j, v in enumerate(row) if v != 0)
            f.write(f"{float(t)!r} {feats}\n")
    (tmp_path / "c.toml").write_text("""kind = "treecv"
name = "py-check"
seed = 1
repetitions = 1

[[datasets]]
path = "data.libsvm"
format = "libsvm"

[[learners]]
type = "ridge"
lambda = 2.0

[[grid]]
methods = ["treecv", "standard"]
orders = ["fixed"]
k = ["n", 7]
""")
    subprocess.run([_cvbench_bin(), "run", "c.toml", "--out", "out", "--csv"], cwd=tmp_path,
                   check=True, capture_output=True)
    with open(tmp_path / "out" / "py-check" / "records.csv") as f:
        rows = {(r["method"], int(r["k_value"])): r for r in csv.DictReader(f)}
    assert len(rows) == 4
    for k in (len(y), 7):
        ours = {"treecv": cvbench.treecv(X, y, learner="ridge", k=k, lambda_=2.0),
                "standard": cvbench.kfold(X, y, learner="ridge", k=k, lambda_=2.0)}
        for method, res in ours.items():
            r = rows[(method, k)]
            assert (res["updates"], res["copies"], res["peak_models"]) == (
                int(r["updates"]), int(r["copies"]), int(r["peak_models"])), (method, k)
            assert res["learner"] == r["learner_params"] and res["loss"] == r["loss"]
            if k == len(y):
                assert res["estimate"] == pytest.approx(float(r["estimate"]), rel=1e-9), method
