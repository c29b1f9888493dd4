//! The shared learner spec (issue 8): one `LearnerSpec` for treecv and
//! progressive configs, checked once into a built learner. These tests fail
//! if the checks weaken (invalid values or keys accepted, ridge let into
//! progressive) or if a learner's name — part of every record and cell key —
//! changes.

use cvbench::config::ConfigFile;
use cvbench::experiments::Context;
use cvbench_engine::api::data::DataDir;
use cvbench_engine::api::errors::LearnerError;
use cvbench_engine::api::learners::{AnyLearner, LearnerSpec, LearnerType, Lsqsgd, Pegasos, Ridge};

fn spec(text: &str) -> LearnerSpec {
    toml::from_str(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Plan a config (no data directory needed: the configs here use synthetic
/// data or fail before loading any); the error text, or "" if it plans.
fn plan_error(text: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let cfg = ConfigFile::from_text("c.toml", text);
    let ctx = Context::new(DataDir::new(dir.path()));
    match cvbench::runner::validate(&cfg, &ctx) {
        Ok(_) => String::new(),
        Err(e) => e.to_string(),
    }
}

#[test]
fn names_are_todays() {
    for (text, name, short, loss) in [
        (
            "type = \"pegasos\"",
            "pegasos(lambda=1e-6)",
            "pegasos",
            "misclassification",
        ),
        (
            "type = \"pegasos\"\nlambda = 1e-4",
            "pegasos(lambda=1e-4)",
            "pegasos",
            "misclassification",
        ),
        (
            "type = \"pegasos\"\nlambda = 1e-3\nproject = true",
            "pegasos(lambda=1e-3,project)",
            "pegasos",
            "misclassification",
        ),
        (
            "type = \"lsqsgd\"",
            "lsqsgd(alpha=n^-1/2)",
            "lsqsgd",
            "squared_error",
        ),
        (
            "type = \"lsqsgd\"\nstep = 0.05\nradius = 2.0",
            "lsqsgd(alpha=5e-2,radius=2e0)",
            "lsqsgd",
            "squared_error",
        ),
        (
            "type = \"ridge\"",
            "ridge(lambda=1e0)",
            "ridge",
            "squared_error",
        ),
        (
            "type = \"ridge\"\nlambda = 0.5",
            "ridge(lambda=5e-1)",
            "ridge",
            "squared_error",
        ),
    ] {
        let l = spec(text).check().unwrap();
        assert_eq!(l.name(), name, "{text}");
        assert_eq!(l.short(), short, "{text}");
        assert_eq!(l.loss_name(), loss, "{text}");
    }
}

#[test]
fn check_builds_the_learner_with_todays_defaults() {
    assert_eq!(
        spec("type = \"pegasos\"").check().unwrap(),
        AnyLearner::Pegasos(Pegasos {
            lambda: 1e-6,
            project: false
        })
    );
    assert_eq!(
        spec("type = \"lsqsgd\"").check().unwrap(),
        AnyLearner::Lsqsgd(Lsqsgd {
            step: None,
            radius: None
        })
    );
    assert_eq!(
        spec("type = \"ridge\"").check().unwrap(),
        AnyLearner::Ridge(Ridge { lambda: 1.0 })
    );
    assert_eq!(
        spec("type = \"pegasos\"\nlambda = 0.25\nproject = true")
            .check()
            .unwrap(),
        AnyLearner::Pegasos(Pegasos {
            lambda: 0.25,
            project: true
        })
    );
    // `on` is treecv's business: the check ignores it.
    let mut s = LearnerSpec::of_type(LearnerType::Lsqsgd);
    s.on = Some(vec!["a".into()]);
    assert!(s.check().is_ok());
}

#[test]
fn invalid_values_are_rejected_naming_the_key() {
    for (text, key) in [
        ("type = \"pegasos\"\nlambda = 0.0", "lambda"),
        ("type = \"pegasos\"\nlambda = -1e-6", "lambda"),
        ("type = \"pegasos\"\nlambda = nan", "lambda"),
        ("type = \"pegasos\"\nlambda = inf", "lambda"),
        ("type = \"ridge\"\nlambda = 0.0", "lambda"),
        ("type = \"lsqsgd\"\nstep = 0.0", "step"),
        ("type = \"lsqsgd\"\nstep = -0.1", "step"),
        ("type = \"lsqsgd\"\nstep = inf", "step"),
        ("type = \"lsqsgd\"\nradius = 0.0", "radius"),
        ("type = \"lsqsgd\"\nradius = nan", "radius"),
    ] {
        let e = spec(text).check().unwrap_err();
        assert!(
            matches!(e, LearnerError::NotPositive { key: k, .. } if k == key),
            "{text}: {e:?}"
        );
        assert!(e.to_string().contains(&format!("`{key}`")), "{text}: {e}");
    }
    // The constructors check by themselves.
    assert!(Pegasos::new(0.0, false).is_err());
    assert!(Pegasos::new(f64::NAN, true).is_err());
    assert!(Pegasos::new(1e-6, false).is_ok());
    assert!(Lsqsgd::new(Some(-1.0), None).is_err());
    assert!(Lsqsgd::new(None, Some(f64::INFINITY)).is_err());
    assert!(Lsqsgd::new(None, None).is_ok());
    assert!(Ridge::new(-0.5).is_err());
    assert!(Ridge::new(0.5).is_ok());
}

#[test]
fn keys_that_do_not_apply_are_rejected() {
    for (text, key) in [
        ("type = \"pegasos\"\nstep = 0.1", "step"),
        ("type = \"pegasos\"\nradius = 1.0", "radius"),
        ("type = \"lsqsgd\"\nlambda = 1e-3", "lambda"),
        ("type = \"lsqsgd\"\nproject = true", "project"),
        ("type = \"ridge\"\nstep = 0.1", "step"),
        ("type = \"ridge\"\nradius = 1.0", "radius"),
        ("type = \"ridge\"\nproject = false", "project"),
    ] {
        let e = spec(text).check().unwrap_err();
        assert!(
            matches!(e, LearnerError::NotApplicable { key: k, .. } if k == key),
            "{text}: {e:?}"
        );
        assert!(e.to_string().contains(&format!("`{key}`")), "{text}: {e}");
    }
    // Unknown keys and types do not parse.
    assert!(toml::from_str::<LearnerSpec>("type = \"pegasos\"\nlambda_ = 1.0").is_err());
    assert!(toml::from_str::<LearnerSpec>("type = \"svm\"").is_err());
}

const TREECV: &str = r#"kind = "treecv"
name = "t"
seed = 1
repetitions = 1

[[datasets]]
synthetic = { generator = "linear-regression", n = 40, d = 3 }
label = "a"

[[learners]]
LEARNER

[[grid]]
methods = ["standard"]
orders = ["fixed"]
k = [2]
"#;

#[test]
fn treecv_errors_name_the_learner_line_and_key() {
    assert_eq!(
        plan_error(&TREECV.replace("LEARNER", "type = \"ridge\"")),
        ""
    );
    for (learner, key) in [
        ("type = \"lsqsgd\"\nstep = -1.0", "`step`"),
        ("type = \"ridge\"\nlambda = 0.0", "`lambda`"),
        ("type = \"ridge\"\nradius = 2.0", "`radius`"),
        ("type = \"lsqsgd\"\nlambda = 1.0", "`lambda`"),
    ] {
        let e = plan_error(&TREECV.replace("LEARNER", learner));
        // The [[learners]] table starts at line 10, column 1.
        assert!(e.starts_with("c.toml:10:1: "), "{learner}: {e}");
        assert!(e.contains(key), "{learner}: {e}");
    }
}

const PROGRESSIVE: &str = r#"kind = "progressive"
name = "p"
seed = 1

[[theorems]]
population = { train = "heart_scale", test_fraction = 0.3, learner = LEARNER }
repetitions = 2
kfold = [{ n = 12, k = 3 }]
"#;

const STREAM: &str = r#"kind = "progressive"
name = "p"
seed = 1

[[stream]]
train = "heart_scale"
test_fraction = 0.3
learners = [{ type = "pegasos" }, LEARNER]
"#;

#[test]
fn progressive_refuses_ridge_and_on_with_line_and_column() {
    let col = |text: &str| text.lines().nth(5).unwrap().find("LEARNER").unwrap() + 1;
    for (learner, says) in [
        ("{ type = \"ridge\" }", "ridge cannot be used"),
        ("{ type = \"ridge\", lambda = 2.0 }", "ridge cannot be used"),
        (
            "{ type = \"pegasos\", on = [\"a\"] }",
            "`on` applies to treecv",
        ),
        ("{ type = \"lsqsgd\", step = 0.0 }", "`step`"),
        ("{ type = \"lsqsgd\", lambda = 1e-3 }", "`lambda`"),
        ("{ type = \"pegasos\", radius = 1.0 }", "`radius`"),
    ] {
        let e = plan_error(&PROGRESSIVE.replace("LEARNER", learner));
        let at = format!("c.toml:6:{}: ", col(PROGRESSIVE));
        assert!(e.starts_with(&at), "{learner}: expected {at}: {e}");
        assert!(e.contains(says), "{learner}: {e}");
        let stream = STREAM.replace("LEARNER", learner);
        let e = plan_error(&stream);
        let at = format!(
            "c.toml:8:{}: ",
            STREAM.lines().nth(7).unwrap().find("LEARNER").unwrap() + 1
        );
        assert!(e.starts_with(&at), "{learner}: expected {at}: {e}");
        assert!(e.contains(says), "{learner}: {e}");
    }
    // An unknown type is a parse error at the value.
    let e = plan_error(&PROGRESSIVE.replace("LEARNER", "{ type = \"svm\" }"));
    assert!(e.starts_with("c.toml:6:"), "{e}");
    assert!(e.contains("unknown variant"), "{e}");
}
