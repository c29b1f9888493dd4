//! The formats SLURM accepts for `cvbench slurm`'s `#SBATCH` options, checked
//! before any script is written: a value sbatch would refuse (or read
//! otherwise, such as `--mem=-5`) is an error naming the option and the
//! format, not a script that fails at submission or on the cluster.

/// Why a value is refused, and what to give instead.
#[derive(Debug, PartialEq, Eq)]
pub struct Refused {
    /// What is wrong with the value.
    pub problem: String,
    /// The format to use.
    pub fix: String,
}

/// A check of one option's format.
pub type Format = fn(&str) -> Result<(), Refused>;

fn refused(problem: &str, fix: &str) -> Refused {
    Refused {
        problem: problem.to_string(),
        fix: fix.to_string(),
    }
}

/// The most CPUs per task `--cpus` may ask for (no node has more).
pub const MAX_CPUS: usize = 4096;

const MEM_FIX: &str = "give a whole number of megabytes, or one with a unit K, M, G or T, e.g. --mem 8G or --mem 16000 (0: all of the node's memory)";

const TIME_FIX: &str = "give minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS (e.g. --time 04:00:00 or --time 2-00:00:00), or UNLIMITED";

const PARTITION_FIX: &str = "give the partition's name (letters, digits, `-`, `_`, `.`; several separated by commas), as `sinfo` lists them";

fn digits(s: &str) -> Option<u64> {
    (!s.is_empty() && s.len() <= 12 && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// `--mem`: a whole number with an optional unit `K`, `M`, `G` or `T`
/// (either case; megabytes without one).
pub fn mem(v: &str) -> Result<(), Refused> {
    let number = v
        .strip_suffix(['K', 'M', 'G', 'T', 'k', 'm', 'g', 't'])
        .unwrap_or(v);
    match digits(number) {
        Some(_) => Ok(()),
        None => Err(refused(
            "is not a memory size SLURM accepts (a whole number of megabytes, or with a unit K, M, G or T)",
            MEM_FIX,
        )),
    }
}

/// `--time`: `M`, `M:S`, `H:M:S`, `D-H`, `D-H:M`, `D-H:M:S` (whole numbers;
/// minutes and seconds after the first field below 60, hours after days
/// below 24), or `UNLIMITED` / `INFINITE`.
pub fn time(v: &str) -> Result<(), Refused> {
    if ["unlimited", "infinite"].contains(&v.to_ascii_lowercase().as_str()) {
        return Ok(());
    }
    let bad = || refused("is not a time limit SLURM accepts", TIME_FIX);
    let (days, rest) = match v.split_once('-') {
        Some((d, r)) => (Some(d), r),
        None => (None, v),
    };
    if days.is_some_and(|d| digits(d).is_none()) {
        return Err(bad());
    }
    let fields: Vec<Option<u64>> = rest.split(':').map(digits).collect();
    if fields.iter().any(Option::is_none) {
        return Err(bad());
    }
    let f: Vec<u64> = fields.into_iter().flatten().collect();
    // Which fields must be below 60 (or 24): all but a leading minutes or
    // hours field without days.
    let ok = match (days.is_some(), f.as_slice()) {
        (false, [_m]) => true,
        (false, [_m, s]) => *s < 60,
        (false, [_h, m, s]) => *m < 60 && *s < 60,
        (true, [h]) => *h < 24,
        (true, [h, m]) => *h < 24 && *m < 60,
        (true, [h, m, s]) => *h < 24 && *m < 60 && *s < 60,
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(bad())
    }
}

/// `--partition`: one or more names separated by commas, each of letters,
/// digits, `-`, `_` and `.` (not starting with `-`).
pub fn partition(v: &str) -> Result<(), Refused> {
    let name_ok = |n: &str| {
        !n.is_empty()
            && !n.starts_with('-')
            && n.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
    };
    if v.split(',').all(name_ok) {
        Ok(())
    } else {
        Err(refused(
            "is not a partition name SLURM accepts",
            PARTITION_FIX,
        ))
    }
}

/// `--cpus`: 1 to [`MAX_CPUS`].
pub fn cpus(v: usize) -> Result<(), Refused> {
    if (1..=MAX_CPUS).contains(&v) {
        Ok(())
    } else {
        Err(Refused {
            problem: format!("is not in 1..={MAX_CPUS}"),
            fix: "give the CPUs per task, e.g. --cpus 8 (each task's shard runs on that many threads)".into(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slurm_formats_are_accepted_and_others_refused() {
        for ok in ["8G", "16000", "0", "512m", "1T"] {
            assert!(mem(ok).is_ok(), "{ok}");
        }
        for bad in ["-5", "8GB", "G", "", "1.5G", "8 G", "99999999999999999G"] {
            assert!(mem(bad).is_err(), "{bad}");
        }
        for ok in [
            "60",
            "90:30",
            "04:00:00",
            "2-00",
            "2-12:30",
            "1-00:00:00",
            "UNLIMITED",
            "infinite",
            "0",
        ] {
            assert!(time(ok).is_ok(), "{ok}");
        }
        for bad in [
            "-5", "1:60", "1:00:60", "1-24", "a", "", "1::0", "1-2-3", "1:2:3:4", "2h",
        ] {
            assert!(time(bad).is_err(), "{bad}");
        }
        for ok in ["short", "gpu-a100", "a,b", "x_1.2"] {
            assert!(partition(ok).is_ok(), "{ok}");
        }
        for bad in ["", "a,,b", "a;b", "x$y", "-x"] {
            assert!(partition(bad).is_err(), "{bad}");
        }
        assert!(cpus(0).is_err() && cpus(MAX_CPUS + 1).is_err() && cpus(8).is_ok());
    }
}
