//! Block diff and slice speed (BENCHMARKS.md §3), natively:
//! `cargo bench --bench block_diff`. Prints the time of a dry run of a
//! 1,000-hunk diff against 1,000 blocks (parse + validate + content check;
//! the host answers from memory), next to splitting the diff text into
//! lines (the in-run baseline), and slice evaluation over 10k and 100k
//! children (linearity). Nothing is asserted.

use std::future::Future;
use std::hint::black_box;
use std::pin::pin;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use editkit::Block;
use editkit::{apply_block_diff, ApplyOptions};
use editkit::{evaluate_slice, SliceOptions};
use editkit::{Capability, HostResult, SiyuanHost};

fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

fn time<T>(mut f: impl FnMut() -> T) -> Duration {
    let mut best = Duration::MAX;
    let start = Instant::now();
    let mut runs = 0;
    while runs < 5 || start.elapsed() < Duration::from_millis(300) {
        let t = Instant::now();
        black_box(f());
        best = best.min(t.elapsed());
        runs += 1;
    }
    best
}

/// The host answers from a map, so its time is not editkit's.
struct Rows(std::collections::HashMap<String, Block>);

impl SiyuanHost for Rows {
    fn has(&self, c: Capability) -> bool {
        matches!(c, Capability::GetBlocks | Capability::GetKramdown)
    }
    async fn get_blocks(&self, ids: &[String]) -> HostResult<Vec<Option<Block>>> {
        Ok(ids.iter().map(|id| self.0.get(id).cloned()).collect())
    }
    // The check reads each block's kramdown too (SPEC §3.7: the tree, not
    // the SQL row, is the truth).
    async fn get_kramdown(&self, ids: &[String]) -> HostResult<Vec<Option<String>>> {
        Ok(ids
            .iter()
            .map(|id| {
                self.0
                    .get(id)
                    .map(|b| format!("{}\n{{: id=\"{}\"}}", b.markdown, b.id))
            })
            .collect())
    }
}

fn main() {
    let ids: Vec<String> = (0..1000)
        .map(|i| format!("20250101{:06}-blk{i:04}", 100_000 + i))
        .collect();
    let rows = Rows(
        ids.iter()
            .enumerate()
            .map(|(i, id)| {
                let block = Block {
                    id: id.clone(),
                    type_: "p".into(),
                    markdown: format!(
                        "Paragraph {i}: some text that an agent edits, with **bold** and `code`."
                    ),
                    ..Block::default()
                };
                (id.clone(), block)
            })
            .collect(),
    );
    let diff: String = ids
        .iter()
        .enumerate()
        .map(|(i, id)| format!("@@{id}@@\n<<<<<<< SEARCH\nParagraph {i}: some text\n=======\nParagraph {i}: edited text\n>>>>>>> REPLACE"))
        .collect::<Vec<_>>()
        .join("\n\n");
    let options = ApplyOptions {
        dry_run: true,
        ..ApplyOptions::default()
    };
    // BLOCK_DIFF_PROFILE=validate|dry-run: loop that part for a profiler
    // instead of printing the figures.
    if let Ok(which) = std::env::var("BLOCK_DIFF_PROFILE") {
        for _ in 0..2000 {
            if which == "validate" {
                black_box(editkit::validate_block_diff_format(&diff, &Default::default()).valid);
            } else {
                black_box(block_on(apply_block_diff(&diff, &rows, &options)).ok());
            }
        }
        return;
    }
    let parse = time(|| editkit::validate_block_diff_format(&diff, &Default::default()).valid);
    println!(
        "  parse + format validation alone: {:.3} ms",
        parse.as_secs_f64() * 1e3
    );
    let diffs = time(|| {
        (0..1000)
            .map(|i| {
                editkit::unified_diff(
                    &format!("Paragraph {i}: some text that an agent edits\n"),
                    &format!("Paragraph {i}: edited text that an agent edits\n"),
                    Default::default(),
                )
                .len()
            })
            .sum::<usize>()
    });
    println!(
        "  1,000 small unified diffs alone: {:.3} ms",
        diffs.as_secs_f64() * 1e3
    );
    let split = time(|| diff.split('\n').count());
    let check = time(|| {
        block_on(apply_block_diff(&diff, &rows, &options))
            .unwrap()
            .plan
            .len()
    });
    println!(
        "block diff dry run, 1,000 hunks: {:.3} ms; split into lines: {:.3} ms; ratio {:.1}× (target ≤ 10× in wasm)",
        check.as_secs_f64() * 1e3,
        split.as_secs_f64() * 1e3,
        check.as_secs_f64() / split.as_secs_f64()
    );
    let (host_ms, _) = {
        let t = time(|| block_on(rows.get_blocks(&ids)).unwrap().len());
        (t.as_secs_f64() * 1e3, ())
    };
    println!("  of which the in-memory host's lookup: {host_ms:.3} ms");

    for n in [10_000usize, 100_000] {
        let kids: Vec<String> = (0..n)
            .map(|i| format!("20250101{:06}-k{i:06}", 100_000 + i % 900_000))
            .collect();
        let anchor = format!("{}:+20", kids[n / 2]);
        let t = time(|| {
            evaluate_slice(&kids, &anchor, &SliceOptions::default())
                .unwrap()
                .blocks
                .len()
        });
        println!(
            "slice over {n} children ({anchor}): {:.1} µs",
            t.as_secs_f64() * 1e6
        );
    }
}
