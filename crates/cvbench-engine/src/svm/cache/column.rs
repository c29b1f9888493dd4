//! A column handed out by the shared kernel cache
//! ([`crate::svm::cache::SharedKernelCache`]).

use std::ops::Deref;
use std::sync::Arc;

/// A column of kernel values (unsigned, `f32`) from a
/// [`crate::svm::cache::SharedKernelCache`]: a column of its own or a piece of
/// the whole matrix the cache holds, without a copy either way. Reads as a
/// slice.
#[derive(Clone, Debug)]
pub struct Column(Repr);

#[derive(Clone, Debug)]
enum Repr {
    Own(Arc<[f32]>),
    Held {
        matrix: Arc<Vec<f32>>,
        start: usize,
        len: usize,
    },
}

impl Column {
    /// Entries `start..start + len` of `matrix` (a column of a matrix held
    /// column after column).
    pub(crate) fn held(matrix: Arc<Vec<f32>>, start: usize, len: usize) -> Column {
        assert!(start + len <= matrix.len(), "a column inside the matrix");
        Column(Repr::Held { matrix, start, len })
    }
}

impl From<Arc<[f32]>> for Column {
    fn from(col: Arc<[f32]>) -> Column {
        Column(Repr::Own(col))
    }
}

impl Deref for Column {
    type Target = [f32];

    #[inline]
    fn deref(&self) -> &[f32] {
        match &self.0 {
            Repr::Own(col) => col,
            Repr::Held { matrix, start, len } => &matrix[*start..*start + *len],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_kinds_read_as_their_values() {
        let own = Column::from(Arc::<[f32]>::from(vec![1.0f32, 2.0]));
        assert_eq!(&own[..], &[1.0, 2.0]);
        let m = Arc::new(vec![0.0f32, 1.0, 2.0, 3.0, 4.0, 5.0]);
        let held = Column::held(m, 3, 3);
        assert_eq!(&held[..], &[3.0, 4.0, 5.0]);
        assert_eq!(held.len(), 3);
    }
}
