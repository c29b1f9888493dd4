//! Download registry datasets over HTTP(S), atomically and verified.
//!
//! For each file of a dataset: if it is already in the data directory
//! (plain or compressed) and its checksum is right, it is skipped. Otherwise
//! each URL is tried in turn: the body is streamed to a temporary file in the
//! data directory (with a progress bar), its sha256 is checked — the
//! download's own pin if there is one, and the pin of the decompressed
//! content — and only then is it renamed into place as `name` + the
//! download's compression suffix. A failed or mismatching download leaves
//! nothing behind. Files with no pin are kept, and their computed sha256 is
//! printed with a warning so it can be pinned.

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use sha2::{Digest, Sha256};

use cvbench_engine::api::data::{
    verify_file, DataDir, DatasetEntry, FileEntry, Registry, Verification,
};
use cvbench_engine::api::errors::DataError;
use cvbench_engine::api::files as compress;
use cvbench_engine::api::files::to_hex;

/// Options of [`fetch`].
#[derive(Clone, Debug)]
pub struct FetchOptions {
    /// Show a progress bar on stderr (hidden anyway when stderr is not a terminal).
    pub progress: bool,
    /// Connect / response timeout.
    pub timeout: Duration,
}

impl Default for FetchOptions {
    fn default() -> Self {
        FetchOptions {
            progress: true,
            timeout: Duration::from_secs(60),
        }
    }
}

/// What happened to one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileOutcome {
    /// It was already there and checked out (or is unpinned).
    AlreadyPresent {
        /// Where it is.
        path: PathBuf,
        /// The checksum result.
        verification: Verification,
    },
    /// It was downloaded and checked.
    Downloaded {
        /// Where it now is.
        path: PathBuf,
        /// The URL that worked.
        url: String,
        /// The checksum result.
        verification: Verification,
    },
}

/// The result of fetching one dataset.
#[derive(Clone, Debug)]
pub struct FetchReport {
    /// The dataset fetched.
    pub dataset: String,
    /// One outcome per file, in registry order.
    pub files: Vec<FileOutcome>,
    /// Warnings (unpinned checksums, URLs that failed before one worked).
    pub warnings: Vec<String>,
}

/// Fetch a builtin registry dataset by name into `dir`.
pub fn fetch_by_name(
    name: &str,
    dir: &DataDir,
    opts: &FetchOptions,
) -> Result<FetchReport, DataError> {
    fetch(Registry::builtin().get(name)?, dir, opts)
}

/// Fetch every file of `entry` into `dir` (see the module docs).
pub fn fetch(
    entry: &DatasetEntry,
    dir: &DataDir,
    opts: &FetchOptions,
) -> Result<FetchReport, DataError> {
    let mut report = FetchReport {
        dataset: entry.name.clone(),
        files: Vec::new(),
        warnings: Vec::new(),
    };
    for f in &entry.files {
        let outcome = if let Some(path) = dir.find(&f.name) {
            let verification = verify_file(&path, f)?;
            FileOutcome::AlreadyPresent { path, verification }
        } else {
            std::fs::create_dir_all(dir.path()).map_err(|e| DataError::io(dir.path(), e))?;
            download_file(f, dir, opts, &mut report.warnings)?
        };
        let (FileOutcome::AlreadyPresent { path, verification }
        | FileOutcome::Downloaded {
            path, verification, ..
        }) = &outcome;
        if let Verification::Unpinned { sha256 } = verification {
            let w = format!(
                "warning: {} has no pinned checksum; its decompressed sha256 is {sha256} (check it against an independent copy before pinning it in the registry)",
                path.display()
            );
            eprintln!("{w}");
            report.warnings.push(w);
        }
        report.files.push(outcome);
    }
    Ok(report)
}

/// Removes the temporary file on drop unless disarmed.
struct TempGuard(Option<PathBuf>);

impl Drop for TempGuard {
    fn drop(&mut self) {
        if let Some(p) = self.0.take() {
            let _ = std::fs::remove_file(p);
        }
    }
}

