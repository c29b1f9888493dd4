//! The IDX format of the original MNIST files (LeCun, Cortes & Burges).
//!
//! A big-endian header: two zero bytes, a type byte (0x08 = unsigned byte),
//! the number of dimensions, then one u32 per dimension. Image files have
//! magic 2051 (`0x00000803`: n × rows × cols), label files magic 2049
//! (`0x00000801`: n). Files may be compressed (see [`super::compress`]).

use std::io::Read;
use std::path::Path;

use super::{compress, DataError, Dataset, Features};

/// Magic number of an IDX file of unsigned-byte images (3 dimensions).
pub const IMAGES_MAGIC: u32 = 2051;
/// Magic number of an IDX file of unsigned-byte labels (1 dimension).
pub const LABELS_MAGIC: u32 = 2049;

/// Images read from an IDX file: `n` images of `rows × cols` pixels as
/// row-major `n × (rows*cols)` values in 0..=255 (not rescaled).
#[derive(Clone, Debug, PartialEq)]
pub struct IdxImages {
    /// Number of images.
    pub n: usize,
    /// Pixel rows per image.
    pub rows: usize,
    /// Pixel columns per image.
    pub cols: usize,
    /// `n * rows * cols` pixel values, image after image.
    pub pixels: Vec<f64>,
}

/// Read the header (magic + dimensions) and check the magic.
fn read_header(
    r: &mut impl Read,
    path: &Path,
    magic: u32,
    ndims: usize,
) -> Result<Vec<usize>, DataError> {
    let fmt_err = |msg: String| DataError::Format {
        path: path.to_path_buf(),
        msg,
    };
    let mut head = vec![0u8; 4 * (1 + ndims)];
    let got = read_full(r, &mut head).map_err(|e| DataError::io(path, e))?;
    if got < head.len() {
        return Err(fmt_err(format!(
            "file too short for an IDX header: {got} bytes, expected {}",
            head.len()
        )));
    }
    let found = u32::from_be_bytes([head[0], head[1], head[2], head[3]]);
    if found != magic {
        return Err(fmt_err(format!(
            "bad IDX magic number {found} (0x{found:08x}); expected {magic} (0x{magic:08x}, {})",
            if magic == IMAGES_MAGIC {
                "unsigned-byte images"
            } else {
                "unsigned-byte labels"
            }
        )));
    }
    Ok((0..ndims)
        .map(|k| {
            let b = &head[4 + 4 * k..8 + 4 * k];
            u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize
        })
        .collect())
}

