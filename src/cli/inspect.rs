//! The commands that read configs, data and stored results without running
//! anything: `validate`, `report`, `export`, `datasets` and `fetch`.

use std::path::{Path, PathBuf};

use super::args::OutputFlags;
use super::failure::{classify, usage, Failure};
use crate::config::ConfigFile;
use crate::experiments::Context;
use crate::runner;
use cvbench_engine::api::data::DataDir;

/// `cvbench validate`: parse a config, load its data, expand its cells and
/// summarise them with their estimated cost (in minutes at the rate of the
/// stored runs under `out`).
pub(super) fn validate(
    config: PathBuf,
    data_dir: Option<PathBuf>,
    cells: bool,
    out: &Path,
    output: OutputFlags,
) -> Result<(), Failure> {
    let ctx = Context::new(DataDir::resolve(data_dir));
    let f = ConfigFile::read(&config).map_err(|e| classify(e.into()))?;
    let plan = runner::validate(&f, &ctx).map_err(classify)?;
    let all: Vec<usize> = (0..plan.cells().len()).collect();
    if output.json {
        let mut j = serde_json::json!({
            "command": "validate",
            "config": config.display().to_string(),
            "valid": true,
            "name": plan.name(),
            "cells": plan.cells().len(),
            "estimated_cost": all.iter().map(|&i| plan.cost(i)).sum::<Option<f64>>(),
        });
        if cells {
            j["cell_list"] = plan
                .cells()
                .iter()
                .map(|c| serde_json::json!({"key": c.key, "seed": c.seed}))
                .collect();
        }
        println!("{j}");
        return Ok(());
    }
    if output.quiet {
        return Ok(());
    }
    if cells {
        for c in plan.cells() {
            println!("{}  seed={}", c.key, c.seed);
        }
    }
    print!("{}", runner::plan_summary::cell_summary(plan.as_ref()));
    println!(
        "{}: valid, {} cells{}, output folder `{}`{}",
        config.display(),
        plan.cells().len(),
        runner::plan_summary::cost_text(plan.as_ref(), &all, out),
        plan.name(),
        if cells {
            ""
        } else {
            " (--cells lists every cell)"
        }
    );
    Ok(())
}

/// `cvbench report`: re-render every stored run under `dir` and the report;
/// with `stale`, only list the configs of the stale runs.
pub(super) fn report(dir: &Path, csv: bool, stale: bool) -> Result<(), Failure> {
    if !dir.is_dir() {
        return Err(usage(anyhow::anyhow!(
            "{}: no such results folder (give the folder `cvbench run --out` wrote, default `results`)",
            dir.display()
        )));
    }
    if stale {
        for run in crate::report::stale_runs(dir).map_err(classify)? {
            eprintln!("{}: {}", run.name, run.problems.join("; "));
            println!("{}", run.config_path);
        }
        return Ok(());
    }
    let files = crate::report::report(dir, csv).map_err(classify)?;
    for f in files {
        println!("wrote {}", f.display());
    }
    Ok(())
}

/// `cvbench datasets`: where each registry dataset was found, or how to get it.
pub(super) fn datasets(data_dir: Option<PathBuf>) -> Result<(), Failure> {
    let dir = DataDir::resolve(data_dir);
    let from = match dir.source() {
        cvbench_engine::api::data::DataDirSource::Flag => "from --data-dir",
        cvbench_engine::api::data::DataDirSource::Env => "from $CVBENCH_DATA_DIR",
        cvbench_engine::api::data::DataDirSource::Default => "the default",
    };
    println!("data directory: {} ({from})", dir.path().display());
    for st in cvbench_engine::api::data::dataset_status(&dir) {
        print!("{st}");
    }
    Ok(())
}

/// `cvbench fetch`: download and verify registry datasets.
pub(super) fn fetch(names: Vec<String>, data_dir: Option<PathBuf>) -> Result<(), Failure> {
    let dir = DataDir::resolve(data_dir);
    let names = if names.is_empty() {
        cvbench_engine::api::data::Registry::builtin().names()
    } else {
        names
    };
    let opts = crate::fetch::FetchOptions::default();
    let mut failed = Vec::new();
    for name in &names {
        match crate::fetch::fetch_by_name(name, &dir, &opts) {
            Ok(rep) => {
                for w in &rep.warnings {
                    eprintln!("{w}");
                }
                println!(
                    "{name}: ok ({} file(s) in {})",
                    rep.files.len(),
                    dir.path().display()
                );
            }
            Err(e @ cvbench_engine::api::errors::DataError::UnknownDataset { .. }) => {
                return Err(usage(e));
            }
            Err(e) => {
                eprintln!("{name}: {e}");
                if matches!(e, cvbench_engine::api::errors::DataError::Download { .. }) {
                    // No network (or the source moved): say how else to get it.
                    eprintln!(
                        "{name}: could not download. Without network access, put the files into {} by hand:",
                        dir.path().display()
                    );
                    for st in cvbench_engine::api::data::dataset_status(&dir) {
                        if st.name == *name {
                            eprint!("{st}");
                        }
                    }
                }
                failed.push(name.clone());
            }
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(Failure {
            code: 1,
            error: anyhow::anyhow!(
                "could not fetch: {} (`cvbench datasets` lists every dataset, where it was looked for and how to get it)",
                failed.join(", ")
            ),
        })
    }
}

/// `cvbench export`: a stored Parquet table as CSV (the same CSV `run`
/// writes for summary tables); `reproducible` drops the timing and `_sched`
/// columns. The output is checked before the table is read: never the
/// input, never a `.parquet` name (whatever link leads to it); a link is
/// written through, a device or pipe written to (see
/// [`crate::results::output`]).
pub(super) fn export(table: &Path, out: Option<&Path>, reproducible: bool) -> anyhow::Result<()> {
    use crate::results::{output, table as t};
    let file = if table.is_dir() {
        table.join("records.parquet")
    } else {
        table.to_path_buf()
    };
    if !file.is_file() {
        anyhow::bail!(
            "{}: no such table (give a .parquet file under a results folder, or a run folder holding records.parquet)",
            file.display()
        );
    }
    let dest = match out {
        Some(p) if p.as_os_str() == "-" => None,
        Some(p) => Some(p.to_path_buf()),
        None => Some(file.with_extension("csv")),
    };
    let (inputs, protected) = ([file.as_path()], [t::TABLE_EXTENSION]);
    if let Some(d) = &dest {
        output::check_user_file(d, &inputs, &protected)?;
    }
    let mut df = t::read_parquet(&file)?;
    if reproducible {
        let keep: Vec<String> = df
            .get_column_names()
            .iter()
            .map(|n| n.to_string())
            .filter(|n| crate::results::columns::is_reproducible(n))
            .collect();
        df = df.select(keep)?;
    }
    let bytes = t::csv_bytes(&df, &file)?;
    match dest {
        None => {
            use std::io::Write as _;
            std::io::stdout().write_all(&bytes)?;
        }
        Some(d) => {
            output::write_user_file(&d, &bytes, &inputs, &protected)?;
            println!("wrote {}", d.display());
        }
    }
    Ok(())
}
