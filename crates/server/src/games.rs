//! The games this server plays (`GET /api/catalogue`): the one place the
//! server lists a game's crate. Siege of the Citadel first (a table whose
//! options name no game is Siege's, as every table was before the seam),
//! then Neuroshima Hex.

use crate::table::Games;
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
