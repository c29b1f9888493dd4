//! The dataset readers (LibSVM, IDX, UCI text) on arbitrary bytes and on
//! mutations of small valid files.

use super::{bounded, cases, input, report, runner, NUMBER_TOKENS, SERIAL};
use cvbench_engine::api::data::{
    read_dense_text_from, read_idx_images_from, read_idx_labels_from, read_libsvm_from,
    LabelColumn, Separator,
};
use proptest::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

#[test]
fn fuzz_libsvm_reader() {
    let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let seeds: Vec<Vec<u8>> = vec![
        b"+1 1:0.5 3:-2\n-1 2:1e-3 7:0\n".to_vec(),
        b"1 qid:3 4:1 # tail\n\n# comment\n-1 1:1\r\n".to_vec(),
        b"0.25 1:1 2:2 3:3 4:4 5:5 6:6 7:7 8:8 9:9 10:10\n".to_vec(),
        b"-1 123:1\n+1 1:1 2:1\n".to_vec(),
    ];
    let count = AtomicUsize::new(0);
    runner(cases(3000))
        .run(
            &(input(seeds, NUMBER_TOKENS), prop::option::of(0usize..300)),
            |(bytes, min)| {
                count.fetch_add(1, Ordering::Relaxed);
                let r = bounded(bytes.len(), 48, || {
                    read_libsvm_from(&bytes[..], Path::new("fuzz.svm"), min)
                })?;
                if let Ok(ds) = r {
                    // Whatever parses is a consistent dataset of bounded width.
                    prop_assert!(ds.d() <= cvbench_engine::api::files::MAX_FEATURES);
                    for i in 0..ds.n() {
                        let _ = ds.row(i).norm_sq();
                    }
                }
                Ok(())
            },
        )
        .unwrap();
    report("libsvm", &count);
}

fn idx_file(magic: u32, dims: &[u32], body: &[u8]) -> Vec<u8> {
    let mut v = magic.to_be_bytes().to_vec();
    for d in dims {
        v.extend_from_slice(&d.to_be_bytes());
    }
    v.extend_from_slice(body);
    v
}

static IDX_TOKENS: &[&[u8]] = &[
    b"\xff\xff\xff\xff",
    b"\x00\x00\x00\x00",
    b"\x00\x00\x08\x03",
    b"\x00\x00\x08\x01",
    b"\x00\x00\x00\x1c",
    b"\x7f\xff\xff\xff",
    b"\x00",
    b"\xff",
];

#[test]
fn fuzz_idx_reader() {
    let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let seeds = vec![
        idx_file(2051, &[2, 2, 3], &[0, 1, 2, 3, 4, 5, 255, 0, 0, 0, 0, 7]),
        idx_file(2049, &[3], &[3, 8, 1]),
        idx_file(2051, &[1, 4, 4], &[9; 16]),
        idx_file(2049, &[0], &[]),
    ];
    let count = AtomicUsize::new(0);
    runner(cases(3000))
        .run(&input(seeds, IDX_TOKENS), |bytes| {
            count.fetch_add(1, Ordering::Relaxed);
            let p = Path::new("fuzz.idx");
            if let Ok(img) = bounded(bytes.len(), 24, || read_idx_images_from(&bytes[..], p))? {
                prop_assert_eq!(img.pixels.len(), img.n * img.rows * img.cols);
            }
            if let Ok(y) = bounded(bytes.len(), 24, || read_idx_labels_from(&bytes[..], p))? {
                prop_assert!(y.len() <= bytes.len());
            }
            Ok(())
        })
        .unwrap();
    report("idx", &count);
}

#[test]
fn fuzz_uci_reader() {
    let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let seeds: Vec<Vec<u8>> = vec![
        b"1,2,3\n4, 5 ,6\r\n\n".to_vec(),
        b"2001,0.5,-1\n1999,1e3,2\n".to_vec(),
        b"1 2 3 \n4 5 6 \n".to_vec(),
        b"-1\n1\n1\n".to_vec(),
    ];
    let count = AtomicUsize::new(0);
    let layout = (
        prop_oneof![Just(Separator::Comma), Just(Separator::Whitespace)],
        prop_oneof![
            Just(LabelColumn::First),
            Just(LabelColumn::Last),
            Just(LabelColumn::None)
        ],
        prop::option::of(0usize..8),
    );
    runner(cases(3000))
        .run(
            &(input(seeds, NUMBER_TOKENS), layout),
            |(bytes, (sep, label, d))| {
                count.fetch_add(1, Ordering::Relaxed);
                let r = bounded(bytes.len(), 48, || {
                    read_dense_text_from(&bytes[..], Path::new("fuzz.csv"), sep, label, d)
                })?;
                if let Ok(ds) = r {
                    for i in 0..ds.n() {
                        let _ = ds.row(i).norm_sq();
                    }
                }
                Ok(())
            },
        )
        .unwrap();
    report("uci", &count);
}
