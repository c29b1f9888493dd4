//! Tests of the dataset registry: formats, the builtin entries and their
//! pins, locating, loading and verifying files.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::*;

#[test]
fn format_names_are_the_config_names_and_labels_rules_hold() {
    for f in Format::ALL {
        let parsed: Format = toml::from_str::<toml::Table>(&format!("f = \"{}\"", f.name()))
            .unwrap()["f"]
            .clone()
            .try_into()
            .unwrap();
        assert_eq!(parsed, f);
        assert!(Format::names().contains(f.name()));
    }
    assert!(Format::Idx.check_labels(false).is_err());
    assert!(Format::Libsvm.check_labels(true).is_err());
    assert!(Format::Madelon.check_labels(false).is_ok());
    let e = Format::Idx
        .read_files(Path::new("x"), None, None)
        .unwrap_err()
        .to_string();
    assert!(e.contains("needs `labels"), "{e}");
}

#[test]
fn builtin_registry_parses_and_has_required_entries() {
    let reg = Registry::from_toml(REGISTRY_TOML).unwrap();
    for name in [
        "a9a",
        "a9a.t",
        "w8a",
        "heart_scale",
        "heart",
        "madelon",
        "madelon.t",
        "mnist",
        "mnist.t",
        "mnist-even-odd",
        "covtype-binary",
        "yearpredictionmsd",
        "breast-cancer",
        "breast-cancer_scale",
        "housing_scale",
        "cadata",
        "cadata_scale",
        "abalone_scale",
    ] {
        let e = reg.get(name).unwrap();
        assert!(!e.files.is_empty(), "{name}");
    }
    for name in ["cadata", "cadata_scale", "abalone_scale", "housing_scale"] {
        assert!(reg.get(name).unwrap().is_regression(), "{name}");
    }
    assert!(!reg.get("a9a").unwrap().is_regression());
    let m = reg.get("mnist-even-odd").unwrap();
    assert_eq!(m.format, Format::Idx);
    assert_eq!(m.files.len(), 2);
    assert_eq!(m.transforms[0], Transform::EvenOdd);
    // Every checksum in the registry is either a shared-data pin or a
    // documented public pin; unpinned files say so.
    assert!(!reg.get("heart").unwrap().files[0].is_pinned());
    assert!(reg.get("covtype").unwrap().files[0]
        .download_sha256
        .is_some());
}

