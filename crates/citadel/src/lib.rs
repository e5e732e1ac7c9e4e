//! # citadel
//!
//! The server binary and the one crate that names the games: it builds the
//! catalogue (`GET /api/catalogue`) from the games' crates and hands it to
//! the platform (`citadel-server`), which knows no game. Siege of the
//! Citadel first (a table whose options name no game is Siege's, as every
//! table was before the seam), then Neuroshima Hex. Adding a game is a
//! line here and a dependency in this crate's manifest
//! (docs/ARCHITECTURE.md, "Adding a game").

use citadel_server::config::Config;
use citadel_server::table::Games;
use std::sync::OnceLock;

/// The catalogue, built once.
pub fn catalogue() -> &'static Games {
    static CATALOGUE: OnceLock<Games> = OnceLock::new();
    CATALOGUE.get_or_init(|| {
        // The ids differ, so neither `with` fails (a test holds it).
        Games::new()
            .with_bots::<citadel_rules::game::Game>(citadel_bots::seat_bot)
            .and_then(|games| games.with_campaigns::<citadel_siege_campaign::SiegeCampaigns>())
            .and_then(|games| games.with::<citadel_neuroshima::NeuroshimaGame>())
            .unwrap_or_default()
    })
}

/// The configuration of a server for tests (`Config::for_tests`: memory
/// store, port 0, no bot delay) that plays this catalogue.
pub fn config_for_tests() -> Config {
    let mut config = Config::for_tests();
    config.games = catalogue().clone();
    config
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_catalogue_lists_siege_then_neuroshima() {
        let ids: Vec<String> = super::catalogue()
            .listing()
            .into_iter()
            .map(|g| g.id)
            .collect();
        assert_eq!(ids, ["siege", "neuroshima"]);
    }
}
