//! Unit tests of the seeders' invariants: every seed is feasible, and each
//! method moves the alphas its paper says it moves.

use super::adjust::{restore_equality, signed_sum, uniform_shift};
use super::*;
use crate::data::Dataset;
use crate::svm::model::solution::train;
use crate::svm::{kernel::KernelData, model::params::SvmParams};

fn line(n: usize) -> Dataset {
    // Points on a line, labels alternating in pairs (not separable).
    let rows: Vec<Vec<f64>> = (0..n)
        .map(|i| vec![i as f64 * 0.3, (i % 3) as f64])
        .collect();
    let y = (0..n)
        .map(|i| if (i / 2) % 2 == 0 { 1.0 } else { -1.0 })
        .collect();
    Dataset::from_dense_rows("synthetic-line", &rows, y)
}

fn feasible(alpha: &[f64], y: &[i8], c: f64) {
    assert!(
        alpha.iter().all(|&a| (0.0..=c).contains(&a)),
        "box: {alpha:?}"
    );
    let s: f64 = alpha.iter().zip(y).map(|(&a, &v)| f64::from(v) * a).sum();
    assert!(s.abs() <= 1e-9 * c.max(1.0), "sum y alpha = {s}");
}

#[test]
fn uniform_shift_meets_the_target_inside_the_box() {
    let y = [1i8, 1, -1, -1, 1];
    let mut a = vec![0.5, 1.0, 0.2, 0.0, 0.9];
    let idx = [0, 1, 2, 3, 4];
    assert!(uniform_shift(&mut a, &y, 1.0, &idx, 0.0));
    assert!((signed_sum(&a, &y, &idx)).abs() < 1e-12);
    assert!(a.iter().all(|&v| (0.0..=1.0).contains(&v)));
    // Out of reach: two +1 rows cannot sum to 3 with C = 1.
    let mut b = vec![0.0, 0.0];
    assert!(!uniform_shift(&mut b, &[1, 1], 1.0, &[0, 1], 3.0));
    assert_eq!(b, vec![0.0, 0.0]);
}

#[test]
fn restore_equality_prefers_the_given_rows() {
    let y = [1i8, -1, 1, -1];
    let mut a = vec![0.7, 0.2, 0.0, 0.0];
    restore_equality(&mut a, &y, 1.0, &[2, 3]);
    feasible(&a, &y, 1.0);
    assert_eq!((a[0], a[1]), (0.7, 0.2), "rows outside `prefer` kept");
}

fn chain_seed(m: SeedingMethod, ds: &Dataset, c: f64) -> (Vec<f64>, Vec<i8>, Vec<f64>) {
    let p = SvmParams::rbf(c, 0.5);
    let n = ds.n();
    let prev_rows: Vec<usize> = (0..n - 4).collect();
    let out = train(ds, &prev_rows, &p, None).expect("train");
    let kd = KernelData::new(ds, p.kernel);
    let y: Vec<i8> = ds.y.iter().map(|&v| if v > 0.0 { 1 } else { -1 }).collect();
    let removed: Vec<usize> = (0..4).collect();
    let added: Vec<usize> = (n - 4..n).collect();
    let next: Vec<usize> = (4..n).collect();
    let ctx = SeedContext {
        kd: &kd,
        y: &y,
        c,
        seed: 3,
        shared: None,
    };
    let seeder: Box<dyn Seeder> = m.axes().1.make();
    let a = seeder
        .seed(&Round {
            ctx: &ctx,
            prev: &Previous {
                rows: &prev_rows,
                alpha: &out.alpha,
                gradient: &out.gradient,
            },
            tr: &Transition {
                removed: &removed,
                added: &added,
                next_rows: &next,
            },
        })
        .expect("seed");
    let yn = next.iter().map(|&r| y[r]).collect();
    (a, yn, out.alpha)
}

#[test]
fn every_seeder_returns_a_feasible_seed() {
    let ds = line(30);
    for c in [0.5, 10.0] {
        for m in [
            SeedingMethod::None,
            SeedingMethod::Ato,
            SeedingMethod::Mir,
            SeedingMethod::Sir,
            SeedingMethod::Avg,
            SeedingMethod::Top,
        ] {
            let (a, y, _) = chain_seed(m, &ds, c);
            assert_eq!(a.len(), ds.n() - 4);
            feasible(&a, &y, c);
        }
    }
}

