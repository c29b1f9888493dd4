//! The peers' rows of a run, per dataset: `svm-grid`'s choice and its rate
//! at every grid point, and scikit-learn's choice.

use crate::experiments::svm_grid::levels::{pkey, PKey};
use crate::experiments::svm_grid::rows::{GridRow, ROLE_PEER, ROLE_PEER_POINT};
use std::collections::BTreeMap;

/// The peers' rows of a run, per dataset.
pub struct Peers<'a> {
    /// `svm-grid`'s choice.
    pub svm_grid: BTreeMap<String, &'a GridRow>,
    /// scikit-learn's `GridSearchCV` choice.
    pub sklearn: BTreeMap<String, &'a GridRow>,
    /// `svm-grid`'s rate at every grid point.
    pub points: BTreeMap<String, BTreeMap<PKey, f64>>,
}

impl<'a> Peers<'a> {
    /// The peers' rows among a run's rows.
    pub fn of(rows: &'a [GridRow]) -> Peers<'a> {
        let svm_grid: BTreeMap<String, &GridRow> = rows
            .iter()
            .filter(|r| r.role == ROLE_PEER && r.core.method == "svm-grid")
            .map(|r| (r.core.dataset.clone(), r))
            .collect();
        let sklearn: BTreeMap<String, &GridRow> = rows
            .iter()
            .filter(|r| r.role == ROLE_PEER && r.core.method == "sklearn")
            .map(|r| (r.core.dataset.clone(), r))
            .collect();
        let mut points: BTreeMap<String, BTreeMap<PKey, f64>> = BTreeMap::new();
        for r in rows.iter().filter(|r| r.role == ROLE_PEER_POINT) {
            points
                .entry(r.core.dataset.clone())
                .or_default()
                .insert(pkey(r.log2c, r.log2g), r.rate.unwrap_or(f64::NAN));
        }
        Peers {
            svm_grid,
            sklearn,
            points,
        }
    }
}
