//! Runs of consecutive dataset rows: a fold-ordered CV round's training rows
//! are two, a held-out fold one. Where rows form few long runs, a column of
//! the shared kernel cache can be read in place at them, block by block,
//! instead of gathered (the batched solver's rows, the cached sums).

/// Runs at least this long on average are read in place ([`few_runs`]).
const MIN_RUN: usize = 64;

/// `rows` as runs of consecutive values `(first, len)`, in order.
pub(crate) fn runs_of(rows: impl IntoIterator<Item = usize>) -> Vec<(usize, usize)> {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for r in rows {
        match runs.last_mut() {
            Some((first, len)) if *first + *len == r => *len += 1,
            _ => runs.push((r, 1)),
        }
    }
    runs
}

/// Whether `runs` of `n` rows in all are few and long enough (at least
/// [`MIN_RUN`] rows on average) to be read in place.
pub(crate) fn few_runs(runs: &[(usize, usize)], n: usize) -> bool {
    runs.len() * MIN_RUN <= n
}

/// `runs` cut into blocks of at most `block` rows, in order:
/// `(first position, length, first row)`, the positions counting the rows
/// of all runs in order.
pub(crate) fn run_blocks(runs: &[(usize, usize)], block: usize) -> Vec<(usize, usize, usize)> {
    let mut blocks = Vec::new();
    let mut pos = 0;
    for &(first, len) in runs {
        for lo in (0..len).step_by(block) {
            blocks.push((pos + lo, block.min(len - lo), first + lo));
        }
        pos += len;
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_are_the_rows_in_order_and_blocks_cut_them() {
        assert_eq!(runs_of([3, 4, 5, 9, 10, 0]), vec![(3, 3), (9, 2), (0, 1)]);
        assert_eq!(runs_of([]), vec![]);
        assert_eq!(
            run_blocks(&[(3, 5), (20, 2)], 2),
            vec![(0, 2, 3), (2, 2, 5), (4, 1, 7), (5, 2, 20)]
        );
        assert!(few_runs(&[(0, 64), (100, 64)], 128));
        assert!(!few_runs(&[(0, 64), (100, 63)], 127));
    }
}
