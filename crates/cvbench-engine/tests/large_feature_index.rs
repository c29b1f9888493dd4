//! A LibSVM line with a very large feature index (`1 134217728:1`, the
//! largest cvbench takes) is read with memory following the non-zeros, not
//! the index: the readers (data files, model files) and `Dataset`'s own
//! operations allocate nothing per feature index.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use cvbench_engine::data::read::libsvm::{read_libsvm_from, write_libsvm};
use cvbench_engine::data::{align_index_bases, limits::MAX_FEATURES};

/// Records the largest allocation request.
struct Largest;

static LARGEST: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every method forwards to `System` unchanged; the record is an atomic.
unsafe impl GlobalAlloc for Largest {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        LARGEST.fetch_max(l.size(), Ordering::Relaxed);
        System.alloc(l)
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        LARGEST.fetch_max(l.size(), Ordering::Relaxed);
        System.alloc_zeroed(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new_size: usize) -> *mut u8 {
        LARGEST.fetch_max(new_size, Ordering::Relaxed);
        System.realloc(p, l, new_size)
    }
}

#[global_allocator]
static ALLOC: Largest = Largest;

/// The one test of this file (so that the record is its own).
#[test]
fn a_huge_feature_index_costs_memory_by_non_zeros_not_by_index() {
    // A dense row of 2^27 features would be 1 GiB; nothing may come near.
    const CAP: usize = 1 << 20;
    LARGEST.store(0, Ordering::Relaxed);
    let text = format!("1 {MAX_FEATURES}:1\n-1 1:1 7:2\n");
    let mut ds = read_libsvm_from(text.as_bytes(), Path::new("big"), None).unwrap();
    assert_eq!(
        (ds.n(), ds.d(), ds.libsvm_max_index()),
        (2, MAX_FEATURES, MAX_FEATURES)
    );
    let sub = ds.subset(&[1, 0], "sub");
    let mut out = Vec::new();
    write_libsvm(&sub, &[0, 1], &mut out).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        format!("-1 1:1 7:2\n1 {MAX_FEATURES}:1\n")
    );
    // Zero-based: the highest index is one less, the feature count the same.
    let zero = format!("1 0:1 {}:1\n", MAX_FEATURES - 1);
    let mut z = read_libsvm_from(zero.as_bytes(), Path::new("z"), None).unwrap();
    assert_eq!(z.d(), MAX_FEATURES);
    // Renumbering a 1-based dataset from 0 (to meet a 0-based one) too.
    let mut small = read_libsvm_from(&b"1 3:1\n"[..], Path::new("s"), None).unwrap();
    align_index_bases(&mut small, &mut z);
    assert_eq!(small.d(), 4);
    ds.rebase_to_zero();
    assert_eq!(ds.d(), MAX_FEATURES + 1);
    // A model file with such a support vector.
    let model = format!(
        "svm_type c_svc\nkernel_type rbf\ngamma 0.5\nnr_class 2\ntotal_sv 2\nrho 0\nlabel 1 -1\nnr_sv 1 1\nSV\n1 {MAX_FEATURES}:1\n-1 1:1\n"
    );
    let m = cvbench_engine::svm::model::file::read_model_from(model.as_bytes(), Path::new("m"))
        .unwrap();
    assert_eq!(m.sv.d(), MAX_FEATURES);
    let largest = LARGEST.load(Ordering::Relaxed);
    assert!(largest < CAP, "largest allocation {largest} bytes");
}
