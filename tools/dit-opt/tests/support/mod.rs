//! Helpers shared by dit-opt's integration tests.

pub mod models;
pub mod mutate;
