//! Transparent decompression by file extension (`.xz`, `.bz2`, `.gz`, and
//! single-file `.zip` archives as UCI publishes some datasets).
//!
//! Readers call [`open`] and get a buffered reader of the *decompressed*
//! bytes, whatever the file's compression. [`sha256_decompressed`] hashes the
//! decompressed content, which is what the registry pins.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use sha2::{Digest, Sha256};

use super::DataError;

/// Buffer size for file readers: large enough that decompression and parsing
/// are not dominated by small reads.
const BUF_SIZE: usize = 1 << 20;

/// The compression of a file, as told by its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Compression {
    /// Plain, uncompressed bytes.
    None,
    /// xz / LZMA2 (`.xz`).
    Xz,
    /// bzip2 (`.bz2`).
    Bz2,
    /// gzip (`.gz`).
    Gz,
    /// A zip archive holding one file (only its first member is read;
    /// stored or deflated).
    Zip,
}

impl Compression {
    /// Every compression, in the order the data directory tries them.
    pub const ALL: [Compression; 5] = [
        Compression::None,
        Compression::Xz,
        Compression::Bz2,
        Compression::Gz,
        Compression::Zip,
    ];

    /// The compression implied by a path's extension (`None` when the
    /// extension is not `.xz`, `.bz2` or `.gz`).
    pub fn from_path(path: &Path) -> Compression {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("xz") => Compression::Xz,
            Some(e) if e.eq_ignore_ascii_case("bz2") => Compression::Bz2,
            Some(e) if e.eq_ignore_ascii_case("gz") => Compression::Gz,
            Some(e) if e.eq_ignore_ascii_case("zip") => Compression::Zip,
            _ => Compression::None,
        }
    }

    /// The file-name suffix, with its dot (`""` for [`Compression::None`]).
    pub fn suffix(self) -> &'static str {
        match self {
            Compression::None => "",
            Compression::Xz => ".xz",
            Compression::Bz2 => ".bz2",
            Compression::Gz => ".gz",
            Compression::Zip => ".zip",
        }
    }

    /// Wrap a reader of compressed bytes into a reader of decompressed bytes.
    /// Multi-stream / multi-member xz, bzip2 and gzip files are decoded in
    /// full. For zip, the local header of the first member is read here
    /// (hence the `Result`).
    pub fn decoder<'a, R: Read + 'a>(self, r: R) -> std::io::Result<Box<dyn Read + 'a>> {
        Ok(match self {
            Compression::None => Box::new(r),
            Compression::Xz => Box::new(liblzma::read::XzDecoder::new_multi_decoder(r)),
            Compression::Bz2 => Box::new(bzip2::read::MultiBzDecoder::new(r)),
            Compression::Gz => Box::new(flate2::read::MultiGzDecoder::new(r)),
            Compression::Zip => zip_first_member(r)?,
        })
    }
}

/// Open `path` for reading, decompressing transparently according to its
/// extension (`.xz`, `.bz2`, `.gz`; anything else is read as is).
///
/// I/O errors that happen later, while reading, are plain `std::io::Error`s;
/// callers attach the path (see [`DataError::io`]).
pub fn open(path: &Path) -> Result<Box<dyn BufRead>, DataError> {
    let file = File::open(path).map_err(|e| DataError::io(path, e))?;
    let comp = Compression::from_path(path);
    Ok(match comp {
        Compression::None => Box::new(BufReader::with_capacity(BUF_SIZE, file)),
        c => Box::new(BufReader::with_capacity(
            BUF_SIZE,
            c.decoder(BufReader::with_capacity(BUF_SIZE, file))
                .map_err(|e| DataError::io(path, e))?,
        )),
    })
}

/// Read the local header of a zip archive's first member and return a reader
/// of that member's content (method 0 = stored, 8 = deflate).
fn zip_first_member<'a, R: Read + 'a>(mut r: R) -> std::io::Result<Box<dyn Read + 'a>> {
    use std::io::{Error, ErrorKind};
    let bad = |m: String| Error::new(ErrorKind::InvalidData, m);
    let mut h = [0u8; 30];
    r.read_exact(&mut h)
        .map_err(|_| bad("zip: file too short for a local file header".into()))?;
    let u16_at = |i: usize| u16::from_le_bytes([h[i], h[i + 1]]);
    let u32_at = |i: usize| u32::from_le_bytes([h[i], h[i + 1], h[i + 2], h[i + 3]]);
    if u32_at(0) != 0x0403_4b50 {
        return Err(bad(
            "zip: expected a local file header (PK\\x03\\x04) at the start".into(),
        ));
    }
    let flags = u16_at(6);
    let method = u16_at(8);
    let comp_size = u32_at(18);
    let skip = u64::from(u16_at(26)) + u64::from(u16_at(28));
    std::io::copy(&mut r.by_ref().take(skip), &mut std::io::sink())?;
    if flags & 1 != 0 {
        return Err(bad("zip: encrypted members are not supported".into()));
    }
    match method {
        8 => Ok(Box::new(flate2::read::DeflateDecoder::new(r))),
        0 if flags & 8 == 0 && comp_size != u32::MAX => {
            Ok(Box::new(r.take(u64::from(comp_size))))
        }
        m => Err(bad(format!(
            "zip: unsupported member (method {m}, flags {flags:#x}); expected stored or deflate; unzip it by hand"
        ))),
    }
}