#[test]
fn seeders_keep_the_shared_alphas_where_the_paper_says() {
    let ds = line(30);
    let c = 10.0;
    // SIR and MIR leave alpha_S unchanged unless the shift must touch it.
    for m in [SeedingMethod::Sir, SeedingMethod::Mir] {
        let (a, _, prev) = chain_seed(m, &ds, c);
        let changed = (4..26).filter(|&r| a[r - 4] != prev[r]).count();
        assert_eq!(changed, 0, "{}: alpha_S moved", m.as_str());
    }
    // The zero seeder is all zeros.
    let (a, _, _) = chain_seed(SeedingMethod::None, &ds, c);
    assert!(a.iter().all(|&v| v == 0.0));
}

#[test]
fn names_parse_and_loocv_only_is_enforced() {
    for m in SeedingMethod::ALL {
        assert_eq!(SeedingMethod::parse(m.as_str()), Some(*m));
    }
    assert_eq!(SeedingMethod::parse("SIR"), Some(SeedingMethod::Sir));
    assert!(SeedingMethod::parse("best").is_none());
    assert!(SeedingMethod::Avg.check_k(10, 100).is_err());
    assert!(SeedingMethod::Avg.check_k(100, 100).is_ok());
    assert!(SeedingMethod::Sir.check_k(10, 100).is_ok());
}

#[test]
fn updated_gradient_equals_the_gradient_recomputed_from_the_seed() {
    // 4 rows move (one block of changed columns); 90 rows move (several).
    for (n, m) in [(30, 4), (300, 90)] {
        updated_gradient_case(n, m);
    }
}

fn updated_gradient_case(n: usize, m: usize) {
    let ds = line(n);
    let c = 2.0;
    let p = SvmParams::rbf(c, 0.5);
    let n = ds.n();
    let prev_rows: Vec<usize> = (0..n - m).collect();
    let out = train(&ds, &prev_rows, &p, None).expect("train");
    let kd = KernelData::new(&ds, p.kernel);
    let y: Vec<i8> = ds.y.iter().map(|&v| if v > 0.0 { 1 } else { -1 }).collect();
    let ctx = SeedContext {
        kd: &kd,
        y: &y,
        c,
        seed: 3,
        shared: None,
    };
    let (removed, added): (Vec<usize>, Vec<usize>) = ((0..m).collect(), (n - m..n).collect());
    let next: Vec<usize> = (m..n).collect();
    let prev = Previous {
        rows: &prev_rows,
        alpha: &out.alpha,
        gradient: &out.gradient,
    };
    let tr = Transition {
        removed: &removed,
        added: &added,
        next_rows: &next,
    };
    let warm = sir::SirSeeder
        .seed(&Round {
            ctx: &ctx,
            prev: &prev,
            tr: &tr,
        })
        .expect("seed");
    let sums = gradient::heldout_sums(&ctx, &prev_rows, &out.alpha, &added);
    let pg = gradient::PrevGradient {
        rows: &prev_rows,
        alpha: &out.alpha,
        g: &out.gradient,
        g_bar: &out.g_bar,
    };
    {
        let (g, gb) =
            gradient::next_gradient(&ctx, &pg, &sums, &next, &warm).expect("all rows known");
        for (p_i, &i) in next.iter().enumerate() {
            let (mut gi, mut gbi) = (-1.0, 0.0);
            for (p_j, &j) in next.iter().enumerate() {
                let q = f64::from(y[i] * y[j]) * kd.eval(i, j);
                gi += warm[p_j] * q;
                if warm[p_j] >= c {
                    gbi += c * q;
                }
            }
            assert!(
                (g[p_i] - gi).abs() < 1e-5 * (1.0 + gi.abs()),
                "G[{i}] {} vs {gi}",
                g[p_i]
            );
            assert!(
                (gb[p_i] - gbi).abs() < 1e-5 * (1.0 + gbi.abs()),
                "G_bar[{i}] {} vs {gbi}",
                gb[p_i]
            );
        }
    }
    // A next row the previous round neither trained on nor held out: no update.
    assert!(gradient::next_gradient(&ctx, &pg, &[], &next, &warm).is_none());
}
