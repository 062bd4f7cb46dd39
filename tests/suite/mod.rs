pub mod support;
mod conformance;
