//! Helpers shared by dit-opt's integration tests.

pub mod bishengir;
pub mod models;
pub mod mutate;
