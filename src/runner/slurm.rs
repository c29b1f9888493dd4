//! `cvbench slurm`: write a SLURM job-array script whose tasks each run one
//! shard (`cvbench run --shard slurm`), a collect job that depends on the
//! array (`--dependency=afterok`), and a `submit.sh` tying them together; and
//! submit them with `sbatch --parsable` when asked.

pub mod values;

use std::path::{Path, PathBuf};
use std::process::Command;

/// Errors writing or submitting the job scripts.
#[derive(Debug, thiserror::Error)]
pub enum SlurmError {
    /// File system error.
    #[error("{path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// `sbatch` missing or failing.
    #[error("sbatch: {0}")]
    Sbatch(String),
    /// A value that cannot go into a job script, or a task count that does
    /// not fit the cells (bad usage).
    #[error("{what} {value:?} {problem}\n  fix: {fix}")]
    Value {
        /// The option or path (`--partition`, `the config path`).
        what: String,
        /// The value given.
        value: String,
        /// What is wrong with it.
        problem: String,
        /// What to do.
        fix: String,
    },
}

/// A value written into a job script: no control character anywhere (a
/// newline would add a line that every task runs), and for `#SBATCH` option
/// values (`sbatch_option`) no white space either (it would add options).
pub fn script_value<'a>(
    what: &str,
    value: &'a str,
    sbatch_option: bool,
) -> Result<&'a str, SlurmError> {
    let bad = |problem: &str, fix: &str| SlurmError::Value {
        what: what.to_string(),
        value: value.to_string(),
        problem: problem.to_string(),
        fix: fix.to_string(),
    };
    if value.chars().any(char::is_control) {
        return Err(bad(
            "contains a control character (such as a newline): it would be written into the job scripts as a command",
            "give the value without control characters",
        ));
    }
    if sbatch_option && (value.is_empty() || value.chars().any(char::is_whitespace)) {
        return Err(bad(
            "is empty or contains white space: an #SBATCH option takes one word",
            "give one word, e.g. --partition short --time 04:00:00 --mem 8G",
        ));
    }
    Ok(value)
}

impl SlurmOptions {
    /// Check the options against a plan of `cells` cells before anything is
    /// written: at least one task and no more tasks than cells (a task with
    /// no cell would only queue), `--cpus` in 1..=[`values::MAX_CPUS`], and
    /// the `#SBATCH` values ([`script_value`], then the format SLURM accepts:
    /// [`values`]).
    pub fn check(&self, cells: usize) -> Result<(), SlurmError> {
        let count = |what: &str, value: usize, problem: String, fix: String| SlurmError::Value {
            what: what.to_string(),
            value: value.to_string(),
            problem,
            fix,
        };
        if self.tasks == 0 || self.tasks > cells {
            return Err(count(
                "--tasks",
                self.tasks,
                format!("is not in 1..={cells} (the configs have {cells} cells; each task runs a share of them)"),
                format!("use --tasks between 1 and {cells}"),
            ));
        }
        if let Some(c) = self.cpus {
            values::cpus(c).map_err(|r| count("--cpus", c, r.problem, r.fix))?;
        }
        let formats: [(&str, &Option<String>, values::Format); 3] = [
            ("--partition", &self.partition, values::partition),
            ("--time", &self.time, values::time),
            ("--mem", &self.mem, values::mem),
        ];
        for (what, v, format) in formats {
            if let Some(v) = v {
                script_value(what, v, true)?;
                format(v).map_err(|r| SlurmError::Value {
                    what: what.to_string(),
                    value: v.clone(),
                    problem: r.problem,
                    fix: r.fix,
                })?;
            }
        }
        Ok(())
    }
}

/// What to ask SLURM for.
#[derive(Clone, Debug, Default)]
pub struct SlurmOptions {
    /// Array tasks (shards).
    pub tasks: usize,
    /// `--partition`.
    pub partition: Option<String>,
    /// `--time` per task (e.g. `04:00:00`).
    pub time: Option<String>,
    /// `--cpus-per-task` (also the run's `--threads`).
    pub cpus: Option<usize>,
    /// `--mem` per task (e.g. `8G`).
    pub mem: Option<String>,
    /// Ask for whole nodes (`--exclusive`): set when a config times its
    /// cells, so that no other job shares the node with a timing cell.
    pub exclusive: bool,
}

/// The scripts written.
#[derive(Clone, Debug)]
pub struct Scripts {
    /// The folder holding them (and the jobs' logs).
    pub dir: PathBuf,
    /// The array job.
    pub array: PathBuf,
    /// The collect job.
    pub collect: PathBuf,
    /// A shell script submitting both, the second depending on the first.
    pub submit: PathBuf,
}

