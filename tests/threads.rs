//! `--threads N` bounds every rayon task of a run (issue 21, item 10): the
//! cells of a timing (exclusive) plan and the parallel methods inside them
//! run on the run's pool, never on rayon's global pool, which would start
//! one thread per core and keep them. Alone in its test binary, so that no
//! other test touches the global pool.

use cvbench::config::ConfigFile;
use cvbench::experiments::Context;
use cvbench::runner::{run, RunOptions};
use cvbench_engine::api::data::DataDir;

/// This process's threads but Polars' own pool (which writes the tables,
/// sized by `POLARS_MAX_THREADS`, and is not rayon work of ours), by name.
fn threads_of_this_process() -> Option<Vec<String>> {
    let names = std::fs::read_dir("/proc/self/task")
        .ok()?
        .flatten()
        .map(|t| {
            let comm = std::fs::read_to_string(t.path().join("comm")).unwrap_or_default();
            comm.trim().to_string()
        })
        .filter(|n| !n.starts_with("polars"))
        .collect();
    Some(names)
}

#[test]
fn an_exclusive_parallel_cell_stays_on_the_runs_pool() {
    let Some(before) = threads_of_this_process() else {
        eprintln!("SKIPPED: no /proc/self/task on this system");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let cfg = ConfigFile::from_text(
        dir.path().join("c.toml"),
        r#"kind = "treecv"
name = "t"
seed = 1
repetitions = 1
exclusive = true
[[datasets]]
synthetic = { generator = "linear-classification", n = 400, d = 3 }
[[learners]]
type = "pegasos"
[[grid]]
methods = ["treecv_parallel", "standard_parallel"]
orders = ["fixed"]
k = [8]
"#,
    );
    let ctx = Context::new(DataDir::resolve(Some(dir.path().to_path_buf())));
    let opts = RunOptions {
        out: dir.path().join("out"),
        threads: Some(1),
        fresh: false,
        dry_run: false,
        progress: cvbench::runner::progress::ProgressMode::Quiet,
        records_csv: false,
        shard: None,
    };
    let s = run(&cfg, &ctx, &opts).unwrap();
    assert!(s.assembled);
    // The run's pool is gone once its threads have exited; the global pool
    // (had it been used) would keep one thread per core for good.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let mut after = threads_of_this_process().unwrap();
    while after.len() > before.len() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
        after = threads_of_this_process().unwrap();
    }
    assert!(
        after.len() <= before.len(),
        "threads outlive the run (rayon's global pool was used): {before:?} before, {after:?} after"
    );
}