/// Read until `buf` is full or the input ends; return the bytes read.
fn read_full(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// Read exactly `len` body bytes and make sure nothing follows.
fn read_body(r: &mut impl Read, path: &Path, len: usize, what: &str) -> Result<Vec<u8>, DataError> {
    let mut body = Vec::new();
    // `take` bounds the allocation by the file's actual size, not the header's claim.
    r.by_ref()
        .take(len as u64)
        .read_to_end(&mut body)
        .map_err(|e| DataError::io(path, e))?;
    if body.len() < len {
        return Err(DataError::Format {
            path: path.to_path_buf(),
            msg: format!(
                "file is short: the header announces {len} bytes of {what}, but only {} follow",
                body.len()
            ),
        });
    }
    let mut extra = [0u8; 1];
    let k = r.read(&mut extra).map_err(|e| DataError::io(path, e))?;
    if k != 0 {
        return Err(DataError::Format {
            path: path.to_path_buf(),
            msg: format!("unexpected bytes after the {len} bytes of {what} the header announces"),
        });
    }
    Ok(body)
}

/// Read an IDX image file (magic 2051).
pub fn read_idx_images(path: &Path) -> Result<IdxImages, DataError> {
    read_idx_images_from(compress::open(path)?, path)
}

/// Like [`read_idx_images`], from any reader; `path` only names the input
/// in errors. Memory stays within a small multiple of the bytes actually
/// read, whatever the header claims.
pub fn read_idx_images_from(mut r: impl Read, path: &Path) -> Result<IdxImages, DataError> {
    let dims = read_header(&mut r, path, IMAGES_MAGIC, 3)?;
    let (n, rows, cols) = (dims[0], dims[1], dims[2]);
    let len = n
        .checked_mul(rows)
        .and_then(|v| v.checked_mul(cols))
        .ok_or_else(|| DataError::Format {
            path: path.to_path_buf(),
            msg: format!("implausible dimensions {n} × {rows} × {cols}"),
        })?;
    super::limits::check_features(
        &format!("{}: images of {rows} × {cols} pixels", path.display()),
        rows.saturating_mul(cols),
    )?;
    let body = read_body(&mut r, path, len, "pixels")?;
    Ok(IdxImages {
        n,
        rows,
        cols,
        pixels: body.into_iter().map(f64::from).collect(),
    })
}

/// Read an IDX label file (magic 2049); labels are returned as f64 (0..=255).
pub fn read_idx_labels(path: &Path) -> Result<Vec<f64>, DataError> {
    read_idx_labels_from(compress::open(path)?, path)
}

/// Like [`read_idx_labels`], from any reader; `path` only names the input in errors.
pub fn read_idx_labels_from(mut r: impl Read, path: &Path) -> Result<Vec<f64>, DataError> {
    let dims = read_header(&mut r, path, LABELS_MAGIC, 1)?;
    let body = read_body(&mut r, path, dims[0], "labels")?;
    Ok(body.into_iter().map(f64::from).collect())
}

/// Read an MNIST-style pair of image and label files into a dense dataset
/// (`rows*cols` features, raw pixel values 0..=255, labels = digits).
pub fn read_mnist(images: &Path, labels: &Path, name: &str) -> Result<Dataset, DataError> {
    let img = read_idx_images(images)?;
    let y = read_idx_labels(labels)?;
    if y.len() != img.n {
        return Err(DataError::Format {
            path: labels.to_path_buf(),
            msg: format!(
                "{} labels, but {} has {} images",
                y.len(),
                images.display(),
                img.n
            ),
        });
    }
    Ok(Dataset {
        index_base: super::IndexBase::One,
        name: name.to_string(),
        x: Features::Dense {
            d: img.rows * img.cols,
            values: img.pixels,
        },
        y,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn idx(magic: u32, dims: &[u32], body: &[u8]) -> Vec<u8> {
        let mut v = magic.to_be_bytes().to_vec();
        for d in dims {
            v.extend_from_slice(&d.to_be_bytes());
        }
        v.extend_from_slice(body);
        v
    }

    #[test]
    fn reads_images_and_labels() {
        let dir = tempfile::tempdir().unwrap();
        let ip = dir.path().join("img");
        let lp = dir.path().join("lab");
        std::fs::write(
            &ip,
            idx(2051, &[2, 2, 3], &[0, 1, 2, 3, 4, 5, 255, 0, 0, 0, 0, 7]),
        )
        .unwrap();
        std::fs::write(&lp, idx(2049, &[2], &[3, 8])).unwrap();
        let ds = read_mnist(&ip, &lp, "m").unwrap();
        assert_eq!((ds.n(), ds.d()), (2, 6));
        assert_eq!(ds.y, vec![3.0, 8.0]);
        assert_eq!(ds.row(1).to_dense(6), vec![255.0, 0.0, 0.0, 0.0, 0.0, 7.0]);
    }

    #[test]
    fn bad_magic_short_and_long_files_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        // Labels file where images are expected.
        std::fs::write(&p, idx(2049, &[1, 1, 1], &[0])).unwrap();
        let e = read_idx_images(&p).unwrap_err().to_string();
        assert!(e.contains("bad IDX magic") && e.contains("2051"), "{e}");
        // Short body.
        std::fs::write(&p, idx(2051, &[2, 2, 2], &[1, 2, 3])).unwrap();
        let e = read_idx_images(&p).unwrap_err().to_string();
        assert!(e.contains("short") && e.contains("8 bytes"), "{e}");
        // Short header.
        std::fs::write(&p, [0u8, 0, 8]).unwrap();
        let e = read_idx_labels(&p).unwrap_err().to_string();
        assert!(e.contains("too short"), "{e}");
        // Trailing bytes.
        std::fs::write(&p, idx(2049, &[1], &[1, 2])).unwrap();
        assert!(read_idx_labels(&p).is_err());
        // Huge claimed size, tiny file: an error, not an allocation failure.
        std::fs::write(&p, idx(2051, &[u32::MAX, 1000, 1000], &[1])).unwrap();
        assert!(read_idx_images(&p).is_err());
        // No images, but absurdly wide ones: refused before any use of the width.
        std::fs::write(&p, idx(2051, &[0, 65536, 65536], &[])).unwrap();
        let e = read_idx_images(&p).unwrap_err().to_string();
        assert!(e.contains("more than cvbench supports"), "{e}");
    }

    #[test]
    fn count_mismatch_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let ip = dir.path().join("img");
        let lp = dir.path().join("lab");
        std::fs::write(&ip, idx(2051, &[1, 1, 1], &[9])).unwrap();
        std::fs::write(&lp, idx(2049, &[2], &[1, 2])).unwrap();
        assert!(read_mnist(&ip, &lp, "m").is_err());
    }
}