#[test]
fn builtin_pins_match_shared_sha256sums() {
    // The shared SHA256SUMS.uncompressed, as of writing; kept here so the
    // test runs without the shared directory.
    let sums = "\
f5d5ffd8d865ff41328e7ee043e4b020816914ff6843ff15b98905ddbedce906  a9a
1f448a153f0320399a7e40836eb207655b0bde0f21fc941cc472193daa9f5de9  a9a.t
445505b580a88e9e19b533b4f126d3dda1883bc7551e46907041ca263aa3c5d9  breast-cancer
8fe6bce62147e0715a192378d29acf839b4a8a71d75ae4c88245a3526c20a6e4  breast-cancer_scale
5defa0a4c4c5bdaf3f55ae3828310252e8565c13ee37ce279e0b86d82e7f4ce9  heart_scale
bbacd2f526a038499717d5dc4b8895e6baf1e2351895b9360a84bcb31e104476  housing_scale
2440f32d9866bc30f03e46723b5bfdeeb44124e0fdd162ab5f16071f125e9d2c  cadata
dd745ad90d2084d4d9fe78346f349c52c8a06506564504de0873c9773c28fa84  cadata_scale
7761ded48254ee3e7fe981fe591158ba9585661b946efa3bafd6a74a9ff4b4b3  abalone_scale
ae60251b63a46c6ace348b77749e79e25d4098d629d1dead2852c3d4daf1f8ea  madelon.t
0b6e37711efdc7ab74250c51e7d6966bffd9f8f2b0e9971e882c3a7a380c2314  madelon_train.data
10bffcc3b017467cb810d326b931951adcbde2b4870faf981da2991993b48689  madelon_train.labels
cb9a46475147de1a58d9f15ef4c318e5b85de344e0f9ab92626fa446aa815dc9  madelon_valid.data
fbac32fa87fac41ab731994a1c824e7b25396069bff6df242c01fe240fcb34dc  madelon_valid.labels
0fa7898d509279e482958e8ce81c8e77db3f2f8254e26661ceb7762c4d494ce7  t10k-images-idx3-ubyte
ff7bcfd416de33731a308c3f266cc351222c34898ecbeaf847f06e48f7ec33f2  t10k-labels-idx1-ubyte
ba891046e6505d7aadcbbe25680a0738ad16aec93bde7f9b65e87a2fc25776db  train-images-idx3-ubyte
65a50cbbf4e906d70832878ad85ccda5333a97f0f4c3dd2ef09a8a9eef7101c5  train-labels-idx1-ubyte
b464b4f6ce6a5d9e181ffc793e19a04751036273722312398ef7673705014902  w8a
d3df2ea9000d4e25adac705a4444690dca8feb18e3a9a7444836f374e15e3b15  svmguide1
bf6175a6ee3804597d2b63ea72619614dadae8f0d4ee452783d9f5cbfb0f25d7  svmguide1.t
bfe04715056855e54186d73f20900011d1f1be95e220f434d9314b6262e849fd  svmguide3
8b9d951201fcb7c6f07d2fd435b91245f9135a35db28716b3e56581f8b8591ac  svmguide3.t
03d39477c5e48415e9cd18e006efc8f7a3b5c3deaee8289a72511c35070e3cfe  dna.scale
d2eeed170e4e38ae2aba6aa4cd27a8ca4ecceb01a7751e8e509bb4e1a6bcef39  dna.scale.t
7c847cf67bc3dceda40890c37044cc569b2603c2ca4508e01faeaa0d521e52e5  glass.scale
ce2c7df15cc5742dc4382d59079181c97c21e0beaa0af53c84cc5745c69f1020  letter.scale
07522ccbf54187fae6d560d1712b88c41ea1f7e8d19491c5adcc22ee37a075da  letter.scale.t
f3823d204ed5a3e9088267b4e141aac32503b8f2eb18c3469ad1212235db5ee6  pendigits
8a5f65e742447d6b6d77d4e0cf70714f75d2801966ebfe492d7ffaf24acd9d9f  pendigits.t
b7150252d3117712588d9d5dfeb1a409234340313a93b458f66449a2678d5542  satimage.scale
da3fb85baadd087beb9e8b32931224c443e26dc3305c09396170ab8997aedf92  satimage.scale.t
7c25c4529b8c84d047bc546e1e1f9a3f671c36d77f5469fb845b6e4a15bdd629  segment.scale
89ecbd4590cabc23b001cbd2d90128efe3c8ad02540ce1a08ef367b98d765585  vowel.scale";
    let pins: BTreeMap<&str, &str> = sums
        .lines()
        .map(|l| {
            let (h, n) = l.split_once("  ").unwrap();
            (n, h)
        })
        .collect();
    for e in Registry::builtin().entries() {
        for f in &e.files {
            if let Some(h) = &f.sha256 {
                assert_eq!(pins.get(f.name.as_str()), Some(&h.as_str()), "{}", f.name);
            }
        }
    }
}

#[test]
fn unknown_name_lists_known_ones() {
    let e = Registry::builtin().get("a9b").unwrap_err().to_string();
    assert!(
        e.contains("a9b") && e.contains("a9a") && e.contains("w8a"),
        "{e}"
    );
}

