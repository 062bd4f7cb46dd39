//! The files the quality corpus is drawn from, chosen so the corpus is the
//! same on every machine once `scripts/setup.sh` has run:
//!
//! - Rust: the crates of editkit's own native dependency graph (normal, dev
//!   and build dependencies for the host target) at the versions
//!   `Cargo.lock` pins, located with `cargo metadata --offline`. `cargo
//!   test` has unpacked exactly these before the test runs. Whatever else
//!   sits in the cargo registry (crates other projects or the wasm32 build
//!   unpacked) is never looked at.
//! - JavaScript/TypeScript: the packages `package-lock.json` pins (not the
//!   optional platform-specific ones), read from the `node_modules` that
//!   `npm ci` installed beside `Cargo.toml`; nested `node_modules` folders
//!   are left to their own lock entries.
//!
//! Every candidate gets a machine-independent name (`<crate>-<version>/…`
//! or `node_modules/<package>/…`); candidates are sorted by that name and
//! picked evenly, and [`fingerprint`] hashes the names of the chosen files,
//! so two machines that print the same fingerprint ran the same corpus.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// One source file of the corpus.
#[derive(Clone)]
pub struct Source {
    /// Machine-independent name: `<crate>-<version>/<path in the crate>` or
    /// `node_modules/<package>/<path in the package>`.
    pub name: String,
    pub path: PathBuf,
    pub text: String,
}

impl Source {
    pub fn is_rust(&self) -> bool {
        self.name.ends_with(".rs")
    }
}

/// A candidate before it is read: its stable name and where it is here.
#[derive(Clone)]
struct Candidate {
    name: String,
    path: PathBuf,
}

/// Collects up to `max_files` source files: half Rust from the dependency
/// graph's crates, half JS/TS from the locked npm packages, evenly spread
/// over the candidates sorted by name.
///
/// Panics (this is test and bench code) when the sources setup provides are
/// missing, naming the command that provides them, rather than silently
/// building a different corpus.
pub fn collect_sources(max_files: usize) -> Vec<Source> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rust = sorted(rust_candidates(root, &["rs"]));
    let js = sorted(js_candidates(root, &["js", "mjs", "cjs", "ts"]));
    let per_side = max_files / 2;
    let mut out = Vec::new();
    for (candidates, want) in [(&rust, per_side), (&js, max_files - per_side)] {
        let usable: Vec<Source> = spread(candidates, want * 4)
            .into_iter()
            .filter_map(read_usable)
            .collect();
        out.extend(spread(&usable, want));
    }
    out
}

/// Collects up to `max_docs` Markdown documents from the same packages:
/// their READMEs, guides and change logs. Every document with Chinese or
/// Japanese prose in it is taken (there are few: vditor's README is the
/// main one), the rest spread evenly over the names. A document is usable
/// when it is hand-written prose of a sensible size (1–120 KB, LF, no BOM,
/// at least 10 lines).
pub fn collect_markdown(max_docs: usize) -> Vec<Source> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut candidates = rust_candidates(root, &["md"]);
    candidates.extend(js_candidates(root, &["md"]));
    let usable: Vec<Source> = sorted(candidates)
        .into_iter()
        .filter_map(read_markdown)
        .collect();
    let cjk = |s: &Source| {
        s.text
            .chars()
            .filter(|c| ('\u{4e00}'..='\u{9fff}').contains(c))
            .count()
            >= 200
    };
    let (mut out, latin): (Vec<Source>, Vec<Source>) = usable.into_iter().partition(cjk);
    out.extend(spread(&latin, max_docs.saturating_sub(out.len())));
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

fn read_markdown(candidate: Candidate) -> Option<Source> {
    let meta = std::fs::metadata(&candidate.path).ok()?;
    if !(1_000..=120_000).contains(&meta.len()) {
        return None;
    }
    let text = std::fs::read_to_string(&candidate.path).ok()?;
    if text.contains('\r') || text.starts_with('\u{feff}') || text.lines().count() < 10 {
        return None;
    }
    Some(Source {
        name: candidate.name,
        path: candidate.path,
        text,
    })
}

