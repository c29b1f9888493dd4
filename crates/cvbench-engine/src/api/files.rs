//! Files read safely: whole-file reads with any compression, SHA-256, and
//! the size limits every reader enforces (atomic writes are the harness's).

/// A whole file, decompressed by its magic bytes ([`Compression`]); the
/// SHA-256 of a reader as hex, and bytes as hex.
pub use crate::data::read::compress::{read_all, sha256_reader, to_hex, Compression};

/// The limits on what is read: features per row, lines of a model file,
/// a config file and a grid output file; checking an allocation against
/// memory; reading a text file within a limit.
pub use crate::data::limits::{
    check_alloc, read_text_limited, CONFIG_FILE, GRID_OUT_FILE, MAX_FEATURES, MODEL_LINE,
};