fn download_file(
    f: &FileEntry,
    dir: &DataDir,
    opts: &FetchOptions,
    warnings: &mut Vec<String>,
) -> Result<FileOutcome, DataError> {
    let final_path = dir
        .path()
        .join(format!("{}{}", f.name, f.compression.suffix()));
    let mut last_err = None;
    for url in &f.urls {
        match try_url(f, url, &final_path, opts) {
            Ok(verification) => {
                return Ok(FileOutcome::Downloaded {
                    path: final_path,
                    url: url.clone(),
                    verification,
                })
            }
            Err(e) => {
                let w = format!("warning: {url}: {e}");
                eprintln!("{w}");
                warnings.push(w);
                last_err = Some(e);
            }
        }
    }
    Err(last_err.unwrap_or_else(|| DataError::Download {
        url: String::new(),
        msg: format!("no URL for {}", f.name),
    }))
}

fn is_loopback_url(url: &str) -> bool {
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))
        .unwrap_or("");
    let host = rest.split(['/', '?']).next().unwrap_or("");
    let name = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => host.split(':').next().unwrap_or(""),
    };
    name == "localhost"
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

fn try_url(
    f: &FileEntry,
    url: &str,
    final_path: &Path,
    opts: &FetchOptions,
) -> Result<Verification, DataError> {
    let derr = |msg: String| DataError::Download {
        url: url.to_string(),
        msg,
    };
    let mut cfg = ureq::Agent::config_builder()
        .timeout_connect(Some(opts.timeout))
        .timeout_recv_response(Some(opts.timeout))
        .http_status_as_error(true)
        .user_agent(concat!("cvbench/", env!("CARGO_PKG_VERSION")));
    if is_loopback_url(url) {
        cfg = cfg.proxy(None);
    }
    let agent: ureq::Agent = cfg.build().into();
    let mut resp = agent.get(url).call().map_err(|e| derr(e.to_string()))?;
    let len = resp.body().content_length();

    let dir = final_path.parent().unwrap_or(Path::new("."));
    let file_name = final_path
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{file_name}.part-{}", std::process::id()));
    let mut guard = TempGuard(Some(tmp.clone()));
    let out = File::create(&tmp).map_err(|e| DataError::io(&tmp, e))?;
    let mut out = BufWriter::new(out);

    let pb = if opts.progress {
        let pb = len.map_or_else(ProgressBar::new_spinner, ProgressBar::new);
        if let Ok(style) = ProgressStyle::with_template(
            "{msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
        ) {
            pb.set_style(style.progress_chars("=> "));
        }
        pb.set_message(f.name.clone());
        pb
    } else {
        ProgressBar::hidden()
    };

    let mut raw_hash = Sha256::new();
    let mut reader = resp.body_mut().as_reader();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let k = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(k) => k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(derr(format!("reading the body: {e}"))),
        };
        raw_hash.update(&buf[..k]);
        out.write_all(&buf[..k])
            .map_err(|e| DataError::io(&tmp, e))?;
        pb.inc(k as u64);
    }
    pb.finish_and_clear();
    out.flush().map_err(|e| DataError::io(&tmp, e))?;
    let file = out
        .into_inner()
        .map_err(|e| DataError::io(&tmp, e.into_error()))?;
    file.sync_all().map_err(|e| DataError::io(&tmp, e))?;
    drop(file);

    let raw = to_hex(&raw_hash.finalize());
    if let Some(expected) = &f.download_sha256 {
        if raw != *expected {
            return Err(DataError::Checksum {
                path: PathBuf::from(url),
                expected: expected.clone(),
                actual: raw,
            });
        }
    }
    let tmp_file = File::open(&tmp).map_err(|e| DataError::io(&tmp, e))?;
    let decoded = f
        .compression
        .decoder(std::io::BufReader::new(tmp_file))
        .map_err(|e| DataError::io(&tmp, e))?;
    let content = compress::sha256_reader(decoded).map_err(|e| DataError::io(&tmp, e))?;
    let verification = match &f.sha256 {
        Some(expected) if *expected != content => {
            return Err(DataError::Checksum {
                path: PathBuf::from(url),
                expected: expected.clone(),
                actual: content,
            })
        }
        Some(_) => Verification::Verified { sha256: content },
        None if f.download_sha256.is_some() => Verification::Verified { sha256: content },
        None => Verification::Unpinned { sha256: content },
    };
    std::fs::rename(&tmp, final_path).map_err(|e| DataError::io(final_path, e))?;
    guard.0 = None;
    Ok(verification)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufRead;
    use std::net::TcpListener;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::time::Instant;

    /// A tiny HTTP/1.1 server on 127.0.0.1 serving fixed bodies by path.
    /// It stops after `max_conns` connections or 20 s, whichever is first.
    fn serve(routes: Vec<(&'static str, Vec<u8>)>, max_conns: usize) -> (String, Arc<AtomicUsize>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        assert!(addr.ip().is_loopback());
        listener.set_nonblocking(true).unwrap();
        let hits = Arc::new(AtomicUsize::new(0));
        let hits2 = hits.clone();
        std::thread::spawn(move || {
            let deadline = Instant::now() + Duration::from_secs(20);
            while hits2.load(Ordering::SeqCst) < max_conns && Instant::now() < deadline {
                let (stream, _) = match listener.accept() {
                    Ok(s) => s,
                    Err(_) => {
                        std::thread::sleep(Duration::from_millis(5));
                        continue;
                    }
                };
                hits2.fetch_add(1, Ordering::SeqCst);
                stream.set_nonblocking(false).unwrap();
                stream
                    .set_read_timeout(Some(Duration::from_secs(5)))
                    .unwrap();
                let mut r = std::io::BufReader::new(stream.try_clone().unwrap());
                let mut request_line = String::new();
                if r.read_line(&mut request_line).is_err() {
                    continue;
                }
                loop {
                    let mut h = String::new();
                    match r.read_line(&mut h) {
                        Ok(0) | Err(_) => break,
                        Ok(_) if h == "\r\n" || h == "\n" => break,
                        Ok(_) => {}
                    }
                }
                let path = request_line.split_whitespace().nth(1).unwrap_or("");
                let mut w = stream;
                match routes.iter().find(|(p, _)| *p == path) {
                    Some((_, body)) => {
                        let _ = write!(
                            w,
                            "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                            body.len()
                        );
                        let _ = w.write_all(body);
                    }
                    None => {
                        let _ = w.write_all(
                            b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                        );
                    }
                }
                let _ = w.flush();
            }
        });
        (format!("http://{addr}"), hits)
    }

    fn registry(base: &str, sha: &str, compression: &str) -> Registry {
        Registry::from_toml(&format!(
            r#"
[[dataset]]
name = "tiny"
description = "test-only dataset served from 127.0.0.1"
citation = "none"
task = "binary"
format = "libsvm"
n_features = 3
[[dataset.files]]
name = "tiny"
urls = ["{base}/missing", "{base}/tiny"]
compression = "{compression}"
sha256 = "{sha}"
"#
        ))
        .unwrap()
    }

    const BODY: &[u8] = b"+1 1:1 3:0.5\n-1 2:2\n";

    fn quiet() -> FetchOptions {
        FetchOptions {
            progress: false,
            timeout: Duration::from_secs(5),
        }
    }

    fn gz(bytes: &[u8]) -> Vec<u8> {
        let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        w.write_all(bytes).unwrap();
        w.finish().unwrap()
    }

    fn dir_entries(p: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(p)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn good_checksum_puts_file_in_place_and_skips_next_time() {
        let (base, hits) = serve(vec![("/tiny", gz(BODY))], 3);
        let sha = compress::sha256_reader(BODY).unwrap();
        let reg = registry(&base, &sha, "gz");
        let tmp = tempfile::tempdir().unwrap();
        let dd = DataDir::new(tmp.path().join("data"));
        let entry = reg.get("tiny").unwrap();
        let rep = fetch(entry, &dd, &quiet()).unwrap();
        // First URL 404s (a warning), the second works.
        assert_eq!(rep.warnings.len(), 1, "{:?}", rep.warnings);
        let want = dd.path().join("tiny.gz");
        assert_eq!(
            rep.files,
            vec![FileOutcome::Downloaded {
                path: want.clone(),
                url: format!("{base}/tiny"),
                verification: Verification::Verified {
                    sha256: sha.clone()
                },
            }]
        );
        assert_eq!(dir_entries(dd.path()), vec!["tiny.gz"]);
        let ds = entry.load(&dd).unwrap();
        assert_eq!((ds.n(), ds.d()), (2, 3));
        // Second fetch: found and verified, no connection made.
        let before = hits.load(Ordering::SeqCst);
        let rep = fetch(entry, &dd, &quiet()).unwrap();
        assert!(matches!(rep.files[0], FileOutcome::AlreadyPresent { .. }));
        assert_eq!(hits.load(Ordering::SeqCst), before);
    }

    #[test]
    fn bad_checksum_is_an_error_and_leaves_nothing() {
        let (base, _) = serve(vec![("/tiny", BODY.to_vec())], 2);
        let reg = registry(&base, &"0".repeat(64), "none");
        let tmp = tempfile::tempdir().unwrap();
        let dd = DataDir::new(tmp.path());
        let err = fetch(reg.get("tiny").unwrap(), &dd, &quiet()).unwrap_err();
        assert!(matches!(err, DataError::Checksum { .. }), "{err}");
        assert!(err.to_string().contains("sha256 mismatch"), "{err}");
        assert!(
            dir_entries(dd.path()).is_empty(),
            "{:?}",
            dir_entries(dd.path())
        );
    }

    #[test]
    fn unreachable_urls_are_an_error_and_leave_nothing() {
        let (base, _) = serve(vec![], 2);
        let reg = registry(&base, &"0".repeat(64), "none");
        let tmp = tempfile::tempdir().unwrap();
        let dd = DataDir::new(tmp.path());
        let err = fetch(reg.get("tiny").unwrap(), &dd, &quiet()).unwrap_err();
        assert!(matches!(err, DataError::Download { .. }), "{err}");
        assert!(err.to_string().contains("404"), "{err}");
        assert!(dir_entries(dd.path()).is_empty());
    }

    #[test]
    fn unpinned_download_is_kept_with_a_warning() {
        let (base, _) = serve(vec![("/tiny", BODY.to_vec())], 2);
        let reg = Registry::from_toml(&format!(
            r#"
[[dataset]]
name = "tiny"
description = "d"
citation = "c"
task = "binary"
format = "libsvm"
n_features = 3
[[dataset.files]]
name = "tiny"
urls = ["{base}/tiny"]
compression = "none"
"#
        ))
        .unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let dd = DataDir::new(tmp.path());
        let rep = fetch(reg.get("tiny").unwrap(), &dd, &quiet()).unwrap();
        let sha = compress::sha256_reader(BODY).unwrap();
        assert!(rep
            .warnings
            .iter()
            .any(|w| w.contains(&sha) && w.contains("no pinned")));
        assert_eq!(dir_entries(dd.path()), vec!["tiny"]);
    }

    #[test]
    fn loopback_detection() {
        assert!(is_loopback_url("http://127.0.0.1:8080/x"));
        assert!(is_loopback_url("http://localhost/x"));
        assert!(is_loopback_url("http://[::1]:80/x"));
        assert!(!is_loopback_url("http://localhost.example.com/x"));
        assert!(!is_loopback_url("http://127.0.0.1.example.com/x"));
        assert!(!is_loopback_url("https://www.csie.ntu.edu.tw/~cjlin/"));
    }
}
