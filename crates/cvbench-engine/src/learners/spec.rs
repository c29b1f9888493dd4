//! One learner spec for every experiment kind: the `[[learners]]` entry of a
//! treecv config and the `learner = {...}` / `learners = [...]` entries of a
//! progressive config are the same TOML table, parsed into [`LearnerSpec`]
//! and checked once by [`LearnerSpec::check`] into a built [`AnyLearner`].
//!
//! The spec knows nothing of config files: [`LearnerSpec::check`] returns a
//! [`LearnerError`], and the experiment kind turns it into an error that
//! names the config file's line and column.

use super::{IncrementalLearner, LearnerError, Lsqsgd, Pegasos, Ridge};
use serde::Deserialize;

/// The learner types a spec can name (`type = "..."`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LearnerType {
    /// PEGASOS linear SVM (misclassification loss).
    Pegasos,
    /// LSQSGD averaged SGD for least squares (squared loss).
    Lsqsgd,
    /// Exact ridge regression from sufficient statistics (squared loss).
    Ridge,
}

impl LearnerType {
    /// Every learner type, in the order help texts list them.
    pub const ALL: &'static [LearnerType] = &[
        LearnerType::Pegasos,
        LearnerType::Lsqsgd,
        LearnerType::Ridge,
    ];

    /// The type as written in configs (`pegasos`, `lsqsgd`, `ridge`).
    pub fn as_str(self) -> &'static str {
        match self {
            LearnerType::Pegasos => "pegasos",
            LearnerType::Lsqsgd => "lsqsgd",
            LearnerType::Ridge => "ridge",
        }
    }

    /// The hyper-parameter keys of a spec of this type (the optional keys
    /// of [`LearnerSpec`] that [`LearnerSpec::check`] accepts for it).
    pub fn keys(self) -> &'static [&'static str] {
        match self {
            LearnerType::Pegasos => &["lambda", "project"],
            LearnerType::Lsqsgd => &["step", "radius"],
            LearnerType::Ridge => &["lambda"],
        }
    }

    /// The loss the learner is evaluated with: `misclassification` (PEGASOS)
    /// or `squared_error` (LSQSGD, ridge).
    pub fn loss_name(self) -> &'static str {
        match self {
            LearnerType::Pegasos => "misclassification",
            LearnerType::Lsqsgd | LearnerType::Ridge => "squared_error",
        }
    }

    /// Whether the learner needs labels in {-1, +1} (a classifier).
    pub fn requires_binary_labels(self) -> bool {
        self == LearnerType::Pegasos
    }

    /// The learner types that take hyper-parameter `key`, joined by ` and `
    /// (empty when none does).
    fn taking(key: &str) -> String {
        let names: Vec<&str> = LearnerType::ALL
            .iter()
            .filter(|t| t.keys().contains(&key))
            .map(|t| t.as_str())
            .collect();
        names.join(" and ")
    }
}

/// A learner as a config writes it. Unknown keys are rejected when parsing;
/// keys that do not apply to the type are rejected by [`check`](Self::check).
///
/// The field order and names are part of treecv's cell identity (its
/// `Debug` text, with `on` cleared, is hashed into each cell's spec), so they
/// must not change.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LearnerSpec {
    /// Which learner.
    #[serde(rename = "type")]
    pub kind: LearnerType,
    /// PEGASOS and ridge: regularisation (PEGASOS default 1e-6, ridge default 1).
    pub lambda: Option<f64>,
    /// PEGASOS: project onto the 1/sqrt(lambda) ball (default false).
    pub project: Option<bool>,
    /// LSQSGD: constant step (default n^-1/2).
    pub step: Option<f64>,
    /// LSQSGD: radius of the l2 ball (default 1).
    pub radius: Option<f64>,
    /// treecv only: run this learner only on these datasets (names as
    /// `cvbench validate` prints them); default: every dataset. [`check`]
    /// ignores it; kinds without datasets to choose from reject it.
    ///
    /// [`check`]: Self::check
    pub on: Option<Vec<String>>,
}

impl LearnerSpec {
    /// A spec of type `kind` with every optional key unset (the defaults).
    pub fn of_type(kind: LearnerType) -> LearnerSpec {
        LearnerSpec {
            kind,
            lambda: None,
            project: None,
            step: None,
            radius: None,
            on: None,
        }
    }

    /// Check the spec and build the learner: every key given must apply to
    /// the type, and the learner's constructor must accept the values
    /// (`lambda`, `step` and `radius` finite and > 0). The `on` key is not
    /// looked at (see [`LearnerSpec::on`]).
    pub fn check(&self) -> Result<AnyLearner, LearnerError> {
        for (key, given) in self.given() {
            if given && !self.kind.keys().contains(&key) {
                return Err(LearnerError::NotApplicable {
                    key,
                    learner: self.kind.as_str(),
                    applies_to: LearnerType::taking(key),
                });
            }
        }
        Ok(match self.kind {
            LearnerType::Pegasos => AnyLearner::Pegasos(Pegasos::new(
                self.lambda.unwrap_or(Pegasos::DEFAULT_LAMBDA),
                self.project.unwrap_or(false),
            )?),
            LearnerType::Lsqsgd => AnyLearner::Lsqsgd(Lsqsgd::new(self.step, self.radius)?),
            LearnerType::Ridge => {
                AnyLearner::Ridge(Ridge::new(self.lambda.unwrap_or(Ridge::DEFAULT_LAMBDA))?)
            }
        })
    }