fn sorted(mut candidates: Vec<Candidate>) -> Vec<Candidate> {
    candidates.sort_by(|a, b| a.name.cmp(&b.name));
    candidates
}

/// `quality corpus: <N> files, <sha256 of the sorted names, one per line>`.
pub fn fingerprint(sources: &[Source]) -> String {
    let mut names: Vec<&str> = sources.iter().map(|s| s.name.as_str()).collect();
    names.sort_unstable();
    let mut listing = String::new();
    for name in &names {
        listing.push_str(name);
        listing.push('\n');
    }
    format!(
        "quality corpus: {} files, {}",
        names.len(),
        hex(&sha256(listing.as_bytes()))
    )
}

// ---------------------------------------------------------------------------
// Rust: the native dependency graph, from `cargo metadata`.

fn rust_candidates(root: &Path, exts: &[&str]) -> Vec<Candidate> {
    let metadata = cargo_metadata(root);
    let mut out = Vec::new();
    for package in native_dependencies(&metadata) {
        let name = package["name"].as_str().unwrap_or_default();
        let version = package["version"].as_str().unwrap_or_default();
        let manifest = PathBuf::from(package["manifest_path"].as_str().unwrap_or_default());
        let Some(dir) = manifest.parent() else {
            continue;
        };
        assert!(
            dir.is_dir(),
            "{name} {version} is in the dependency graph but not unpacked at {} \
             (run `cargo test` or `cargo fetch` first)",
            dir.display()
        );
        let mut files = Vec::new();
        walk(dir, exts, &mut files, 0);
        for path in files {
            let rel = relative(&path, dir);
            out.push(Candidate {
                name: format!("{name}-{version}/{rel}"),
                path,
            });
        }
    }
    out
}

