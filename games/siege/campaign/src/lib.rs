//! # citadel-siege-campaign
//!
//! Siege of the Citadel's campaigns: the rules of a series of missions
//! whose PP, ranks, credits and outcomes carry over ([`rules`], core §14
//! and the 1993 campaign rules), served by the platform's campaign service
//! through [`service::SiegeCampaigns`].

pub mod rules;
pub mod service;

pub use service::SiegeCampaigns;
