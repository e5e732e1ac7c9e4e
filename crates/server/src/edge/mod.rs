//! The server's edge: what stands between the internet and the game
//! (issue 17): connection caps and timeouts, login throttling, the JSON
//! error layer, security headers, option ranges and text cleaning.
//! docs/SECURITY.md says which threat each part answers.

pub mod layers;
pub mod options;
pub mod serve;
pub mod text;
pub mod throttle;
