//! One integration-test binary; each capability's suite lives in
//! `tests/suite/`.

// std's sorts are disallowed in the library (clippy.toml: wasm size); a
// test or bench binary is native and may use them.
#![allow(clippy::disallowed_methods)]

mod suite;