/// Quote for a POSIX shell.
fn sh(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

fn absolute(p: &Path) -> PathBuf {
    let p = if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(p)
    };
    std::fs::canonicalize(&p).unwrap_or(p)
}

/// Write the array, collect and submit scripts for `configs` (run names
/// `names`) into `<out>/<name>/slurm/` (one config) or `<out>/slurm/`
/// (several). `bin` is the cvbench binary the jobs run; `data_dir` the data
/// directory they read. Paths in the scripts are absolute, and the jobs start
/// in the current directory (where relative data paths in configs resolve).
pub fn write_scripts(
    configs: &[PathBuf],
    names: &[String],
    out: &Path,
    data_dir: &Path,
    bin: &Path,
    opts: &SlurmOptions,
) -> Result<Scripts, SlurmError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| SlurmError::Io { path, source }
    };
    opts.check(usize::MAX)?;
    std::fs::create_dir_all(out).map_err(io(out))?;
    let out = absolute(out);
    let (dir, job) = match names {
        [one] => (out.join(one).join("slurm"), format!("cvbench-{one}")),
        _ => (
            out.join("slurm"),
            format!("cvbench-{}-configs", names.len()),
        ),
    };
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    let cwd = absolute(Path::new("."));
    let bin = absolute(bin);
    let data = absolute(data_dir);
    // Every path written into the scripts, checked (the #SBATCH --output
    // lines hold `dir` unquoted).
    for (what, p) in [
        ("the results folder", &dir),
        ("the working folder", &cwd),
        ("the cvbench binary", &bin),
        ("the data folder", &data),
    ] {
        script_value(what, &p.display().to_string(), false)?;
    }
    let cfgs: Vec<String> = configs
        .iter()
        .map(|c| {
            let c = absolute(c).display().to_string();
            script_value("the config path", &c, false).map(sh)
        })
        .collect::<Result<_, _>>()?;
    let disp = |p: &Path| sh(&p.display().to_string());
    let mut common = String::new();
    if let Some(p) = &opts.partition {
        common.push_str(&format!("#SBATCH --partition={p}\n"));
    }
    if let Some(t) = &opts.time {
        common.push_str(&format!("#SBATCH --time={t}\n"));
    }
    if let Some(m) = &opts.mem {
        common.push_str(&format!("#SBATCH --mem={m}\n"));
    }
    let whole_node = if opts.exclusive {
        "#SBATCH --exclusive\n"
    } else {
        ""
    };
    let threads = opts
        .cpus
        .map_or(String::new(), |c| format!(" --threads {c}"));
    // The part both scripts end with: directory, then the cvbench command.
    let tail = |whole_node: &str, command: &str| {
        format!(
            "#SBATCH --cpus-per-task={cpus}\n{whole_node}{common}set -euo pipefail\ncd {cwd}\nexec {bin} {command} --out {out} --data-dir {data}",
            cpus = opts.cpus.unwrap_or(1),
            cwd = disp(&cwd),
            bin = disp(&bin),
            out = disp(&out),
            data = disp(&data),
        )
    };
    let array = format!(
        "#!/bin/bash\n\
         # Written by `cvbench slurm`: array task I of {n} runs shard I/{n} of the cells\n\
         # into the shared results folder; the collect job assembles them.\n\
         #SBATCH --job-name={job}\n\
         #SBATCH --array=0-{last}\n\
         #SBATCH --output={dir}/array-%A_%a.out\n\
         {tail}{threads} {cfgs}\n",
        n = opts.tasks,
        last = opts.tasks.saturating_sub(1),
        dir = dir.display(),
        tail = tail(whole_node, "run --shard slurm"),
        cfgs = cfgs.join(" "),
    );
    let collect = format!(
        "#!/bin/bash\n\
         # Written by `cvbench slurm`: runs after every array task succeeded\n\
         # (--dependency=afterok) and assembles records, tables, figures and manifests.\n\
         #SBATCH --job-name={job}-collect\n\
         #SBATCH --output={dir}/collect-%j.out\n\
         {tail} {cfgs}\n",
        dir = dir.display(),
        tail = tail("", "collect"),
        cfgs = cfgs.join(" "),
    );
    let array_path = dir.join("array.sbatch");
    let collect_path = dir.join("collect.sbatch");
    let submit = format!(
        "#!/bin/sh\n\
         # Submit the array, then the collect job once every task has succeeded.\n\
         set -eu\n\
         jid=$(sbatch --parsable {a})\n\
         jid=${{jid%%;*}}\n\
         cid=$(sbatch --parsable --dependency=afterok:$jid {c})\n\
         echo \"array job $jid, collect job ${{cid%%;*}}\"\n",
        a = disp(&array_path),
        c = disp(&collect_path),
    );
    let submit_path = dir.join("submit.sh");
    for (path, text) in [
        (&array_path, &array),
        (&collect_path, &collect),
        (&submit_path, &submit),
    ] {
        crate::results::table::write_atomic(path, text.as_bytes()).map_err(|e| SlurmError::Io {
            path: path.clone(),
            source: std::io::Error::other(e.to_string()),
        })?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755));
        }
    }
    Ok(Scripts {
        dir,
        array: array_path,
        collect: collect_path,
        submit: submit_path,
    })
}

