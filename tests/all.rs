//! One integration-test binary; each capability's suite lives in
//! `tests/suite/`.

mod suite;