/// Read the whole decompressed content of `path` into memory.
pub fn read_all(path: &Path) -> Result<Vec<u8>, DataError> {
    let r = open(path)?;
    super::limits::read_to_end_bounded(r, &path.display().to_string())
        .map_err(|e| DataError::io(path, e))
}

/// Lower-case hex sha256 of everything `r` yields.
pub fn sha256_reader(mut r: impl Read) -> std::io::Result<String> {
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let k = r.read(&mut buf)?;
        if k == 0 {
            break;
        }
        h.update(&buf[..k]);
    }
    Ok(to_hex(&h.finalize()))
}

/// Lower-case hex sha256 of the *decompressed* content of `path`.
pub fn sha256_decompressed(path: &Path) -> Result<String, DataError> {
    let r = open(path)?;
    sha256_reader(r).map_err(|e| DataError::io(path, e))
}

/// Lower-case hex encoding.
pub fn to_hex(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(HEX[usize::from(b >> 4)] as char);
        s.push(HEX[usize::from(b & 15)] as char);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    const TEXT: &[u8] = b"+1 1:0.5 3:1\n-1 2:2\n";

    fn write_compressed(dir: &Path, name: &str) -> std::path::PathBuf {
        let p = dir.join(name);
        let f = File::create(&p).unwrap();
        match Compression::from_path(&p) {
            Compression::None => {
                let mut f = f;
                f.write_all(TEXT).unwrap();
            }
            Compression::Xz => {
                let mut w = liblzma::write::XzEncoder::new(f, 6);
                w.write_all(TEXT).unwrap();
                w.finish().unwrap();
            }
            Compression::Bz2 => {
                let mut w = bzip2::write::BzEncoder::new(f, bzip2::Compression::default());
                w.write_all(TEXT).unwrap();
                w.finish().unwrap();
            }
            Compression::Gz => {
                let mut w = flate2::write::GzEncoder::new(f, flate2::Compression::default());
                w.write_all(TEXT).unwrap();
                w.finish().unwrap();
            }
            Compression::Zip => {
                // One deflated member, sizes in a trailing data descriptor (flag 8).
                let mut enc =
                    flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
                enc.write_all(TEXT).unwrap();
                let body = enc.finish().unwrap();
                let mut z = Vec::new();
                z.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
                z.extend_from_slice(&20u16.to_le_bytes()); // version
                z.extend_from_slice(&8u16.to_le_bytes()); // flags: data descriptor
                z.extend_from_slice(&8u16.to_le_bytes()); // deflate
                z.extend_from_slice(&[0u8; 16]); // time, date, crc, sizes
                z.extend_from_slice(&1u16.to_le_bytes()); // name length
                z.extend_from_slice(&0u16.to_le_bytes()); // extra length
                z.push(b'a');
                z.extend_from_slice(&body);
                z.extend_from_slice(b"PK\x07\x08 trailing directory bytes are ignored");
                let mut f = f;
                f.write_all(&z).unwrap();
            }
        }
        p
    }

    #[test]
    fn every_compression_reads_back_the_same_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let plain_hash = sha256_reader(TEXT).unwrap();
        for name in ["a", "a.xz", "a.bz2", "a.gz", "a.zip"] {
            let p = write_compressed(dir.path(), name);
            assert_eq!(read_all(&p).unwrap(), TEXT, "{name}");
            assert_eq!(sha256_decompressed(&p).unwrap(), plain_hash, "{name}");
        }
    }

    #[test]
    fn known_sha256() {
        assert_eq!(
            sha256_reader(&b"abc"[..]).unwrap(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn missing_file_names_the_path() {
        let err = match open(Path::new("/nonexistent/cvbench/x.xz")) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("opened a missing file"),
        };
        assert!(err.contains("/nonexistent/cvbench/x.xz"), "{err}");
    }

    #[test]
    fn corrupt_stream_is_an_error_not_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("bad.xz");
        std::fs::write(&p, b"this is not xz").unwrap();
        assert!(read_all(&p).is_err());
    }
}
