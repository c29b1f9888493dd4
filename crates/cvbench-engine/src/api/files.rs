//! Files written and read safely: atomic replacement (and the streams it
//! leaves alone), whole-file reads with any compression, SHA-256, and the
//! size limits every reader enforces.

/// Write a file atomically (temporary file, fsync, rename), replace it
/// without fsync, write to a stream (`/dev/stdout`), whether a path is a
/// stream, whether two paths are one file.
pub use crate::data::atomic::{is_stream, replace_unsynced, same_file, write_atomic, write_stream};

/// A whole file, decompressed by its magic bytes ([`Compression`]); the
/// SHA-256 of a reader as hex, and bytes as hex.
pub use crate::data::compress::{read_all, sha256_reader, to_hex, Compression};

/// The limits on what is read: features per row, lines of a model file,
/// a config file and a grid output file; checking an allocation against
/// memory; reading a text file within a limit.
pub use crate::data::limits::{
    check_alloc, read_text_limited, CONFIG_FILE, GRID_OUT_FILE, MAX_FEATURES, MODEL_LINE,
};