fn cargo_metadata(root: &Path) -> Value {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .current_dir(root)
        .args([
            "metadata",
            "--offline",
            "--locked",
            "--format-version",
            "1",
            "--filter-platform",
            &host_triple(),
        ])
        .output()
        .expect("running `cargo metadata`");
    assert!(
        output.status.success(),
        "`cargo metadata --offline` failed (run `cargo fetch` first): {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("`cargo metadata` prints JSON")
}

fn host_triple() -> String {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let output = Command::new(rustc)
        .arg("-vV")
        .output()
        .expect("running `rustc -vV`");
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .expect("`rustc -vV` names the host")
        .trim()
        .to_string()
}

/// The registry packages reachable from the root package through the
/// resolve graph (already filtered to the host platform).
fn native_dependencies(metadata: &Value) -> Vec<&Value> {
    let root = metadata["resolve"]["root"].as_str().unwrap_or_default();
    let empty = Vec::new();
    let nodes = metadata["resolve"]["nodes"].as_array().unwrap_or(&empty);
    let mut reached: Vec<&str> = vec![root];
    let mut next = 0;
    while next < reached.len() {
        let id = reached[next];
        next += 1;
        let node = nodes.iter().find(|n| n["id"] == id);
        for dep in node.and_then(|n| n["deps"].as_array()).unwrap_or(&empty) {
            let dep = dep["pkg"].as_str().unwrap_or_default();
            if !reached.contains(&dep) {
                reached.push(dep);
            }
        }
    }
    let Some(packages) = metadata["packages"].as_array() else {
        return Vec::new();
    };
    packages
        .iter()
        .filter(|p| {
            let id = p["id"].as_str().unwrap_or_default();
            id != root
                && reached.contains(&id)
                && p["source"]
                    .as_str()
                    .is_some_and(|s| s.starts_with("registry+"))
        })
        .collect()
}

// ---------------------------------------------------------------------------
// JavaScript/TypeScript: the packages package-lock.json pins.

fn js_candidates(root: &Path, exts: &[&str]) -> Vec<Candidate> {
    let lock_text =
        std::fs::read_to_string(root.join("package-lock.json")).expect("reading package-lock.json");
    let lock: Value = serde_json::from_str(&lock_text).expect("package-lock.json is JSON");
    let mut out = Vec::new();
    let Some(packages) = lock["packages"].as_object() else {
        return out;
    };
    for (key, entry) in packages {
        // The root entry is "", links point into the repo, and optional
        // packages are platform-specific builds only some machines install.
        if !key.starts_with("node_modules/") || entry["link"] == true || entry["optional"] == true {
            continue;
        }
        let dir = root.join(key);
        assert!(
            dir.is_dir(),
            "package-lock.json pins {key} but it is not installed (run `npm ci`)"
        );
        let mut files = Vec::new();
        walk(&dir, exts, &mut files, 0);
        for path in files {
            out.push(Candidate {
                name: format!("{key}/{}", relative(&path, &dir)),
                path,
            });
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Walking and reading.

fn relative(path: &Path, base: &Path) -> String {
    path.strip_prefix(base)
        .unwrap_or(path)
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// Source files under `dir`, not descending into nested `node_modules`
/// (each nested package has a lock entry of its own) or `target`.
fn walk(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>, depth: usize) {
    if depth > 12 {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if kind.is_dir() {
            if name != "node_modules" && name != "target" {
                walk(&path, exts, out, depth + 1);
            }
        } else if kind.is_file() {
            let ext_ok = path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| exts.contains(&e));
            if ext_ok && !name.contains(".min.") && !name.ends_with(".d.ts") {
                out.push(path);
            }
        }
    }
}

/// `want` items spread evenly over `items` (all of them if there are fewer).
fn spread<T: Clone>(items: &[T], want: usize) -> Vec<T> {
    if items.len() <= want {
        return items.to_vec();
    }
    (0..want)
        .map(|i| items[i * items.len() / want].clone())
        .collect()
}

/// Hand-written source of a sensible size; generated or minified files
/// (very long lines) and CRLF files are skipped (the LF/CRLF kind makes its
/// own CRLF).
fn read_usable(candidate: Candidate) -> Option<Source> {
    let meta = std::fs::metadata(&candidate.path).ok()?;
    if !(2_000..=150_000).contains(&meta.len()) {
        return None;
    }
    let text = std::fs::read_to_string(&candidate.path).ok()?;
    if text.contains('\r') || text.starts_with('\u{feff}') || text.lines().any(|l| l.len() > 160) {
        return None;
    }
    if text.lines().count() < 40 {
        return None;
    }
    Some(Source {
        name: candidate.name,
        path: candidate.path,
        text,
    })
}

// ---------------------------------------------------------------------------
// SHA-256 (FIPS 180-4), for the fingerprint only: a few lines here instead of
// a hashing crate and its dependencies in the graph the corpus is drawn from.

const ROUND_CONSTANTS: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

pub fn sha256(data: &[u8]) -> [u8; 32] {
    let mut state: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    // The message, a 1 bit, zeros to 56 mod 64 bytes, then its bit length.
    let mut message = data.to_vec();
    message.push(0x80);
    while message.len() % 64 != 56 {
        message.push(0);
    }
    message.extend_from_slice(&((data.len() as u64) * 8).to_be_bytes());
    for block in message.chunks_exact(64) {
        let mut w = [0u32; 64];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = state;
        for i in 0..64 {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let choice = (e & f) ^ (!e & g);
            let t1 = h
                .wrapping_add(s1)
                .wrapping_add(choice)
                .wrapping_add(ROUND_CONSTANTS[i])
                .wrapping_add(w[i]);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let majority = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(majority);
            h = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
            *s = s.wrapping_add(v);
        }
    }
    let mut out = [0u8; 32];
    for (chunk, word) in out.chunks_exact_mut(4).zip(state) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    out
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