#[test]
fn bad_registries_are_rejected() {
    let bad_format = r#"
[[dataset]]
name = "x"
description = "d"
citation = "c"
task = "binary"
format = "arff"
n_features = 1
[[dataset.files]]
name = "x"
urls = ["http://127.0.0.1/x"]
compression = "none"
"#;
    let e = Registry::from_toml(bad_format).unwrap_err().to_string();
    assert!(e.contains("libsvm"), "{e}");
    let bad_hash = bad_format.replace("arff", "libsvm").replace(
        "compression = \"none\"",
        "compression = \"none\"\nsha256 = \"abc\"",
    );
    let e = Registry::from_toml(&bad_hash).unwrap_err().to_string();
    assert!(e.contains("64 lower-case hex"), "{e}");
}

#[test]
fn missing_dataset_is_one_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let dd = DataDir::new(dir.path());
    let e = load("covtype-binary", &dd).unwrap_err();
    let msg = e.to_string();
    assert!(matches!(e, DataError::Missing { .. }));
    for needle in [
        "covtype-binary",
        "covtype.data.gz",
        "covtype.data.xz",
        "cvbench fetch covtype-binary",
        "make fetch",
        "https://archive.ics.uci.edu/ml/machine-learning-databases/covtype/covtype.data.gz",
        "CVBENCH_DATA_DIR",
        "covtype-like",
    ] {
        assert!(msg.contains(needle), "missing `{needle}` in:\n{msg}");
    }
}

#[test]
fn finds_compressed_files_loads_and_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let dd = DataDir::new(dir.path());
    // heart_scale-shaped test file under a test registry, stored as .gz.
    let text = b"+1 1:0.5 13:1\n-1 2:1\n";
    let f = std::fs::File::create(dir.path().join("tiny.gz")).unwrap();
    let mut w = flate2::write::GzEncoder::new(f, flate2::Compression::default());
    std::io::Write::write_all(&mut w, text).unwrap();
    w.finish().unwrap();
    let hash = compress::sha256_reader(&text[..]).unwrap();
    let reg = Registry::from_toml(&format!(
        r#"
[[dataset]]
name = "tiny"
description = "d"
citation = "c"
task = "binary"
format = "libsvm"
n_features = 13
transforms = [{{ one_vs_rest = {{ positive = -1 }} }}]
[[dataset.files]]
name = "tiny"
urls = ["http://127.0.0.1:9/tiny"]
compression = "none"
sha256 = "{hash}"
[[dataset]]
name = "tiny-wrong"
description = "d"
citation = "c"
task = "binary"
format = "libsvm"
n_features = 13
[[dataset.files]]
name = "tiny"
urls = ["http://127.0.0.1:9/tiny"]
compression = "none"
sha256 = "{}"
"#,
        "0".repeat(64)
    ))
    .unwrap();
    let e = reg.get("tiny").unwrap();
    let ds = e.load(&dd).unwrap();
    assert_eq!((ds.name.as_str(), ds.n(), ds.d()), ("tiny", 2, 13));
    assert_eq!(ds.y, vec![-1.0, 1.0]);
    let v = e.verify(&dd).unwrap();
    assert!(matches!(v[0].1, Verification::Verified { .. }));
    let err = reg.get("tiny-wrong").unwrap().verify(&dd).unwrap_err();
    assert!(err.to_string().contains("sha256 mismatch"), "{err}");
    let st = status_of(&reg, &dd);
    assert!(st.iter().all(|s| s.available()));
    let st = status(&dd);
    let a9a = st.iter().find(|s| s.name == "a9a").unwrap();
    assert!(!a9a.available());
    assert!(a9a.to_string().contains("cvbench fetch a9a"), "{a9a}");
}

#[test]
fn data_dir_resolution_prefers_flag() {
    let d = DataDir::resolve(Some(PathBuf::from("/x")));
    assert_eq!(
        (d.path(), d.source()),
        (Path::new("/x"), DataDirSource::Flag)
    );
    let c = d.candidates("a9a");
    assert_eq!(c[0], Path::new("/x/a9a"));
    assert_eq!(c[1], Path::new("/x/a9a.xz"));
}
