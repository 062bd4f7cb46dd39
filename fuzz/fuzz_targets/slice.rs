//! The slice parser and evaluator: any slice over any child list gives a
//! contiguous run of the list or a typed error; never a panic.
#![no_main]
use editkit::slice::{evaluate_slice, SliceOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (u8, &str)| {
    let (n, slice) = input;
    let ids: Vec<String> = (0..n).map(|i| format!("20240101000000-{:07}", i)).collect();
    if let Ok(r) = evaluate_slice(&ids, slice, &SliceOptions::default()) {
        let start = r.start as usize;
        assert!(start <= ids.len() && r.end as usize <= ids.len());
        assert_eq!(r.blocks.as_slice(), &ids[start..start + r.blocks.len()]);
    }
});
