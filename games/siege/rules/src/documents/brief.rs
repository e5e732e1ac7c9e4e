//! Mission briefings: what a player reads of a mission before playing it
//! (its goal, rounds, special actions and rules in words, rewards, and
//! whether the engine can play it yet). Served in the content document
//! ([`super::content`]) and in a campaign's standings.

use crate::content::ids::Edition;
use crate::content::missions::MissionDef;
use serde::Serialize;

/// The CE campaign a mission id belongs to: `ce-c2m4` → 2. `None` for any
/// other id (classic missions, test missions).
pub fn campaign_of(mission: &str) -> Option<u8> {
    let rest = mission.strip_prefix("ce-c")?;
    let (n, k) = rest.split_once('m')?;
    let n: u8 = n.parse().ok()?;
    k.parse::<u8>().ok()?;
    Some(n)
}

/// What a mission's briefing needs: its name, goal, rounds, special
/// actions and rules, rewards, and whether the engine can play it yet
/// (`playable`; `missing` names each rule it uses that is not implemented,
/// from `citadel_rules::game::playable::unsupported`).
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MissionBrief<'a> {
    /// Mission id.
    pub id: &'a str,
    /// Name.
    pub name: &'a str,
    /// The edition it is played with: `"ce"` (Collectors Edition) or
    /// `"classic"` (1993); the game's ruleset follows it.
    pub edition: &'static str,
    /// The CE campaign it belongs to (1 or 2), from its id.
    pub campaign: Option<u8>,
    /// Rounds (EVT-1).
    pub rounds: u32,
    /// The primary goal (MSN-2).
    pub goal: &'a crate::content::missions::Goal,
    /// The mission ends as soon as the goal holds.
    pub ends_early: bool,
    /// Special actions (MSN-3).
    pub special_actions: &'a [crate::content::missions::SpecialActionDef],
    /// The mission's special rules, each `{ key, text }`.
    pub special_rules: Vec<SpecialRule<'a>>,
    /// Rewards: success PP, the DL's failure PP, the commander's penalty.
    pub rewards: &'a crate::content::missions::Rewards,
    /// Secondary missions are used.
    pub secondary: bool,
    /// The event cards in play.
    pub events: &'a [u32],
    /// The engine can play it.
    pub playable: bool,
    /// What it still needs, in words; empty when playable.
    pub missing: Vec<String>,
}

/// A mission `RULE` key and what it does, in words.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SpecialRule<'a> {
    /// The record's key.
    pub key: &'a str,
    /// A sentence for players.
    pub text: String,
}

/// A `RULE` key in words (missions.md). A key not listed here is shown as
/// its words ("some_rule" → "some rule"), so a new record needs no change
/// here to be shown.
fn rule_text(key: &str) -> String {
    match key {
        "ends_when_no_dt_on_board" => {
            "The mission also ends as soon as no Doomtrooper is left on the board.".into()
        }
        "hack_relay_transmits" => {
            "A Tech Specialist's successful hack of a relay also transmits.".into()
        }
        "special_deal_34" => {
            "Special deal: the Nepharite of force card 34 is hidden among the dealt cards.".into()
        }
        "throne_target" => "The Throne can be attacked and destroyed.".into(),
        "debris_setup_tile_1" => "Debris blocks parts of tile 1 at setup.".into(),
        "loot_removes_container" => "Looting a container removes it.".into(),
        "portal_reinforcements_from_round_6" => {
            "From round 6 the Dark Legion's reinforcements come through the portals.".into()
        }
        "nepharite_summoning" => {
            "The rituals summon a Nepharite while they are neither hacked nor destroyed.".into()
        }
        "ezoghoul_arrives_round_5" => {
            "In round 5 the Ezoghoul arrives next to the portal.".into()
        }
        "nepharite_if_c2m4_failed" => {
            "If Nepharite Summoning (C2M4) was not completed in this campaign, a Nepharite starts next to the portal.".into()
        }
        "" => String::new(),
        other => {
            let mut t = other.replace('_', " ");
            if let Some(first) = t.get(0..1) {
                t = first.to_uppercase() + &t[1..];
            }
            t + "."
        }
    }
}

/// The briefing of one mission record.
pub fn brief(m: &MissionDef) -> MissionBrief<'_> {
    let missing: Vec<String> = crate::game::playable::unsupported(m)
        .iter()
        .map(ToString::to_string)
        .collect();
    MissionBrief {
        id: &m.id,
        name: &m.name,
        edition: match m.edition {
            Edition::Ce => "ce",
            Edition::Classic => "classic",
        },
        campaign: campaign_of(&m.id),
        rounds: m.rounds,
        goal: &m.goal,
        ends_early: m.ends_early,
        special_actions: &m.special_actions,
        special_rules: m
            .special_rules
            .iter()
            .map(|k| SpecialRule {
                key: k,
                text: rule_text(k),
            })
            .collect(),
        rewards: &m.rewards,
        secondary: m.secondary,
        events: &m.events,
        playable: missing.is_empty(),
        missing,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_rule_key_reads_as_words() {
        assert_eq!(rule_text("doors_start_open"), "Doors start open.");
        assert_eq!(rule_text(""), "");
    }
}
