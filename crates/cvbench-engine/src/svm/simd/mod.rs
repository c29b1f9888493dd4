//! The SVM's vector loops: run-time CPU dispatch (this module's [`by_cpu!`])
//! and the loops several kernel producers share.
//!
//! Modules:
//! - `sparse_lanes`: vector loops shared by the kernel blocks computed along
//!   a step of queries.
//! - `tests`: every compiled variant against the portable body.
//!
//! This module: run-time CPU dispatch of the SVM's vectorised loops.
//!
//! The hot loops (kernel sums over SIMD lanes, the WSS 3 scans, the signed
//! gather, the batched kernel rows, `exp`) are written as plain Rust bodies
//! marked `#[inline(always)]` that the compiler vectorises. One binary runs
//! on every x86-64 CPU, so the wide instruction sets cannot be enabled at
//! compile time: [`by_cpu!`] compiles each body again inside functions
//! marked `#[target_feature(enable = "avx512f")]` and `"avx2"` and picks the
//! widest one the CPU has when it is called (the standard library caches
//! the detection), else the portable build.
//!
//! The variants must give the same bits as the portable body, so the bodies
//! keep LIBSVM's order of operations lane by lane and never use a fused
//! multiply-add: Rust never contracts `a * b + c` into one (not even where
//! the enabled features have the instruction), and no body calls
//! `mul_add`. Tests run every compiled variant against the portable body
//! where a module names its variants.
//!
//! The dispatch costs one cached feature check per call, so a dispatched
//! function is a whole loop (a piece of rows, a slice), never one element.

pub(crate) mod sparse_lanes;

