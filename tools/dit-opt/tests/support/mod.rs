//! Helpers shared by dit-opt's integration tests.

pub mod mutate;