    /// Each hyper-parameter key and whether the spec gives it, in the order
    /// [`check`](Self::check) reports keys that do not apply.
    fn given(&self) -> [(&'static str, bool); 4] {
        [
            ("lambda", self.lambda.is_some()),
            ("step", self.step.is_some()),
            ("radius", self.radius.is_some()),
            ("project", self.project.is_some()),
        ]
    }
}

/// A built, validated learner of any type: what [`LearnerSpec::check`]
/// returns. Match on it to run the concrete learner.
#[derive(Clone, Debug, PartialEq)]
pub enum AnyLearner {
    /// PEGASOS.
    Pegasos(Pegasos),
    /// LSQSGD.
    Lsqsgd(Lsqsgd),
    /// Ridge regression.
    Ridge(Ridge),
}

impl AnyLearner {
    /// The learner's name with its hyper-parameters, e.g.
    /// `pegasos(lambda=1e-6)` (see [`IncrementalLearner::name`]).
    pub fn name(&self) -> String {
        match self {
            AnyLearner::Pegasos(l) => l.name(),
            AnyLearner::Lsqsgd(l) => l.name(),
            AnyLearner::Ridge(l) => l.name(),
        }
    }

    /// The learner's type without parameters: `pegasos`, `lsqsgd` or `ridge`.
    pub fn short(&self) -> &'static str {
        self.learner_type().as_str()
    }

    /// The learner's type.
    pub fn learner_type(&self) -> LearnerType {
        match self {
            AnyLearner::Pegasos(_) => LearnerType::Pegasos,
            AnyLearner::Lsqsgd(_) => LearnerType::Lsqsgd,
            AnyLearner::Ridge(_) => LearnerType::Ridge,
        }
    }

    /// The loss the learner is evaluated with: `misclassification` (PEGASOS)
    /// or `squared_error` (LSQSGD, ridge).
    pub fn loss_name(&self) -> &'static str {
        self.learner_type().loss_name()
    }

    /// Check that data with `d` features fits the learner's model before any
    /// is allocated (ridge keeps a `d × d` matrix; the others a vector).
    pub fn check_features(&self, d: usize) -> Result<(), LearnerError> {
        match self {
            AnyLearner::Ridge(l) => l.check_features(d),
            AnyLearner::Pegasos(_) | AnyLearner::Lsqsgd(_) => Ok(()),
        }
    }

    /// Whether the learner needs labels in {-1, +1} (a classifier).
    pub fn requires_binary_labels(&self) -> bool {
        self.learner_type().requires_binary_labels()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> LearnerSpec {
        toml::from_str(text).unwrap()
    }

    #[test]
    fn defaults_and_names() {
        let l = spec("type = \"pegasos\"").check().unwrap();
        assert_eq!(l, AnyLearner::Pegasos(Pegasos::default()));
        assert_eq!(l.name(), "pegasos(lambda=1e-6)");
        assert_eq!(
            spec("type = \"lsqsgd\"").check().unwrap().name(),
            "lsqsgd(alpha=n^-1/2)"
        );
        assert_eq!(
            spec("type = \"ridge\"").check().unwrap().name(),
            "ridge(lambda=1e0)"
        );
    }

    #[test]
    fn the_registry_names_and_keys_are_the_specs() {
        for t in LearnerType::ALL {
            assert_eq!(spec(&format!("type = \"{}\"", t.as_str())).kind, *t);
            for key in ["lambda", "step", "radius", "project"] {
                let value = if key == "project" { "true" } else { "0.5" };
                let s = spec(&format!("type = \"{}\"\n{key} = {value}", t.as_str()));
                assert_eq!(s.check().is_ok(), t.keys().contains(&key), "{t:?} {key}");
            }
        }
        assert_eq!(LearnerType::taking("lambda"), "pegasos and ridge");
    }

    #[test]
    fn rejects_bad_values_and_keys() {
        for (text, key) in [
            ("type = \"pegasos\"\nlambda = 0.0", "lambda"),
            ("type = \"pegasos\"\nlambda = nan", "lambda"),
            ("type = \"ridge\"\nlambda = -1.0", "lambda"),
            ("type = \"lsqsgd\"\nstep = inf", "step"),
            ("type = \"lsqsgd\"\nradius = 0.0", "radius"),
            ("type = \"lsqsgd\"\nlambda = 1.0", "lambda"),
            ("type = \"pegasos\"\nstep = 1.0", "step"),
            ("type = \"ridge\"\nproject = true", "project"),
        ] {
            let e = spec(text).check().unwrap_err();
            assert!(e.to_string().contains(&format!("`{key}`")), "{text}: {e}");
        }
        assert!(toml::from_str::<LearnerSpec>("type = \"pegasos\"\nfoo = 1").is_err());
    }
}
