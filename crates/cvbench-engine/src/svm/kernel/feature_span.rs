//! A sparse dataset's features renumbered to the ones its rows store.
//!
//! Kernel computations scatter a row into a dense scratch vector of one
//! value per feature index, and a few estimates count per index. Memory
//! must follow the non-zeros, not the largest index: a two-row file whose
//! one feature is numbered 134,217,728 would otherwise ask for gigabytes
//! (svm-train trains it in 3 MB). Where the index range is far wider than
//! the features the rows store, [`compact_features`] numbers the stored
//! features `0..m` in increasing order. The renumbering keeps every row's
//! order of features, so every dot product has the same terms in the same
//! order: the same bits. Support vectors leave the engine renumbered back
//! ([`FeatureMap::restore`]).

use crate::data::{Dataset, Features};

/// Index ranges up to this width are kept as they are.
pub const KEEP_SPAN: usize = 1 << 16;

/// The original index of each compact feature, and the original width.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureMap {
    /// `original[k]`: the 0-based original index of compact feature `k`
    /// (increasing).
    original: Vec<u32>,
    /// The original number of features.
    d: usize,
}

impl FeatureMap {
    /// `ds` (in compact numbering) renumbered to the original indices, in
    /// place, with the original width.
    pub fn restore(&self, ds: &mut Dataset) {
        if let Features::Sparse { d, indices, .. } = &mut ds.x {
            for j in indices.iter_mut() {
                *j = self.original[*j as usize];
            }
            *d = self.d;
        }
    }

    /// The number of features the rows store.
    pub fn stored(&self) -> usize {
        self.original.len()
    }
}

/// `ds` with its stored features numbered `0..m` where its index range is
/// wider than [`KEEP_SPAN`] and more than four times the `m` features its
/// rows store; `None` where the range is kept (dense data included).
pub fn compact_features(ds: &Dataset) -> Option<(Dataset, FeatureMap)> {
    let Features::Sparse {
        d,
        indptr,
        indices,
        values,
    } = &ds.x
    else {
        return None;
    };
    if *d <= KEEP_SPAN {
        return None;
    }
    let mut original = indices.clone();
    original.sort_unstable();
    original.dedup();
    if original.len().saturating_mul(4) >= *d {
        return None;
    }
    let renumbered = indices
        .iter()
        .map(|j| original.binary_search(j).expect("a stored feature") as u32)
        .collect();
    let compact = Dataset {
        name: ds.name.clone(),
        x: Features::Sparse {
            d: original.len(),
            indptr: indptr.clone(),
            indices: renumbered,
            values: values.clone(),
        },
        y: ds.y.clone(),
        index_base: ds.index_base,
    };
    Some((compact, FeatureMap { original, d: *d }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wide() -> Dataset {
        Dataset {
            name: "synthetic-wide".into(),
            x: Features::Sparse {
                d: 134_217_728,
                indptr: vec![0, 2, 3],
                indices: vec![4, 134_217_727, 0],
                values: vec![1.0, 2.0, -0.5],
            },
            y: vec![1.0, -1.0],
            index_base: crate::data::IndexBase::One,
        }
    }

    #[test]
    fn a_wide_index_range_is_renumbered_in_order_and_restored() {
        let ds = wide();
        let (c, map) = compact_features(&ds).expect("compacted");
        assert_eq!(c.d(), 3);
        assert_eq!(map.stored(), 3);
        match &c.x {
            Features::Sparse { indices, .. } => assert_eq!(indices, &vec![1, 2, 0]),
            Features::Dense { .. } => panic!("sparse"),
        }
        assert_eq!(c.row(0).dot_row(&c.row(0)), ds.row(0).dot_row(&ds.row(0)));
        let mut back = c.clone();
        map.restore(&mut back);
        assert_eq!(back, ds);
    }

    #[test]
    fn narrow_or_well_used_ranges_are_kept() {
        let mut ds = wide();
        if let Features::Sparse { d, .. } = &mut ds.x {
            *d = KEEP_SPAN;
        }
        if let Features::Sparse { indices, .. } = &mut ds.x {
            indices[1] = 9;
        }
        assert!(compact_features(&ds).is_none());
    }
}
