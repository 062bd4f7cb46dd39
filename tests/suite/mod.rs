pub mod support;
mod conformance;
mod matcher;
