//! Every wire vocabulary is declared once, in Rust (`wire_enum!`); the
//! TypeScript unions in `pkg-template/src/wire.generated.ts` are generated
//! from those declarations. This test fails when that file is out of date;
//! `WIRE_WRITE=1 cargo test --test all wire` rewrites it.

use editkit::{
    AnchorMatch, AppendTarget, BlockStrategy, ContextMatch, DocLocation, EditKind, EditStatus,
    ErrorCode, FileOp, Lang, LocatedBy, MatchMode, Placement, PlanAction, PlanMode, Position,
    RejectReason, Strategy, WarningCode,
};

fn union(doc: &str, name: &str, values: impl Iterator<Item = &'static str>) -> String {
    let mut out = format!("/** {doc} */\nexport type {name} =\n");
    for v in values {
        out.push_str(&format!("  | '{v}'\n"));
    }
    out.pop();
    out.push_str(";\n");
    out
}

fn generated() -> String {
    [
        "// Generated from the Rust declarations (`wire_enum!` in src/): do not edit.\n\
         // `WIRE_WRITE=1 cargo test --test all wire` rewrites this file; that test\n\
         // fails when it is out of date.\n"
            .to_string(),
        union(
            "Every `code` an `EditkitError` can carry (Rust: `ErrorCode`).",
            "ErrorCode",
            ErrorCode::ALL.iter().map(|c| c.as_str()),
        ),
        union(
            "The matcher's strategies, most exact first (Rust: `Strategy`).",
            "Strategy",
            Strategy::ALL.iter().map(|s| s.as_str()),
        ),
        union(
            "Warnings of a block diff (Rust: `WarningCode`).",
            "WarningCode",
            WarningCode::ALL.iter().map(|w| w.as_str()),
        ),
        union(
            "How a block edit found its place without the matcher (Rust: `BlockStrategy`).",
            "BlockStrategy",
            BlockStrategy::ALL.iter().map(|s| s.as_str()),
        ),
        union(
            "Message language (Rust: `Lang`).",
            "Lang",
            Lang::ALL.iter().map(|s| s.as_str()),
        ),
        union(
            "What a block-diff edit does (Rust: `EditKind`).",
            "EditKind",
            EditKind::ALL.iter().map(|s| s.as_str()),
        ),
        union(
            "What happened to one block-diff edit (Rust: `EditStatus`).",
            "EditStatus",
            EditStatus::ALL.iter().map(|s| s.as_str()),
        ),
        union(
            "How much a match may forgive (Rust: `MatchMode`).",
            "MatchMode",
            MatchMode::ALL.iter().map(|s| s.as_str()),
        ),
        union(
            "How an anchor is compared with each line (Rust: `AnchorMatch`).",
            "AnchorMatch",
            AnchorMatch::ALL.iter().map(|s| s.as_str()),
        ),
        union(
            "The prepare tool that made a plan (Rust: `PlanMode`).",
            "PlanMode",
            PlanMode::ALL.iter().map(|s| s.as_str()),
        ),
        union(
            "What a plan does to the file (Rust: `PlanAction`).",
            "PlanAction",
            PlanAction::ALL.iter().map(|s| s.as_str()),
        ),
        union(
            "Where an insert goes relative to its anchor line (Rust: `Position`).",
            "Position",
            Position::ALL.iter().map(|s| s.as_str()),
        ),
        union(
            "How an apply found the planned place (Rust: `ContextMatch`).",
            "ContextMatch",
            ContextMatch::ALL.iter().map(|s| s.as_str()),
        ),
        union(
            "Why an apply was rejected (Rust: `RejectReason`).",
            "RejectReason",
            RejectReason::ALL.iter().map(|s| s.as_str()),
        ),
        union(
            "How an apply located the change (Rust: `LocatedBy`).",
            "LocatedBy",
            LocatedBy::ALL.iter().map(|s| s.as_str()),
        ),
        union(
            "What appendContent's `target` names (Rust: `AppendTarget`).",
            "AppendTarget",
            AppendTarget::ALL.iter().map(|s| s.as_str()),
        ),
        union(
            "Where appendContent put the new blocks (Rust: `Placement`).",
            "Placement",
            Placement::ALL.iter().map(|s| s.as_str()),
        ),
        union(
            "Where createNewDoc puts the new document (Rust: `DocLocation`).",
            "DocLocation",
            DocLocation::ALL.iter().map(|s| s.as_str()),
        ),
        union(
            "What a patch does to one file (Rust: `FileOp`).",
            "FileOp",
            FileOp::ALL.iter().map(|s| s.as_str()),
        ),
    ]
    .join("\n")
}

#[test]
fn the_typescript_unions_are_generated_from_the_rust_declarations() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/pkg-template/src/wire.generated.ts"
    );
    let want = generated();
    if std::env::var_os("WIRE_WRITE").is_some() {
        std::fs::write(path, &want).expect("writing wire.generated.ts");
    }
    let have = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        have == want,
        "pkg-template/src/wire.generated.ts is out of date: run `WIRE_WRITE=1 cargo test --test all wire`"
    );
}

#[test]
fn wire_strings_round_trip_through_serde() {
    for &code in ErrorCode::ALL {
        let json = serde_json::to_string(&code).unwrap();
        assert_eq!(json, format!("\"{}\"", code.as_str()));
    }
    for &s in Strategy::ALL {
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(serde_json::from_str::<Strategy>(&json).unwrap(), s);
    }
    let e = serde_json::from_str::<Strategy>("\"fuzzy_guess\"").unwrap_err();
    assert!(
        e.to_string().contains("unknown variant `fuzzy_guess`"),
        "{e}"
    );
    // Names are unique within each vocabulary.
    let mut codes: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(codes.len(), ErrorCode::ALL.len());
}