fn sbatch(args: &[&str]) -> Result<String, SlurmError> {
    let out = Command::new("sbatch").args(args).output().map_err(|e| {
        SlurmError::Sbatch(format!(
            "cannot run sbatch ({e}); submit from a SLURM login node, or later with the submit.sh written next to the scripts"
        ))
    })?;
    if !out.status.success() {
        return Err(SlurmError::Sbatch(format!(
            "sbatch {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    // `--parsable` prints `jobid` or `jobid;cluster`.
    let id = text.trim().split(';').next().unwrap_or("").to_string();
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
        return Err(SlurmError::Sbatch(format!(
            "unexpected output {:?} (expected a job id)",
            text.trim()
        )));
    }
    Ok(id)
}

/// Submit the array, then the collect job depending on it; returns both job ids.
pub fn submit(s: &Scripts) -> Result<(String, String), SlurmError> {
    let array = sbatch(&["--parsable", &s.array.display().to_string()])?;
    let dep = format!("--dependency=afterok:{array}");
    let collect = sbatch(&["--parsable", &dep, &s.collect.display().to_string()])?;
    Ok((array, collect))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_name_the_array_the_shard_flag_and_the_dependency() {
        let dir = tempfile::tempdir().unwrap();
        let cfg = dir.path().join("it's.toml");
        std::fs::write(&cfg, "kind = \"treecv\"").unwrap();
        let opts = SlurmOptions {
            tasks: 4,
            partition: Some("short".into()),
            time: Some("01:00:00".into()),
            cpus: Some(2),
            mem: None,
            exclusive: true,
        };
        let s = write_scripts(
            &[cfg],
            &["x".into()],
            &dir.path().join("out"),
            dir.path(),
            Path::new("/usr/bin/cvbench"),
            &opts,
        )
        .unwrap();
        assert!(s.dir.ends_with("out/x/slurm"));
        let a = std::fs::read_to_string(&s.array).unwrap();
        assert!(a.contains("#SBATCH --array=0-3\n"), "{a}");
        assert!(a.contains("#SBATCH --partition=short\n"));
        assert!(a.contains("run --shard slurm"));
        assert!(a.contains("--threads 2"));
        assert!(a.contains("#SBATCH --exclusive\n"));
        assert!(a.contains(r"it'\''s.toml'"), "{a}");
        let c = std::fs::read_to_string(&s.collect).unwrap();
        assert!(c.contains(" collect --out "));
        let sub = std::fs::read_to_string(&s.submit).unwrap();
        assert!(sub.contains("--dependency=afterok:$jid"));
    }

    #[test]
    fn values_with_control_characters_and_too_many_tasks_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let opts = SlurmOptions {
            tasks: 2,
            partition: Some("x\ntouch PWNED".into()),
            ..SlurmOptions::default()
        };
        let e = write_scripts(
            &[],
            &["x".into()],
            dir.path(),
            dir.path(),
            Path::new("/b"),
            &opts,
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("--partition") && e.contains("control character"),
            "{e}"
        );
        assert!(!dir.path().join("x/slurm/array.sbatch").exists());
        let opts = SlurmOptions {
            tasks: 2,
            time: Some("1:00 --wrap=x".into()),
            ..SlurmOptions::default()
        };
        assert!(opts
            .check(5)
            .unwrap_err()
            .to_string()
            .contains("white space"));
        let opts = SlurmOptions {
            tasks: 100_000_000,
            ..SlurmOptions::default()
        };
        let e = opts.check(12).unwrap_err().to_string();
        assert!(e.contains("--tasks") && e.contains("1..=12"), "{e}");
        let bad_path = dir.path().join("a\nb");
        let opts = SlurmOptions {
            tasks: 1,
            ..SlurmOptions::default()
        };
        let e = write_scripts(
            &[],
            &["x".into()],
            dir.path(),
            &bad_path,
            Path::new("/b"),
            &opts,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("the data folder"), "{e}");
    }
}