/// Define a function that runs an `#[inline(always)]` body compiled for
/// AVX-512F or AVX2 where the CPU has it (checked at run time), else the
/// portable build (see the module doc).
///
/// Three forms:
///
/// - `by_cpu!(name, body, (a: A, b: B) -> R)`: a private `fn name`; the
///   `-> R` is optional (no value).
/// - `by_cpu!($(#[attr])* vis fn name(a: A, b: B) -> R = body);`: the same,
///   with attributes (doc comments) and a visibility.
/// - `by_cpu!($(#[attr])* vis fn name(a: A, b: B) -> R = body; variants
///   avx512_name, avx2_name);`: the compiled variants are also items of the
///   module under the given names (`unsafe`, x86-64 only), so that tests can
///   run each one against the portable body. `= body, avx2_body;` compiles
///   the AVX2 variant from a body of its own (the same bits by another
///   route, such as fewer lanes where AVX2's sixteen registers would spill).
///
/// A body is a path, so it may name a generic function's instance
/// (`scan::<4>`).
macro_rules! by_cpu {
    // One compiled variant of `$body`.
    (@variant $(#[$attr:meta])* $variant:ident, $feat:literal, $body:path,
        ($($arg:ident : $ty:ty),*) $(-> $ret:ty)?) => {
        $(#[$attr])*
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $feat)]
        unsafe fn $variant($($arg: $ty),*) $(-> $ret)? {
            $body($($arg),*)
        }
    };
    // Return the widest variant's value where the CPU has its feature.
    (@pick $avx512:ident, $avx2:ident, ($($arg:ident),*)) => {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                // SAFETY: the CPU has AVX-512F (checked).
                return unsafe { $avx512($($arg),*) };
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2 (checked).
                return unsafe { $avx2($($arg),*) };
            }
        }
    };
    // The variants named, the AVX2 one compiled from a body of its own
    // (which must give the same bits: a different lane count, say).
    (
        $(#[$attr:meta])*
        $vis:vis fn $name:ident($($arg:ident : $ty:ty),* $(,)?) $(-> $ret:ty)? = $body:path, $avx2_body:path;
        variants $avx512:ident, $avx2:ident $(;)?
    ) => {
        $crate::svm::simd::by_cpu!(@variant
            #[doc = concat!("[`", stringify!($body), "`] compiled for AVX-512F.")]
            $avx512, "avx512f", $body, ($($arg: $ty),*) $(-> $ret)?);
        $crate::svm::simd::by_cpu!(@variant
            #[doc = concat!("[`", stringify!($avx2_body), "`] compiled for AVX2.")]
            $avx2, "avx2", $avx2_body, ($($arg: $ty),*) $(-> $ret)?);
        $(#[$attr])*
        $vis fn $name($($arg: $ty),*) $(-> $ret)? {
            $crate::svm::simd::by_cpu!(@pick $avx512, $avx2, ($($arg),*));
            $body($($arg),*)
        }
    };
    // The variants named, as items of the calling module.
    (
        $(#[$attr:meta])*
        $vis:vis fn $name:ident($($arg:ident : $ty:ty),* $(,)?) $(-> $ret:ty)? = $body:path;
        variants $avx512:ident, $avx2:ident $(;)?
    ) => {
        $crate::svm::simd::by_cpu!(
            $(#[$attr])*
            $vis fn $name($($arg: $ty),*) $(-> $ret)? = $body, $body;
            variants $avx512, $avx2
        );
    };
    // The variants local to the dispatching function.
    (
        $(#[$attr:meta])*
        $vis:vis fn $name:ident($($arg:ident : $ty:ty),* $(,)?) $(-> $ret:ty)? = $body:path $(;)?
    ) => {
        $(#[$attr])*
        $vis fn $name($($arg: $ty),*) $(-> $ret)? {
            $crate::svm::simd::by_cpu!(@variant avx512, "avx512f", $body,
                ($($arg: $ty),*) $(-> $ret)?);
            $crate::svm::simd::by_cpu!(@variant avx2, "avx2", $body,
                ($($arg: $ty),*) $(-> $ret)?);
            $crate::svm::simd::by_cpu!(@pick avx512, avx2, ($($arg),*));
            $body($($arg),*)
        }
    };
    // The short form: a private function.
    ($name:ident, $body:path, ($($arg:ident : $ty:ty),* $(,)?) $(-> $ret:ty)?) => {
        $crate::svm::simd::by_cpu!(fn $name($($arg: $ty),*) $(-> $ret)? = $body);
    };
}

pub(crate) use by_cpu;

#[cfg(test)]
mod tests {
    // `by_cpu!` is in scope here: it is defined above this module.

    #[inline(always)]
    fn sum_body(xs: &[f64]) -> f64 {
        xs.iter().fold(0.0, |s, &x| s + x * x)
    }

    #[inline(always)]
    fn scale_body(xs: &mut [f64], a: f64) {
        for x in xs {
            *x *= a;
        }
    }

    by_cpu!(sum_any, sum_body, (xs: &[f64]) -> f64);
    by_cpu!(
        /// A documented dispatcher with named variants.
        pub(crate) fn scale_any(xs: &mut [f64], a: f64) = scale_body;
        variants scale_avx512, scale_avx2
    );

    #[test]
    fn every_form_gives_the_portable_bits() {
        let xs: Vec<f64> = (0..1003).map(|i| (i as f64 * 0.37).sin()).collect();
        assert_eq!(sum_any(&xs).to_bits(), sum_body(&xs).to_bits());
        let mut want = xs.clone();
        scale_body(&mut want, 0.3);
        let mut outs = vec![xs.clone()];
        scale_any(&mut outs[0], 0.3);
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                let mut o = xs.clone();
                // SAFETY: the CPU has AVX2 (checked).
                unsafe { scale_avx2(&mut o, 0.3) };
                outs.push(o);
            }
            if std::arch::is_x86_feature_detected!("avx512f") {
                let mut o = xs.clone();
                // SAFETY: the CPU has AVX-512F (checked).
                unsafe { scale_avx512(&mut o, 0.3) };
                outs.push(o);
            }
        }
        for o in outs {
            assert_eq!(o, want);
        }
    }
}
