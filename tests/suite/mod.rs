pub mod support;
mod planner;
