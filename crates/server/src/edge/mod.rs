//! The server's edge: what stands between the internet and the game
//! (issue 17): connection caps and timeouts, login throttling, the JSON
//! error layer, security headers and text cleaning (option ranges are in
//! `crate::options`).
//! docs/SECURITY.md says which threat each part answers.

pub mod frames;
pub mod layers;
pub mod serve;
pub mod text;
pub mod throttle;
