"""Memory follows the non-zeros, not the largest feature index: a sparse X
with one feature numbered 2^27 fits within a 2 GB address space (a dense
scratch row of 2^27 values per thread would not)."""

import subprocess
import sys
import textwrap


def test_a_feature_index_far_beyond_the_data_fits_in_little_memory():
    code = textwrap.dedent("""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
        import numpy as np, scipy.sparse as sp, cvbench
        X = sp.csr_matrix((np.array([1.0, -0.5]), np.array([134217727, 0]), np.array([0, 1, 2])),
                          shape=(2, 134217728))
        y = np.array([1, -1])
        m = cvbench.SVC(gamma=1.0).fit(X, y)
        assert list(m.predict(X)) == [1, -1], m.predict(X)
        assert list(m.n_support_) == [1, 1]
        cv = cvbench.cross_validate_svc(X, np.array([1, -1]), gamma=1.0, cv=[([0], [1]), ([1], [0])])
        print("ok")
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
